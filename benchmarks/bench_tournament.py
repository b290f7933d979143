"""Tournament figures: the director under a room's load, and the standings' cost per result.

    python benchmarks/bench_tournament.py [--tables 200] [--seconds 30] [--players 500]

1. A real mosquitto (the room ``cribpi director init`` writes) and ``cribpi director serve`` in
   its own process; ``--tables`` publishers (the real engine and publisher) each publish one
   event a second, spread over the second; one client follows ``/events``. Prints the
   publish -> server-sent event latency (median, p99; target p99 <= 250 ms), the director's
   CPU (% of one core) and its peak memory (RSS). Each table's engine goes ``--steps`` moves a
   second (default 10) and tells the publisher one of them (its board) and every move that ends
   a game or confirms its result, so games finish under the load: the result path is timed
   too, from the table's last confirmation (its result released) to the standings change on the
   leaderboard's stream (target p99 <= 250 ms).
2. The director taking confirmed results with ``--players`` registered: ms per result (target
   <= 5 ms at 500 players), through ``Director.handle`` (parse, checks, SQLite, standings).
3. One table's board flood (``bench_tournament_flood.py``): t1 publishes ``--flood-rate`` boards
   a second for ``--flood-seconds`` in a room of 24 tables; the other tables' boards on
   ``/events`` (target p99 <= 500 ms), ``/api/standings`` (p99 <= 250 ms), the director's RSS
   growth (<= 30 MB) and its log's (<= 1 MB).
4. With ``--rooms N``, instead: one event across N rooms of ``--tables`` tables each, each
   room's mosquitto bridged to the director's (``bench_tournament_rooms.py``), once as it is
   and once with a room's link cut for ``--cut`` seconds (default 30) in the middle.
"""

from __future__ import annotations

import argparse
import getpass
import json
import multiprocessing
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2

from cribpi.app.listeners import Update
from cribpi.game import GameOver
from cribpi.game.events import Confirm
from cribpi.tournament.broker import parse_broker
from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.table.loadgen import PER_PROCESS, player_names, table_games, table_groups
from cribpi.tournament.table.outbox import Outbox
from cribpi.tournament.table.publisher import TablePublisher
from cribpi.tournament.director.room import EVENT_DB, init_event

sys.path.insert(0, str(Path(__file__).parent))
from bench_tournament_flood import board_flood  # noqa: E402 - beside this script
from localhost import free_port, rss_mb, stream_events, wait_port  # noqa: E402

EVENT = "bench"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def follow(url: str, latencies: list[float], stop: threading.Event) -> None:
    """Read the event stream: each table update's age since the table stamped it."""
    try:
        read_stream(url, latencies, stop)
    except httpx2.HTTPError:
        pass  # the director stopped at the end of the run


STANDINGS: dict[tuple[str, int], float] = {}  # (table, result id) -> when the standings changed on the stream


def read_stream(url: str, latencies: list[float], stop: threading.Event) -> None:
    shown: dict[str, float] = {}
    for kind, changed in stream_events(url, stop):
        if kind == "standings" and "table" in changed:
            STANDINGS.setdefault((changed["table"], changed["id"]), time.time())
        elif kind == "table":
            state = changed.get("state")
            if state and shown.get(changed["table"]) != state["at"]:  # a new board, not a status change
                shown[changed["table"]] = state["at"]
                latencies.append(time.time() - state["at"])


class Sparse:
    """Between a table's engine and its publisher: passes on one update in ``every`` (its board
    a second) and each one that ends a game or confirms it; notes when each result is released
    (its last confirmation), by its outbox id."""

    def __init__(self, pub: TablePublisher, every: int, released: list[tuple[str, int, float]]) -> None:
        self.pub, self.every, self.released, self.moves = pub, every, released, 0

    def __call__(self, update: Update) -> None:
        self.moves += 1
        ends = any(isinstance(e, GameOver) for e in update.effects)
        confirms = any(isinstance(e, Confirm) for e in update.events)
        if ends or confirms or self.moves % self.every == 0:
            held = self.pub.outbox.held()
            self.pub(update)
            if held and not self.pub.outbox.held():
                row = self.pub.outbox.db.execute("SELECT max(id) FROM tournament_outbox WHERE kind = 'result'").fetchone()
                self.released.append((self.pub.table, int(row[0]), time.time()))


