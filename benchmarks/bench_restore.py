"""Time from opening a 10,000-event journal to the table's first frame, after a restart.

Target (issue 9): at most 50 ms. The journal is one long open match: a seeded random claim-mode
match, best of 99 games, cut after its first 10,000 events (about 36 games), journalled event
by event as the app does (with ``synchronous=OFF`` while building, to build it quickly).
Each run opens the file (``Store``), restores the open game (``Store.current``, what
``Session.resume`` calls) and renders the OLED screen of its state. The figure is the median
of several runs, with the journal's snapshots (as cribpi writes them) and without them (a
copy with the snapshots table emptied: every event is replayed, as before snapshots existed).
A last figure times an undo of 60 events right after a restart, which reads back past the
latest snapshot.

    python benchmarks/bench_restore.py [--events N] [--runs N]
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable

from cribpi.game import Event, Game, Mode, NewGame, Undo
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC
from cribpi.store import SNAPSHOT_EVERY, Store
from cribpi.views import render_screen
from cribpi.views.table import phase_screen

TABLE = "main"


def match_events(count: int) -> list[Event]:
    events: list[Event] = []
    for event, _ in random_game_events(random.Random(1), ACC, Mode.CLAIM, 99):
        events.append(event)
        if len(events) == count:
            return events
    raise SystemExit(f"the match ended after {len(events)} events: ask for fewer")


def build(path: pathlib.Path, events: list[Event]) -> None:
    with Store(path) as store:
        store._conn.execute("PRAGMA synchronous=OFF")  # building only: the runs read it as cribpi does
        first = events[0]
        assert isinstance(first, NewGame)
        game = Game([first])
        game_id = store.new_game(first, table=TABLE)
        for event in events[1:]:
            game.apply(event)
            store.append(game_id, event, game)


def without_snapshots(path: pathlib.Path) -> pathlib.Path:
    copy = path.with_name("no-snapshots.db")
    with Store(path) as store:
        store.backup(copy)
    conn = sqlite3.connect(copy)
    with conn:
        conn.execute("DELETE FROM snapshots")
    conn.close()
    return copy


def first_frame(path: pathlib.Path) -> float:
    start = time.perf_counter()
    with Store(path) as store:
        restored = store.current(TABLE)
        assert restored is not None
        render_screen(phase_screen(restored.game.state))
    return time.perf_counter() - start


def deep_undo(path: pathlib.Path) -> float:
    """Restore, then one undo that takes back more events than a snapshot's tail can hold."""
    with Store(path) as store:
        restored = store.current(TABLE)
        assert restored is not None
        game = restored.game
        start = time.perf_counter()
        game.apply(Undo(SNAPSHOT_EVERY + 10))
        return time.perf_counter() - start


def median_ms(runs: int, measure: Callable[[], float]) -> tuple[float, float, float]:
    times = sorted(measure() * 1000 for _ in range(runs))
    return statistics.median(times), times[0], times[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    events = match_events(args.events)
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "journal.db"
        build(path, events)
        plain = without_snapshots(path)
        print(f"journal: {len(events)} events of one open claim-mode match, {path.stat().st_size // 1024} KB")
        print(f"{'first frame after a restart':<34}{'median ms':>10}{'min':>8}{'max':>8}")
        for label, journal in (("with snapshots", path), ("without snapshots", plain)):
            first_frame(journal)  # warm the page cache, as a second start would find it
            med, low, high = median_ms(args.runs, lambda: first_frame(journal))
            print(f"{label:<34}{med:>10.1f}{low:>8.1f}{high:>8.1f}")
        med, low, high = median_ms(args.runs, lambda: deep_undo(path))
        print(f"{'then an undo back past a snapshot':<34}{med:>10.1f}{low:>8.1f}{high:>8.1f}"
              "  (reads back from the snapshot before it)")


if __name__ == "__main__":
    main()
