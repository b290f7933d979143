"""``cribpi loadgen``: N simulated tables playing random complete games through the real engine
and publisher, one event per table every ``--pace`` seconds (for rehearsing a room and the
benchmarks). Table ``tK`` seats players ``P001``, ``P002`` (``P{2K-1:03}`` and ``P{2K:03}``);
with ``--director URL`` the tables play the director's seating instead, round after round, for
``--rounds`` rounds. Game ids start at the run's start time in milliseconds, so a second run
is not taken for a replay of the first. Past 100 tables it runs
worker processes of at most 100 tables each, stops them all on Ctrl-C, and names the tables of
any that failed."""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cribpi.exc import ConfigError, CribpiError
from cribpi.inputs import broker_option, int_option, number_option, path_option

#: The most tables a room has (``cribpi director init --tables``): t1 .. t2000.
MAX_TABLES = 2000
PER_PROCESS = 100  # as cribpi.tournament.table.loadgen.PER_PROCESS, which is not imported before it runs
STOP_WAIT_S = 30  # a stopped worker's goodbyes (each table says offline) before it is killed
CONNECT_WAIT_S = 10  # for the broker's first answer before any table starts


class BrokerUnreachable(CribpiError):
    """The broker did not answer: the machine or the network, not the command line."""

    exit_code = 1


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("loadgen", help="simulated tables publishing random games to a broker", description=__doc__)
    p.add_argument("--broker", required=True, type=broker_option, help="mqtt://host[:port] or mqtts://host[:port]")
    p.add_argument("--event", required=True, help="the event's id")
    p.add_argument("--tables", type=int_option(1, MAX_TABLES), default=None,
                   help=f"how many tables, 1-{MAX_TABLES} (default 4, or the room's with --room)")
    p.add_argument("--room", help="an event of several rooms (`director init --rooms`): play this room's tables,"
                                  " on its broker (--broker), from the rooms.json beside --credentials")
    p.add_argument("--first-table", type=int_option(1, MAX_TABLES), default=1,
                   help="the first table's number (default 1): several loadgens share a room")
    p.add_argument("--per-process", type=int_option(1, PER_PROCESS), default=PER_PROCESS,
                   help=f"tables a worker process plays, 1-{PER_PROCESS} (default {PER_PROCESS})")
    p.add_argument("--games", type=int_option(1, 1000), default=1, help="games per table (default 1)")
    p.add_argument("--seed", type=int_option(0, 2**32), default=0, help="the random seed (default 0)")
    p.add_argument("--pace", type=number_option(0, 60), default=1.0, help="seconds between a table's events (default 1)")
    p.add_argument("--director", help="the director's pages (http://HOST:8080): play its seating, round after round")
    p.add_argument("--rounds", type=int_option(1, 1000), default=1,
                   help="with --director: how many rounds to follow (default 1)")
    p.add_argument("--first-game", type=int_option(1, 2**52), default=None,
                   help="the first game id (default: the time in milliseconds, new for each run)")
    p.add_argument("--credentials", type=path_option("credentials file"),
                   help="the credentials.json `cribpi director init` wrote (default: no login)")
    p.add_argument("--outbox-dir", type=path_option("outbox folder", folder=True), default=None,
                   help="where the tables keep their outboxes (default: a temporary folder)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)  # one share of a larger run
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import tempfile

    from cribpi.tournament.broker import parse_broker

    parse_broker(args.broker)  # a bad URL is said once, before any table or worker starts
    if args.room is not None:
        _room(args)
    args.tables = 4 if args.tables is None else args.tables
    if not 0 <= args.pace <= 60:
        raise ConfigError(f"--pace {args.pace} is not valid: 0-60 seconds")
    last = args.first_table + args.tables - 1
    if last > MAX_TABLES:
        raise ConfigError(f"--first-table {args.first_table} with --tables {args.tables} ends at t{last}:"
                          f" tables go up to t{MAX_TABLES}")
    from cribpi.tournament.messages import NAME

    if not NAME.fullmatch(args.event):
        raise ConfigError(f"--event {args.event[:40]!r} is not valid: the event's id, 1-32 letters, digits, - or _")
    if args.director is not None and not args.director.startswith(("http://", "https://")):
        raise ConfigError(f"--director {args.director[:60]!r} is not valid: the director's pages, http://HOST:PORT")
    if args.first_game is None:
        from cribpi.tournament.table.loadgen import first_game_id

        args.first_game = first_game_id()
    creds = _credentials(args.credentials, args.first_table, last) if args.credentials else {}
    if not args.worker:  # the loadgen that starts the workers has asked already
        _probe(args, creds)
    args.outbox_dir = args.outbox_dir or Path(tempfile.mkdtemp(prefix="cribpi-loadgen-"))
    args.outbox_dir.mkdir(parents=True, exist_ok=True)
    failed: list[str] = []
    # SIGTERM stops the tables as Ctrl-C does (each says offline). Both are installed here, not
    # left as inherited: a loadgen started in the background of a script inherits SIGINT
    # ignored (and Python then leaves it so), and a Ctrl-C or a worker's stop went unheard.
    stopping = (signal.SIGINT, signal.SIGTERM)
    previous = {s: signal.signal(s, _interrupt) for s in stopping}
    signal.pthread_sigmask(signal.SIG_UNBLOCK, stopping)
    try:
        if args.worker or args.tables <= args.per_process:
            tables, games, events = play(args, creds)
            if args.worker:  # for the loadgen that started it
                print(json.dumps({"tables": tables, "games": games, "events": events}))
                return 0
        else:
            (tables, games, events), failed = supervise(args)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    print(f"{tables} tables played {games} games: {events} events published")
    for failure in failed:
        print(f"cribpi loadgen: {failure}", file=sys.stderr)
    return 1 if failed else 0


def _room(args: argparse.Namespace) -> None:
    """``--room NAME``: the room's tables (numbered on from its first), from the event's
    ``rooms.json`` (beside the event's credentials.json, or two folders up from a room's own)."""
    from cribpi.tournament.director.rooms import ROOMS_FILE, read_rooms

    if args.credentials is None:
        raise ConfigError("--room needs --credentials: the event's (or the room's) credentials.json, beside which"
                          f" `cribpi director init --rooms` wrote {ROOMS_FILE}")
    folder = next((f for f in (args.credentials.parent, args.credentials.parent.parent.parent)
                   if (f / ROOMS_FILE).exists()), None)
    if folder is None:
        raise ConfigError(f"--room {args.room[:40]!r}: no {ROOMS_FILE} beside --credentials {args.credentials}: give the"
                          " credentials.json of an event made by `cribpi director init --rooms`")
    rooms = read_rooms(folder)
    if args.room not in rooms:
        raise ConfigError(f"--room {args.room[:40]!r} is not a room of the event: {', '.join(rooms)}")
    numbers = [int(t[1:]) for t in rooms[args.room] if t[:1] == "t" and t[1:].isdigit()]
    if not numbers or numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        raise ConfigError(f"{folder / ROOMS_FILE}: room {args.room}'s tables are not t<N> numbered on")
    count = len(numbers) if args.tables is None else args.tables
    if count > len(numbers) or args.first_table != 1:
        raise ConfigError(f"--room {args.room} has {len(numbers)} tables (t{numbers[0]}-t{numbers[-1]}): give --tables"
                          f" 1-{len(numbers)} and no --first-table")
    args.first_table, args.tables = numbers[0], count


def _credentials(path: Path, first: int, last: int) -> dict[str, str]:
    """The room's credentials.json, holding a password for each table from ``first`` to ``last``."""
    from cribpi.tournament.director.room import read_credentials

    try:
        creds = read_credentials(path)
    except ConfigError as exc:
        raise ConfigError(f"--credentials: {exc}") from None
    missing = [f"t{n}" for n in range(first, last + 1) if f"t{n}" not in creds]
    if missing:
        room = sum(1 for user in creds if user[:1] == "t" and user[1:].isdigit())
        raise ConfigError(f"--credentials {path} has no {missing[0]}" + (f" (nor {len(missing) - 1} more)" if len(missing) > 1 else "")
                          + f": the room has {room} tables; give --tables and --first-table inside them")
    return creds


def _probe(args: argparse.Namespace, creds: dict[str, str]) -> None:
    """The broker takes the first table's connection, or one line saying why not."""
    from cribpi.tournament.broker import parse_broker
    from cribpi.tournament.table.loadgen import probe

    first = f"t{args.first_table}"
    why = probe(parse_broker(args.broker, username=first if creds else None, password=creds.get(first)), CONNECT_WAIT_S)
    if why is None:
        return
    if why.startswith("no answer"):
        raise BrokerUnreachable(f"the broker at {args.broker}: {why}; is it running there, on that port?")
    hint = "check --credentials (the room's credentials.json)" if creds else "give --credentials (the room's credentials.json)"
    raise ConfigError(f"the broker at {args.broker}: {why}; {hint}")


def play(args: argparse.Namespace, creds: dict[str, str]) -> tuple[int, int, int]:
    """Play this process's tables to the end; (tables, games, events)."""
    from cribpi.tournament.broker import parse_broker
    from cribpi.tournament.table.loadgen import WAITING, Seating, player_names, seated_games, table_games
    from cribpi.tournament.table.outbox import Outbox
    from cribpi.tournament.table.publisher import TablePublisher

    numbers = range(args.first_table, args.first_table + args.tables)
    parent = os.getppid()
    tables = []
    try:
        for n in numbers:
            broker = parse_broker(args.broker, username=f"t{n}" if creds else None, password=creds.get(f"t{n}"))
            pub = TablePublisher(broker, args.event, f"t{n}", Outbox(args.outbox_dir / f"t{n}-outbox.db"))
            pub.start()
            tables.append(pub)
        # Each table's games from the seed and its number alone: the same whatever the split.
        if args.director:  # the director's seating, round after round
            seating = Seating(args.director)
            games = [seated_games(f"t{n}", seating, random.Random(f"{args.seed}:{n}"), pub, args.first_game,
                                  args.rounds) for n, pub in zip(numbers, tables)]
        else:
            games = [table_games(player_names(n), random.Random(f"{args.seed}:{n}"), pub, args.games, args.first_game)
                     for n, pub in zip(numbers, tables)]
        events, before = 0, sum(pub.outbox.count("result") for pub in tables)
        while games:
            if args.worker and os.getppid() != parent:  # the loadgen that started it is gone
                raise KeyboardInterrupt
            tick, moved = time.monotonic(), False
            for game in list(games):
                step = next(game, None)
                if step is None:
                    games.remove(game)
                elif step is not WAITING:
                    events, moved = events + 1, True
            time.sleep(max(0.0 if moved else 0.05, args.pace - (time.monotonic() - tick)))  # waiting: no busy loop
        while any(pub.outbox.unsent() for pub in tables):
            time.sleep(0.1)
        played = sum(pub.outbox.count("result") for pub in tables) - before
    finally:
        _stop_tables(tables)
    return len(tables), played, events


def _stop_tables(tables: list[Any]) -> None:
    """Stop every table at once: each may wait for its sender (5 s) and for its ``offline`` to
    be acknowledged (10 s), so one after another a worker's tables took longer than a worker is
    given to stop (STOP_WAIT_S) on a loaded machine, and it was killed before all said offline."""
    import threading

    stopping = [threading.Thread(target=pub.stop, name=f"stop {pub.table}", daemon=True) for pub in tables]
    for thread in stopping:
        thread.start()
    for thread in stopping:
        thread.join()


def supervise(args: argparse.Namespace) -> tuple[tuple[int, int, int], list[str]]:
    """Run the tables in worker processes (``cribpi loadgen --worker`` on a share each); what
    the workers that finished played, added up, and a line for each that failed, naming its
    tables (the others play on)."""
    from cribpi.tournament.table.loadgen import table_groups

    shares = table_groups(args.first_table, args.tables, args.per_process)
    workers: list[tuple[range, subprocess.Popen[str]]] = []
    # The workers run in sessions of their own: a Ctrl-C at the terminal reaches this process
    # only, which stops each of them once.
    try:
        for share in shares:
            proc = subprocess.Popen(_worker_argv(args, share), stdout=subprocess.PIPE, text=True,
                                    start_new_session=True)
            workers.append((share, proc))
            print(f"{_name(share)}: worker pid {proc.pid}", file=sys.stderr, flush=True)
        while any(proc.poll() is None for _, proc in workers):
            time.sleep(0.2)
    except KeyboardInterrupt:
        _stop(workers)
        raise
    return _summary(workers)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _worker_argv(args: argparse.Namespace, share: range) -> list[str]:
    argv = [sys.executable, "-m", "cribpi", "loadgen", "--worker", "--broker", args.broker, "--event", args.event,
            "--first-table", str(share.start), "--tables", str(len(share)), "--games", str(args.games),
            "--seed", str(args.seed), "--pace", str(args.pace), "--outbox-dir", str(args.outbox_dir),
            "--first-game", str(args.first_game), "--rounds", str(args.rounds)]
    argv += ["--director", args.director] if args.director else []
    return argv + (["--credentials", str(args.credentials)] if args.credentials else [])


def _name(share: range) -> str:
    return f"tables t{share.start}-t{share.stop - 1}"


def _stop(workers: list[tuple[range, subprocess.Popen[str]]]) -> None:
    """Ask each worker still running to stop (its tables say offline), then make sure; one
    line for each that did not stop as asked."""
    for _, proc in workers:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT_S
    for share, proc in workers:
        try:
            proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.returncode not in (0, 130):  # 130: stopped by the interrupt, its tables offline
            print(f"cribpi loadgen: {_name(share)}: their worker {_how(proc.returncode)}", file=sys.stderr)


def _how(code: int) -> str:
    return f"was killed by {signal.Signals(-code).name}" if code < 0 else f"exited with {code}"


def _summary(workers: list[tuple[range, subprocess.Popen[str]]]) -> tuple[tuple[int, int, int], list[str]]:
    totals, failed = [0, 0, 0], []
    for share, proc in workers:
        out = proc.stdout.read() if proc.stdout else ""
        try:
            said = json.loads(out.strip().splitlines()[-1]) if proc.returncode == 0 else None
        except (ValueError, IndexError):
            said = None
        if said is None:
            failed.append(f"{_name(share)}: their worker {_how(proc.returncode)}; they are not in the count above")
            continue
        for n, key in enumerate(("tables", "games", "events")):
            totals[n] += int(said[key])
    return (totals[0], totals[1], totals[2]), failed