def play_tables(numbers: list[int], tables: int, port: int, creds: dict[str, str], folder: Path, start: float,
                seconds: float, steps: int, out: multiprocessing.Queue[list[tuple[str, int, float]]]) -> None:
    """One process's tables: each moves ``steps`` times a second and publishes a board a
    second, the room's tables spread over the second; the results it released, to ``out``."""
    pubs = []
    for n in numbers:
        url = parse_broker(f"mqtt://127.0.0.1:{port}", username=f"t{n}", password=creds[f"t{n}"])
        pub = TablePublisher(url, EVENT, f"t{n}", Outbox(folder / f"t{n}-outbox.db"))
        pub.start()
        pubs.append(pub)
    released: list[tuple[str, int, float]] = []
    games = [table_games(player_names(n), random.Random(n), Sparse(pub, steps, released), 10_000)
             for n, pub in zip(numbers, pubs)]
    time.sleep(max(0.0, start - time.time()))
    for second in range(int(seconds)):
        for n, game in zip(numbers, games):
            due = start + second + (n - 1) / tables
            time.sleep(max(0.0, due - time.time()))
            for _ in range(steps):
                next(game)
    time.sleep(1)
    for pub in pubs:
        pub.stop()
    out.put(released)


def room_load(tables: int, seconds: float, folder: Path, steps: int = 10) -> None:
    port, http = free_port(), free_port()
    room = init_event(folder, EVENT, tables, "bench-admin-pw", port=port, bind="127.0.0.1", run_as=getpass.getuser(),
                      open_play=True)  # no round seated: the tables' results count, as at a club night
    db = EventDB(folder / EVENT_DB)
    for n in range(1, tables + 1):
        for name in player_names(n):
            db.add_player(name)
    db.close()
    (folder / "credentials.json").write_text(json.dumps(room.credentials))
    broker = subprocess.Popen(["mosquitto", "-c", str(room.conf)], stderr=subprocess.DEVNULL)
    wait_port(port)
    director = subprocess.Popen([sys.executable, "-m", "cribpi", "director", "serve", "--dir", str(folder),
                                 "--broker", f"mqtt://127.0.0.1:{port}", "--host", "127.0.0.1",
                                 "--http-port", str(http)])
    wait_port(http)
    latencies: list[float] = []
    stop = threading.Event()
    reader = threading.Thread(target=follow, args=(f"http://127.0.0.1:{http}/events", latencies, stop), daemon=True)
    reader.start()
    groups = [list(share) for share in table_groups(1, tables, PER_PROCESS)]  # as `cribpi loadgen` splits them
    start = time.time() + 3  # every group connected by then
    released: multiprocessing.Queue[list[tuple[str, int, float]]] = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=play_tables, args=(g, tables, port, room.credentials, folder, start,
                                                                 seconds, steps, released)) for g in groups]
    for worker in workers:
        worker.start()
    time.sleep(max(0.0, start - time.time()))
    latencies.clear()
    cpu0, t0 = cpu_seconds(director.pid), time.monotonic()
    time.sleep(int(seconds))
    cpu = (cpu_seconds(director.pid) - cpu0) / (time.monotonic() - t0)  # while the room plays
    results = [r for _ in workers for r in released.get(timeout=120)]
    for worker in workers:
        worker.join()
    time.sleep(1)  # the last results reach the stream
    events, elapsed = tables * int(seconds), float(int(seconds))
    rss = rss_mb(director.pid, "VmHWM")
    health = httpx2.get(f"http://127.0.0.1:{http}/api/health").json()
    stop.set()
    director.terminate()
    director.wait(10)
    broker.terminate()
    broker.wait(5)
    got = sorted(latencies)
    print(f"room: {tables} tables, {events} events in {elapsed:.1f} s ({events / elapsed:.0f}/s)")
    if got:
        p99 = got[min(len(got) - 1, int(len(got) * 0.99))]
        print(f"  publish -> SSE: {len(got)} updates, median {statistics.median(got) * 1000:.1f} ms,"
              f" p99 {p99 * 1000:.1f} ms (target <= 250 ms)")
    waits = sorted(STANDINGS[(table, row)] - at for table, row, at in results if (table, row) in STANDINGS)
    if waits:
        p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
        print(f"  result -> standings on the stream: {len(waits)} of {len(results)} results, median"
              f" {statistics.median(waits) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {waits[-1] * 1000:.1f} ms"
              f" (target p99 <= 250 ms)")
    else:
        print(f"  result -> standings on the stream: none of {len(results)} results seen (--steps, --seconds)")
    print(f"  director: {cpu * 100:.1f}% of one core, peak RSS {rss:.1f} MB; messages taken {health['accepted']},"
          f" refused {health['refused']}")


