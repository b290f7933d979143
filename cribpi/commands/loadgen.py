"""``cribpi loadgen``: N simulated tables playing random complete games through the real engine
and publisher, one event per table every ``--pace`` seconds (for rehearsing a room and the
benchmarks). Table ``tK`` seats players ``P(2K-1)`` and ``P(2K)``; at most 150 tables a
process (``--first-table`` lets several share a room)."""

from __future__ import annotations

import argparse
import json
import random
import time

from cribpi.inputs import int_option, path_option, read_user_text


#: paho's network loop uses select(), which stops at file descriptor 1024; each table holds a
#: socket, paho's wake-up pair and its outbox's files. Run several loadgens for more tables.
MAX_TABLES = 150


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("loadgen", help="simulated tables publishing random games to a broker", description=__doc__)
    p.add_argument("--broker", required=True, help="mqtt://host[:port] or mqtts://host[:port]")
    p.add_argument("--event", required=True, help="the event's id")
    p.add_argument("--tables", type=int_option(1, MAX_TABLES), default=4,
                   help=f"how many tables, 1-{MAX_TABLES} per process (default 4)")
    p.add_argument("--first-table", type=int_option(1, 999), default=1,
                   help="the first table's number (default 1): several loadgens share a room")
    p.add_argument("--games", type=int_option(1, 1000), default=1, help="games per table (default 1)")
    p.add_argument("--seed", type=int_option(0, 2**32), default=0, help="the random seed (default 0)")
    p.add_argument("--pace", type=float, default=1.0, help="seconds between a table's events (default 1)")
    p.add_argument("--credentials", type=path_option("credentials file"),
                   help="the credentials.json `cribpi director init` wrote (default: no login)")
    p.add_argument("--outbox-dir", type=path_option("outbox folder", folder=True), default=None,
                   help="where the tables keep their outboxes (default: a temporary folder)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import tempfile
    from pathlib import Path

    from cribpi.exc import ConfigError
    from cribpi.tournament.broker import parse_broker
    from cribpi.tournament.loadgen import player_names, table_games
    from cribpi.tournament.outbox import Outbox
    from cribpi.tournament.publisher import TablePublisher

    if not 0 <= args.pace <= 60:
        raise ConfigError(f"--pace {args.pace} is not valid: 0-60 seconds")
    creds = json.loads(read_user_text(args.credentials, "credentials file")) if args.credentials else {}
    numbers = range(args.first_table, args.first_table + args.tables)
    brokers = [parse_broker(args.broker, username=f"t{n}" if creds else None, password=creds.get(f"t{n}"))
               for n in numbers]
    folder = args.outbox_dir or Path(tempfile.mkdtemp(prefix="cribpi-loadgen-"))
    folder.mkdir(parents=True, exist_ok=True)
    tables = []
    for n, broker in zip(numbers, brokers):
        table = f"t{n}"
        pub = TablePublisher(broker, args.event, table, Outbox(folder / f"{table}-outbox.db"))
        pub.start()
        tables.append((n, pub))
    rng = random.Random(args.seed)
    games = [table_games(player_names(n), random.Random(rng.getrandbits(64)), pub, args.games) for n, pub in tables]
    events = 0
    try:
        while games:
            tick = time.monotonic()
            for game in list(games):
                if next(game, None) is None:
                    games.remove(game)
                else:
                    events += 1
            time.sleep(max(0.0, args.pace - (time.monotonic() - tick)))
        while any(pub.outbox.unsent() for _, pub in tables):
            time.sleep(0.1)
    finally:
        for _, pub in tables:
            pub.stop()
    print(f"{args.tables} tables played {args.tables * args.games} games: {events} events published")
    return 0

