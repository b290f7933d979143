"""One event across several rooms (``bench_tournament.py --rooms 2 --tables 200``): each room's
mosquitto bridged to the director's as ``cribpi director init --rooms`` writes them (each
room's ``address`` rewritten to a relay on loopback that can cut the link), ``--tables``
tables a room playing as in the one-room run (an engine ``--steps`` moves a second, a board a
second and every move that ends or confirms a game), ``cribpi director serve`` in its own
process following the director's broker only. Prints results -> standings on the leaderboard's
stream across the bridge (target p99 <= 250 ms), boards -> the wall's stream (target p99 <=
500 ms), the director's CPU and peak RSS; then the same with the last room's link cut for
``--cut`` seconds in the middle of the run: every result released must be in the standings
once (nothing lost, nothing doubled) after the link is back."""

from __future__ import annotations

import getpass
import json
import multiprocessing
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2

from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.director.room import EVENT_DB
from cribpi.tournament.director.rooms import RoomSpec, init_rooms
from cribpi.tournament.table.loadgen import PER_PROCESS, player_names, table_groups

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' link relay
import bench_tournament as one  # noqa: E402 - beside this script
from localhost import free_port, rss_mb, stream_events, wait_port  # noqa: E402
from tests.tournament.linkcut import LinkCut  # noqa: E402


def follow(url: str, boards: list[tuple[float, float]], stop: threading.Event) -> None:
    """As ``bench_tournament.follow``, each board kept with when its table stamped it (``at``),
    so the boards held behind a cut link are told apart; the standings into ``one.STANDINGS``."""
    shown: dict[str, float] = {}
    try:
        for kind, changed in stream_events(url, stop):
            if kind == "standings" and "table" in changed:
                one.STANDINGS.setdefault((changed["table"], changed["id"]), time.time())
            elif kind == "table":
                state = changed.get("state")
                if state and shown.get(changed["table"]) != state["at"]:
                    shown[changed["table"]] = state["at"]
                    boards.append((state["at"], time.time() - state["at"]))
    except httpx2.HTTPError:
        pass  # the director stopped at the end of the run


def _p99(values: list[float]) -> float:
    return values[min(len(values) - 1, int(len(values) * 0.99))]


