"""Checkpoints off the hot path: a thread of the writer folds the WAL back into the journal.

SQLite's automatic checkpoint runs inside the commit that crosses 1,000 WAL pages: that one
event then waits for megabytes to be copied and the journal fsynced (tens of ms here, far more
on an SD card), and the screen waits with it. The writer's connection leaves it to this thread
(keeping SQLite's own only as a backstop, at 4,000 pages, should the thread never get a quiet
moment). After every ``every`` commits the thread waits for a pause of ``quiet`` seconds with no
commit (at a table: while the players think), then runs a PASSIVE checkpoint on a connection of
its own. Done in a pause, it copies the whole WAL, so the writer's next commit starts the WAL
again from its beginning: the file stops growing, and a commit rewrites blocks it already has
(an fdatasync without a change of size, the cheaper kind). PASSIVE never blocks the writer. The
WAL is folded in completely when the writer closes, as before.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from typing import Final

__all__ = ["Checkpointer", "BACKSTOP_PAGES"]

log = logging.getLogger(__name__)

#: The writer's own wal_autocheckpoint, used only if the thread never finds a quiet moment.
BACKSTOP_PAGES: Final = 4000


class Checkpointer:
    """A daemon thread that checkpoints ``path`` in the first pause of ``quiet`` seconds after
    each ``every`` commits (:meth:`nudge` is called after each); :meth:`stop` ends it."""

    def __init__(self, path: str, every: int, quiet: float = 0.2) -> None:
        self._path, self._every, self._quiet = path, every, quiet
        self._count, self._last = 0, time.monotonic()
        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="cribpi-checkpoint", daemon=True)
        self._thread.start()

    def nudge(self) -> None:
        """One more commit (called by the writer after each)."""
        self._last = time.monotonic()
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
                while not self._stopping and time.monotonic() - self._last < self._quiet:
                    time.sleep(self._quiet - (time.monotonic() - self._last))  # until the table pauses
                if self._stopping:
                    return
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error as exc:  # a full disk, say: the WAL grows; the next try may do
                    log.warning("%s: checkpoint failed: %s", self._path, exc)
        finally:
            conn.close()
