"""The journal where a player waits: input -> screen with the journal on, and the checks at open.

Target (issue 11): with the journal on, as ``cribpi run`` runs (WAL, ``synchronous=FULL``, each
event durable before the screen and LEDs show it; the parts guarded and STATUS= sent to a real
notify socket as under systemd), an input reaches the LED frame and the OLED
image in at most 4 ms at p99 on the mock backend. The same presses are timed in the same run
without a journal (the anchor), and the disk's own ``fdatasync`` of one 4 KiB page is timed
too: a durable event cannot be shown sooner than its fsync returns, so that p99 is the floor.

Target (issue 13): the ``integrity_check`` a table runs at open, for a 10,000-event journal,
at most 100 ms; and the whole guarded open (lock, checks, writer connection).

    python benchmarks/bench_journal.py [--games N] [--dir FOLDER] [--events N]

``--dir`` is where the journals go (default: the system's temporary folder; give a folder on
the disk the Pi will use: an fsync on tmpfs costs nothing and proves nothing).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import socket
import statistics
import sys
import tempfile
import threading
import time

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.daemon.table import StatusListener, guarded_app
from cribpi.hal import Action
from cribpi.hal.mock import open_mock
from cribpi.service.notify import Notifier
from cribpi.store import Store
from cribpi.store.schema import connect_read_only

sys.path.insert(0, os.path.dirname(__file__))
from bench_restore import build, match_events  # noqa: E402  (benchmarks/ is not a package)
from bench_table import _presses, _replayable  # noqa: E402


#: systemd's notify socket, as ``cribpi run`` has it under the service (set by main()).
NOTIFY: dict[str, str] = {}


def _app(seed: int, store: Store | None) -> tuple[TableApp, TableUI]:
    """A table wired as ``cribpi run`` wires it: guarded parts, and the STATUS= line sent to a
    real notify socket on every change (no tournament)."""
    ui = TableUI(TableSettings(), store=store, rng=random.Random(seed))
    app, guard = guarded_app(open_mock(), ui)
    app.subscribe(StatusListener(Notifier(dict(NOTIFY)), guard.problems))
    app.start()
    return app, ui


def _drain(sock: socket.socket) -> None:
    while True:
        sock.recv(4096)


def _press(app: TableApp, action: Action) -> float:
    start = time.perf_counter()
    app.queue(action)
    app.pump()
    return (time.perf_counter() - start) * 1000


def _fsync(fd: int, block: int) -> float:
    """One 4 KiB write and fdatasync, as a WAL commit makes."""
    start = time.perf_counter()
    os.pwrite(fd, os.urandom(4096), (block % 256) * 4096)
    os.fdatasync(fd)
    return (time.perf_counter() - start) * 1000


def game(seed: int, stores: dict[str, Store | None], fd: int, samples: dict[str, list[float]]) -> None:
    """The seeded game on one table per store, press by press in lockstep (each press timed
    on every table, then one bare fsync), so that every way meets the same load."""
    tables = {name: _app(seed, store) for name, store in stores.items()}
    presses = [_presses(ui, _replayable(ui, seed)) for _, ui in tables.values()]
    for step, actions in enumerate(zip(*presses)):
        for (name, (app, _)), action in zip(tables.items(), actions):
            samples[name].append(_press(app, action))
        samples["fsync"].append(_fsync(fd, step))
    for app, _ in tables.values():
        app.close()


def inline_checkpoints(store: Store) -> Store:
    """The journal as it was before checkpoints moved to their thread: SQLite's automatic
    checkpoint, run inside the commit that crosses 1,000 WAL pages. (The presses of a game
    come back to back here, with a pause only between games: the thread finds fewer quiet
    moments than at a real table.)"""
    assert store._checkpointer is not None
    store._checkpointer.stop()
    store._checkpointer = None
    store._conn.execute("PRAGMA wal_autocheckpoint=1000")
    return store


def _p99(samples: list[float]) -> float:
    return sorted(samples)[min(len(samples) - 1, int(0.99 * len(samples)))]


def _line(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"  {label:<38}{statistics.median(ordered):>8.2f}{p90:>8.2f}{_p99(ordered):>8.2f}{ordered[-1]:>8.2f}"
            f"   ({len(ordered)})")


def opening(folder: pathlib.Path, events: int, runs: int) -> None:
    path = folder / "big.db"
    build(path, match_events(events))
    print(f"checks at open, a journal of {events} events ({path.stat().st_size // 1024} KB), median of {runs}:")
    for label, sql in (("PRAGMA integrity_check", "PRAGMA integrity_check(3)"), ("PRAGMA quick_check", "PRAGMA quick_check")):
        times = []
        for _ in range(runs):
            conn = connect_read_only(str(path))
            start = time.perf_counter()
            conn.execute(sql).fetchall()
            times.append((time.perf_counter() - start) * 1000)
            conn.close()
        print(f"  {label:<34}{statistics.median(times):>8.1f} ms  (min {min(times):.1f})")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        Store(path, recover=True).close()
        times.append((time.perf_counter() - start) * 1000)
    print(f"  {'Store(path, recover=True), whole':<34}{statistics.median(times):>8.1f} ms  (min {min(times):.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--dir", type=pathlib.Path, default=None)
    parser.add_argument("--events", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as name:
        folder = pathlib.Path(name)
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(str(folder / "notify"))
        NOTIFY["NOTIFY_SOCKET"] = str(folder / "notify")
        threading.Thread(target=_drain, args=(notify,), daemon=True).start()
        samples: dict[str, list[float]] = {"none": [], "before": [], "now": [], "fsync": []}
        # One journal per way over all the games, as a table keeps one for months.
        fd = os.open(folder / "fsync.bin", os.O_RDWR | os.O_CREAT, 0o600)
        with Store(folder / "before.db") as old, Store(folder / "now.db") as new:
            inline_checkpoints(old)
            for seed in range(args.games):
                game(seed, {"none": None, "before": old, "now": new}, fd, samples)
                time.sleep(0.3)  # a pause between games, as at a table (the checkpoint thread's moment)
        os.close(fd)
        print(f"input -> LED frame + OLED image, mock backend, {args.games} games, journals in {folder}")
        print(f"  {'ms':<38}{'median':>8}{'p90':>8}{'p99':>8}{'max':>8}   (presses)")
        print(_line("no journal (the anchor)", samples["none"]))
        print(_line("journal, checkpoints inline (before)", samples["before"]))
        print(_line("journal, checkpoint thread (now)", samples["now"]))
        print(_line("the disk alone: 4 KiB write + fdatasync", samples["fsync"]))
        print(f"  p99 now minus p99 of the anchor: {_p99(samples['now']) - _p99(samples['none']):.2f} ms; "
              f"the disk's own p99 fsync: {_p99(samples['fsync']):.2f} ms (an event is shown after its fsync)")
        opening(folder, args.events, 7)


if __name__ == "__main__":
    main()