def rooms_load(rooms: int, tables: int, seconds: float, folder: Path, steps: int = 10, cut: float = 0.0) -> None:
    port, http = free_port(), free_port()
    specs = [RoomSpec(f"room{n}", tables, free_port()) for n in range(1, rooms + 1)]
    made = init_rooms(folder, one.EVENT, specs, "bench-admin-pw", to=("127.0.0.1", port), port=port,
                      bind="127.0.0.1", room_bind="127.0.0.1", run_as=getpass.getuser(), open_play=True)
    (folder / "credentials.json").write_text(json.dumps(made.credentials))
    db = EventDB(folder / EVENT_DB)
    for n in range(1, rooms * tables + 1):
        for name in player_names(n):
            db.add_player(name)
    db.close()
    links = {spec.name: LinkCut(port) for spec in specs}
    for spec in specs:
        conf = made.confs[spec.name]
        conf.write_text(conf.read_text().replace(f"address 127.0.0.1:{port}\n", f"address 127.0.0.1:{links[spec.name].port}\n"))
    brokers = [subprocess.Popen(["mosquitto", "-c", str(made.conf)], stderr=subprocess.DEVNULL)]
    wait_port(port)
    for spec in specs:
        brokers.append(subprocess.Popen(["mosquitto", "-c", str(made.confs[spec.name])], stderr=subprocess.DEVNULL))
        wait_port(spec.port)
    director = subprocess.Popen([sys.executable, "-m", "cribpi", "director", "serve", "--dir", str(folder),
                                 "--broker", f"mqtt://127.0.0.1:{port}", "--host", "127.0.0.1",
                                 "--http-port", str(http)], stdout=subprocess.DEVNULL)
    wait_port(http)
    api = f"http://127.0.0.1:{http}"
    deadline = time.monotonic() + 30
    while not all(r["reachable"] for r in httpx2.get(f"{api}/api/rooms").json()):
        if time.monotonic() > deadline:
            raise SystemExit("the rooms' bridges never came up")
        time.sleep(0.2)
    boards: list[tuple[float, float]] = []
    one.STANDINGS.clear()
    stop = threading.Event()
    threading.Thread(target=follow, args=(f"{api}/events", boards, stop), daemon=True).start()
    total = rooms * tables
    start = time.time() + 5  # every group connected by then
    released: multiprocessing.Queue[list[tuple[str, int, float]]] = multiprocessing.Queue()
    workers = []
    for spec in specs:
        first = int(made.rooms[spec.name][0][1:])
        for share in table_groups(first, tables, PER_PROCESS):
            workers.append(multiprocessing.Process(target=one.play_tables, args=(
                list(share), total, spec.port, made.credentials, folder, start, seconds, steps, released)))
    for worker in workers:
        worker.start()
    time.sleep(max(0.0, start - time.time()))
    boards.clear()
    cpu0, t0 = one.cpu_seconds(director.pid), time.monotonic()
    cut_room, shown_down, window = specs[-1].name, False, (0.0, 0.0)
    if cut:
        time.sleep(max(0.0, (seconds - cut) / 2))
        window = (time.time(), time.time() + cut)
        links[cut_room].cut()
        while time.time() < window[1]:
            down = [r for r in httpx2.get(f"{api}/api/rooms").json() if not r["reachable"]]
            shown_down = shown_down or any(r["room"] == cut_room for r in down)
            time.sleep(0.5)
        links[cut_room].restore()
        time.sleep(max(0.0, start + seconds - time.time()))
    else:
        time.sleep(int(seconds))
    cpu = (one.cpu_seconds(director.pid) - cpu0) / (time.monotonic() - t0)
    results = [r for _ in workers for r in released.get(timeout=300)]
    for worker in workers:
        worker.join()
    deadline = time.monotonic() + 120  # what waited behind the cut comes once the link is back
    while sum(1 for t, row, _ in results if (t, row) in one.STANDINGS) < len(results) and time.monotonic() < deadline:
        time.sleep(0.5)
    rss = rss_mb(director.pid, "VmHWM")
    health = httpx2.get(f"{api}/api/health").json()
    games = sum(x["games"] for x in httpx2.get(f"{api}/api/standings").json()) // 2
    stop.set()
    director.terminate()
    director.wait(10)
    for broker in brokers:
        broker.terminate()
        broker.wait(10)
    for link in links.values():
        link.cut()
    print(f"{rooms} rooms of {tables} tables, each room's broker bridged to the director's, {seconds:.0f} s"
          + (f"; {cut_room}'s link cut for {cut:.0f} s in the middle" if cut else ""))
    got = sorted(late for at, late in boards if not window[0] - 1 <= at <= window[1])
    if got:
        print(f"  boards -> wall (publish -> server-sent event, across a bridge): {len(got)} boards"
              + (" stamped outside the cut" if cut else "") + f", median {statistics.median(got) * 1000:.1f} ms,"
              f" p99 {_p99(got) * 1000:.1f} ms (target <= 500 ms)")
    outside = sorted(one.STANDINGS[(t, row)] - at for t, row, at in results
                     if (t, row) in one.STANDINGS and not (window[0] - 1 <= at <= window[1]))
    behind = [one.STANDINGS[(t, row)] - at for t, row, at in results
              if (t, row) in one.STANDINGS and window[0] - 1 <= at <= window[1]]
    if outside:
        print(f"  results -> standings on the stream, across a bridge: {len(outside)} results"
              + (" released outside the cut" if cut else "") + f", median {statistics.median(outside) * 1000:.1f} ms,"
              f" p99 {_p99(outside) * 1000:.1f} ms, max {outside[-1] * 1000:.1f} ms (target p99 <= 250 ms)")
    if cut:
        print(f"  released during the cut: {len(behind)}, in the standings once the link was back (the longest"
              f" waited {max(behind, default=0):.1f} s); the page said {cut_room} out of reach: {shown_down}")
    seen = sum(1 for t, row, _ in results if (t, row) in one.STANDINGS)
    print(f"  every result: {len(results)} released, {seen} seen in the standings, {games} games counted"
          f" ({'nothing lost, nothing doubled' if seen == len(results) == games else 'MISMATCH'})")
    print(f"  director: {cpu * 100:.1f}% of one core, peak RSS {rss:.1f} MB; taken {health['accepted']},"
          f" refused {health['refused']}")