def standings_cost(players: int, results: int, folder: Path) -> None:
    db = EventDB(folder / "standings.db", create=True)
    db.put("event", EVENT)
    db.put("open_play", "1")  # random pairs at random tables: no seating expects them
    tables = [f"t{n}" for n in range(1, players // 2 + 1)]
    db.add_tables(tables)
    director = Director(db)
    names = [f"P{n:04}" for n in range(players)]
    for name in names:
        director.register(name)
    director.group_commits()  # as `director serve` runs: durable in groups, acknowledged after
    rng = random.Random(2)
    times = []
    for n in range(results):
        a, b = rng.sample(names, 2)
        loser = rng.randrange(40, 121)
        body = {"id": n + 1, "game": n, "game_number": 1, "players": [a, b], "scores": [121, loser], "winner": 0,
                "kind": "win" if loser >= 91 else "skunk" if loser >= 61 else "double_skunk", "game_points": 2,
                "margin": 121 - loser, "status": "confirmed", "at": time.time()}
        payload = json.dumps(body).encode()
        start = time.perf_counter()
        assert director.handle(f"cribpi/{EVENT}/tables/{rng.choice(tables)}/result", payload)
        director.flush_wanted.set()
        director.ranked()
        times.append(time.perf_counter() - start)
    director.close()
    times.sort()
    print(f"standings: {players} players, {results} results: median {statistics.median(times) * 1000:.2f} ms,"
          f" p99 {times[int(len(times) * 0.99)] * 1000:.2f} ms per result, with the ranking (target <= 5 ms)")


def main() -> None:
    # Each simulated table holds a socket, paho's wake-up pair and its outbox's SQLite files.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--results", type=int, default=2000)
    parser.add_argument("--steps", type=int, default=10, help="a table's moves a second (it publishes one board)")
    parser.add_argument("--skip-standings", action="store_true", help="only the room's load")
    parser.add_argument("--flood-rate", type=int, default=5000, help="t1's boards a second in the flood")
    parser.add_argument("--flood-seconds", type=float, default=20)
    parser.add_argument("--skip-flood", action="store_true", help="no board flood")
    parser.add_argument("--rooms", type=int, default=0, help="one event across this many bridged rooms of --tables each")
    parser.add_argument("--cut", type=float, default=30, help="with --rooms: a room's link cut this long mid-run (s)")
    args = parser.parse_args()
    if args.rooms:
        from bench_tournament_rooms import rooms_load

        with tempfile.TemporaryDirectory() as tmp:
            rooms_load(args.rooms, args.tables, args.seconds, Path(tmp) / "rooms", args.steps)
        if args.cut > 0:
            with tempfile.TemporaryDirectory() as tmp:
                rooms_load(args.rooms, args.tables, max(args.seconds, args.cut + 30), Path(tmp) / "cut", args.steps,
                           cut=args.cut)
        return
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_standings:
            standings_cost(args.players, args.results, Path(tmp))
        room_load(args.tables, args.seconds, Path(tmp) / "room", args.steps)
        if not args.skip_flood:
            board_flood(24, args.flood_rate, args.flood_seconds, Path(tmp) / "flood")


if __name__ == "__main__":
    main()
