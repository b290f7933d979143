"""One table's board flood against a room (issue 28): figures for ``bench_tournament.py``.

A real mosquitto (the room ``cribpi director init`` writes) and ``cribpi director serve`` in its
own process, its log to a file. Every table but t1 publishes a board a second, spread over the
second, as it plays; a wall follows ``/events``; a client asks ``/api/standings`` ten times a
second. Then t1, with its own password, publishes ``--flood-rate`` boards a second for
``--flood-seconds`` (QoS 0, as ``mosquitto_pub`` does; one in ten malformed), from its own process. Prints the other
tables' publish -> ``/events`` latency before and during the flood (target p99 <= 500 ms),
``/api/standings`` p99 during it (<= 250 ms), the director's RSS growth (<= 30 MB) and its log's
growth (<= 1 MB), and what it counted. Then t1 floods events, 3,500 a second for as long: the
director's RSS and log growth.

    python benchmarks/bench_tournament_flood.py [--tables 24] [--flood-rate 5000] [--flood-seconds 20]
"""

from __future__ import annotations

import argparse
import getpass
import json
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx2
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from cribpi.tournament.director.room import init_event

sys.path.insert(0, str(Path(__file__).parent))
from localhost import free_port, rss_mb, stream_events, wait_port  # noqa: E402 - beside this script

EVENT = "flood"
BOARD = {"game": 1, "players": ["Ann", "Ben"], "scores": [10, 20], "rear": [0, 5], "dealer": 0, "game_number": 1,
         "match_games": 1, "games_won": [0, 0], "last": None, "phase": "play", "status": "playing"}


def client(port: int, table: str, password: str, inflight: int = 20) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=table)
    c.username_pw_set(table, password)
    c.max_queued_messages_set(0)
    c.max_inflight_messages_set(inflight)
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def board(msg_id: int) -> bytes:
    return json.dumps({**BOARD, "id": msg_id, "at": time.time()}, separators=(",", ":")).encode()


def flood(port: int, password: str, rate: int, seconds: float, start: float, out: Any, kind: str = "state") -> None:
    """t1's flood, in its own process: ``rate`` boards (or events) a second for ``seconds`` from
    ``start``; one in ten malformed (refused, and logged a line a second). Boards at QoS 0, as
    ``mosquitto_pub`` sends them; events at QoS 1, as a table does."""
    c = client(port, "t1", password, inflight=1000)
    time.sleep(max(0.0, start - time.time()))
    base, sent, t0 = int(time.time() * 1e6), 0, time.monotonic()
    while (now := time.monotonic() - t0) < seconds:
        while sent < now * rate:
            if not sent % 10:
                payload = b'{"scores": "x"}'
            elif kind == "state":
                payload = board(base + sent)
            else:
                payload = json.dumps({"id": base + sent, "game": 1, "event": {"type": "go", "seat": 0},
                                      "at": time.time()}).encode()
            c.publish(f"cribpi/{EVENT}/tables/t1/{kind}", payload, qos=0 if kind == "state" else 1)
            sent += 1
        time.sleep(0.001)
    time.sleep(0.5)
    c.disconnect()
    c.loop_stop()
    out.put(sent / seconds)


def play(port: int, creds: dict[str, str], tables: int, stop: threading.Event) -> None:
    """Every table but t1: a board a second, the tables spread over the second."""
    clients = {f"t{n}": client(port, f"t{n}", creds[f"t{n}"]) for n in range(2, tables + 1)}
    base, second = int(time.time() * 1e6), 0
    start = time.time()
    while not stop.is_set():
        for n, (table, c) in enumerate(clients.items()):
            time.sleep(max(0.0, start + second + n / len(clients) - time.time()))
            c.publish(f"cribpi/{EVENT}/tables/{table}/state", board(base + second), qos=1)
        second += 1
    for c in clients.values():
        c.disconnect()
        c.loop_stop()


def follow(url: str, late: list[tuple[float, float]], stop: threading.Event) -> None:
    """The wall: (when, how late) of each board of a table other than t1."""
    try:
        for kind, live in stream_events(url, stop):
            if kind == "table" and live["table"] != "t1" and live.get("state"):
                now = time.time()
                late.append((now, now - live["state"]["at"]))
    except httpx2.HTTPError:
        pass


def ask(url: str, took: list[tuple[float, float]], stop: threading.Event) -> None:
    with httpx2.Client(timeout=30) as c:
        while not stop.is_set():
            t0 = time.perf_counter()
            c.get(url).raise_for_status()
            took.append((time.time(), time.perf_counter() - t0))
            time.sleep(0.1)


def p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


