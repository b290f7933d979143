"""Checkpoints off the hot path: a thread of the writer folds the WAL back into the journal.

SQLite's automatic checkpoint runs inside the commit that crosses 1,000 WAL pages: that one
event then waits for a few megabytes to be copied and the journal fsynced (tens of ms here,
far more on an SD card), and the screen waits with it. The writer's connection has it turned
off; every ``every`` commits it nudges this thread, which runs a PASSIVE checkpoint on a
connection of its own. PASSIVE never blocks the writer (in WAL mode a writer appends while a
checkpoint copies), so an event's latency is its own commit and fsync only. The WAL is folded
in completely when the writer closes, as before.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

__all__ = ["Checkpointer"]

log = logging.getLogger(__name__)


class Checkpointer:
    """A daemon thread that checkpoints ``path`` each time :meth:`nudge` has been called
    ``every`` times; :meth:`stop` ends it (and waits for a checkpoint under way)."""

    def __init__(self, path: str, every: int) -> None:
        self._path, self._every, self._count = path, every, 0
        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="cribpi-checkpoint", daemon=True)
        self._thread.start()

    def nudge(self) -> None:
        """One more commit (called by the writer after each)."""
        self._count += 1
        if self._count >= self._every:
            self._count = 0
            self._wake.set()

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        self._thread.join()

    def _run(self) -> None:
        conn = sqlite3.connect(self._path, isolation_level=None, timeout=10.0)
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._stopping:
                    return
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error as exc:  # a full disk, say: the WAL simply grows; the next try may do
                    log.warning("%s: checkpoint failed: %s", self._path, exc)
        finally:
            conn.close()
