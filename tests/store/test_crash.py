"""kill -9 at random moments: the journal always opens, keeps every acknowledged event, replays.

A writer subprocess (crash_writer.py) journals random matches and prints "GAME SEQ" after
each commit; the test SIGKILLs it mid-burst many times, then checks the file as the app would
find it at start-up. A second test tears the tail off the write-ahead log, as a power cut
that lost unsynced writes would, and checks the journal still opens as a clean prefix.
"""

from __future__ import annotations

import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import time
from functools import lru_cache

import pytest

from cribpi.game import Game
from cribpi.store import Store

from crash_writer import match_events

_expected = lru_cache(maxsize=None)(lambda game_id: match_events(SEED, game_id, "claim"))
WRITER = pathlib.Path(__file__).with_name("crash_writer.py")
SEED = 4242


def _run_and_kill(db: pathlib.Path, delay: float) -> list[tuple[int, int]]:
    """Start a writer, SIGKILL it after ``delay`` seconds; the (game, seq) pairs it acknowledged."""
    proc = subprocess.Popen([sys.executable, str(WRITER), str(db), str(SEED)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, f"the writer ended by itself: {err}"
    acked = []
    for line in out.splitlines(keepends=True):
        if line.endswith("\n"):  # a line cut short by the kill was never acknowledged
            game, seq = map(int, line.split())
            acked.append((game, seq))
    return acked


def _check_journal(db: pathlib.Path, acked: dict[int, int], since: int = 1) -> int:
    """Every acknowledged event present, every journal (from game ``since``) the exact prefix
    of its match, each replays; returns the number of events checked."""
    with Store(db) as store:
        total = 0
        for row in store.games():
            game_id = row["id"]
            if game_id < since:
                continue
            journal = store.events(game_id)
            expected = _expected(game_id)
            assert len(journal) >= acked.get(game_id, 0), f"game {game_id} lost acknowledged events"
            assert journal == expected[:len(journal)]
            game = Game(journal)
            if row["status"] == "open":
                restored = store.current()
                assert restored is not None and restored.game_id == game_id
                assert restored.game.state == game.state
            total += len(journal)
        return total


@pytest.mark.slow
def test_sigkill_never_loses_an_acknowledged_event(tmp_path):
    db = tmp_path / "journal.db"
    rng = random.Random(SEED)
    acked: dict[int, int] = {}
    kills = 0
    started = time.monotonic()
    while kills < 40 and time.monotonic() - started < 45:
        latest = max(acked, default=1)  # earlier games were checked after earlier kills
        for game, seq in _run_and_kill(db, rng.uniform(0.15, 0.9)):
            acked[game] = max(acked.get(game, 0), seq)
        kills += 1
        _check_journal(db, acked, since=latest)
    _check_journal(db, acked)
    print(f"{kills} kills, {sum(acked.values())} events acknowledged in {time.monotonic() - started:.1f} s")
    assert kills >= 25
    assert sum(acked.values()) > 100, "the writer hardly wrote: the test proved little"


def test_a_torn_write_ahead_log_still_opens_as_a_clean_prefix(tmp_path):
    db = tmp_path / "journal.db"
    acked = _run_and_kill(db, 1.5)
    wal = db.with_name(db.name + "-wal")
    assert acked and wal.exists() and wal.stat().st_size > 0, "the killed writer left no WAL"
    rng = random.Random(7)
    size = wal.stat().st_size
    for cut in sorted(rng.sample(range(32, size), 12)) + [size - 1]:
        copy = tmp_path / f"torn-{cut}.db"
        shutil.copyfile(db, copy)
        with open(wal, "rb") as src, open(copy.with_name(copy.name + "-wal"), "wb") as dst:
            dst.write(src.read(cut))
            if cut % 2:
                dst.write(os.urandom(100))  # garbage where the rest of the frame should be
        _check_journal(copy, {})