def board_flood(tables: int, rate: int, seconds: float, folder: Path) -> None:
    port, http = free_port(), free_port()
    room = init_event(folder, EVENT, tables, "bench-admin-pw", port=port, bind="127.0.0.1", run_as=getpass.getuser())
    (folder / "credentials.json").write_text(json.dumps(room.credentials))  # as init leaves them for serve
    broker = subprocess.Popen(["mosquitto", "-c", str(room.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        run(folder, port, http, room.credentials, tables, rate, seconds)
    finally:
        broker.terminate()
        broker.wait(5)


def run(folder: Path, port: int, http: int, creds: dict[str, str], tables: int, rate: int, seconds: float) -> None:
    wait_port(port)
    log = folder / "director.log"
    with log.open("wb") as sink:
        director = subprocess.Popen([sys.executable, "-m", "cribpi", "director", "serve", "--dir", str(folder),
                                     "--broker", f"mqtt://127.0.0.1:{port}", "--host", "127.0.0.1",
                                     "--http-port", str(http)], stdout=sink, stderr=sink)
    try:
        measure(director.pid, log, http, port, creds, tables, rate, seconds)
    finally:
        director.terminate()
        director.wait(10)


def measure(pid: int, log: Path, http: int, port: int, creds: dict[str, str], tables: int, rate: int,
            seconds: float) -> None:
    wait_port(http)
    stop = threading.Event()
    late: list[tuple[float, float]] = []
    took: list[tuple[float, float]] = []
    threads = [threading.Thread(target=follow, args=(f"http://127.0.0.1:{http}/events", late, stop), daemon=True),
               threading.Thread(target=play, args=(port, creds, tables, stop), daemon=True),
               threading.Thread(target=ask, args=(f"http://127.0.0.1:{http}/api/standings", took, stop), daemon=True)]
    for thread in threads:
        thread.start()
    time.sleep(5)  # the room as it plays: the figures before
    rss0, log0 = rss_mb(pid), log.stat().st_size
    out: Any = multiprocessing.Queue()
    start = time.time() + 1
    flooder = multiprocessing.Process(target=flood, args=(port, creds["t1"], rate, seconds, start, out))
    flooder.start()
    achieved = out.get(timeout=seconds + 60)
    flooder.join()
    end = time.time()
    time.sleep(3)  # what the flood left queued drains
    rss1, log1 = rss_mb(pid), log.stat().st_size
    health = httpx2.get(f"http://127.0.0.1:{http}/api/health").json()
    stop.set()
    before = [x for at, x in late if at < start]
    during = [x for at, x in late if start <= at <= end + 1]
    asked = [x for at, x in took if start <= at <= end]
    print(f"board flood: t1 publishes {achieved:,.0f} boards/s for {seconds:g} s; {tables - 1} other tables a board a"
          " second each")
    print(f"  other tables' boards -> /events: before median {statistics.median(before) * 1000:.1f} ms,"
          f" p99 {p(before, 0.99) * 1000:.1f} ms; during: {len(during)} boards, median"
          f" {statistics.median(during) * 1000:.1f} ms, p99 {p(during, 0.99) * 1000:.1f} ms, max"
          f" {max(during) * 1000:.1f} ms (target p99 <= 500 ms)")
    print(f"  /api/standings during: {len(asked)} asked, median {statistics.median(asked) * 1000:.1f} ms,"
          f" p99 {p(asked, 0.99) * 1000:.1f} ms (target <= 250 ms)")
    print(f"  director RSS {rss0:.1f} -> {rss1:.1f} MB (+{rss1 - rss0:.1f} MB, target <= 30 MB); log"
          f" +{(log1 - log0) / 1024:.1f} KB (target <= 1 MB)")
    print(f"  accepted {health['accepted']}, refused {health['refused']}, drops {health['drops']}")
    events(pid, log, http, port, creds, 3_500, seconds)


def events(pid: int, log: Path, http: int, port: int, creds: dict[str, str], rate: int, seconds: float) -> None:
    """t1's events flood (the issue's 3,500 a second): the director's memory and log after it."""
    rss0, log0 = rss_mb(pid), log.stat().st_size
    out: Any = multiprocessing.Queue()
    flooder = multiprocessing.Process(target=flood, args=(port, creds["t1"], rate, seconds, time.time(), out,
                                                          "events"))
    flooder.start()
    achieved = out.get(timeout=seconds + 60)
    flooder.join()
    time.sleep(3)
    rss1, log1 = rss_mb(pid), log.stat().st_size
    health = httpx2.get(f"http://127.0.0.1:{http}/api/health").json()
    print(f"event flood: t1 publishes {achieved:,.0f} events/s for {seconds:g} s (QoS 1): director RSS {rss0:.1f} ->"
          f" {rss1:.1f} MB (+{rss1 - rss0:.1f} MB); log +{(log1 - log0) / 1024:.1f} KB; accepted"
          f" {health['accepted'].get('events', 0)}, refused {health['refused']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--flood-rate", type=int, default=5000)
    parser.add_argument("--flood-seconds", type=float, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        board_flood(args.tables, args.flood_rate, args.flood_seconds, Path(tmp) / "room")


if __name__ == "__main__":
    main()
