"""Opening a journal guarded: one writer, never a damaged file written to, a full disk named.

A *writer* first takes the journal's lock (:mod:`~cribpi.store.lock`), then checks the file
through a read-only connection (``integrity_check`` and the WAL's lost commits,
:mod:`~cribpi.store.wal`): a read-only connection never checkpoints, so a damaged journal is
not touched by its own check. Only a sound journal is then opened for writing. With
``recover`` (what ``cribpi run`` and ``cribpi sim`` ask for) a damaged journal and its
``-wal``/``-shm`` are moved aside to ``NAME.damaged-YYYYMMDD-HHMMSS`` and a fresh journal is
started, and the notice saying so is returned for the caller to show on the OLED and log.
A *reader* takes no lock and changes nothing.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import sqlite3

from cribpi.exc import JournalDamaged, StoreError
from cribpi.store.lock import WriterLock
from cribpi.store.schema import NoJournal, corrupt, open_journal
from cribpi.store.wal import lost_commits, scan_wal

__all__ = ["Opened", "open_guarded", "move_aside"]


@dataclasses.dataclass(slots=True)
class Opened:
    """A checked connection, its schema version, the writer's lock (None for a reader) and
    the notice for the player when a damaged journal was moved aside (else None)."""

    conn: sqlite3.Connection
    version: int
    lock: WriterLock | None
    notice: str | None = None


def open_guarded(path: str, *, read_only: bool, recover: bool, now: dt.datetime) -> Opened:
    if read_only:
        if not os.path.isfile(path) or os.path.getsize(path) == 0:  # opening would create a journal
            raise StoreError(f"there is no game journal at {path}: give the file `cribpi run` writes")
        return Opened(*_checked(path), lock=None)
    lock = WriterLock(path)
    try:
        notice = None
        try:
            if os.path.isfile(path) and os.path.getsize(path):
                _roll_back_hot_journal(path)
                _checked(path)[0].close()
        except NoJournal:
            pass  # created below, as for a new file
        except JournalDamaged as exc:
            if not recover:
                raise
            aside = move_aside(path, now)
            why = exc.reason or str(exc)  # the advice to move it aside is done: just what was wrong
            notice = f"journal damaged: moved aside to {os.path.basename(aside)}, a new one is started ({why})"
        return Opened(*open_journal(path), lock=lock, notice=notice)
    except BaseException:
        lock.release()
        raise


def _roll_back_hot_journal(path: str) -> None:
    """A power cut while the journal was first being made (its schema written under a rollback
    journal, before WAL mode) leaves a hot ``-journal``, which only a connection that may write
    can roll back: the read-only check would fail on it. The writer holds the lock, so it lets
    SQLite roll the unfinished transaction back, as it would at the next open anyway; the check
    that follows sees what the rollback restored."""
    hot = f"{path}-journal"
    if not (os.path.isfile(hot) and os.path.getsize(hot)):
        return
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        try:
            conn.execute("PRAGMA schema_version").fetchone()  # the first read rolls it back
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise corrupt(path, exc) from None


def _checked(path: str) -> tuple[sqlite3.Connection, int]:
    """A read-only connection to a journal that passed integrity_check and has lost no WAL commit."""
    scan = scan_wal(path)
    if scan is not None and not scan.header_ok:  # SQLite would ignore the whole WAL: do not open
        lost = lost_commits(path, scan)
        if lost is not None:
            raise corrupt(path, sqlite3.DatabaseError(lost))
    try:
        conn, version = open_journal(path, read_only=True)
    except JournalDamaged:
        raise
    except StoreError:  # e.g. NoJournal: all of it was in WAL frames SQLite dropped
        lost = lost_commits(path, scan)
        if lost is not None:
            raise corrupt(path, sqlite3.DatabaseError(lost)) from None
        raise
    lost = lost_commits(path, scan)
    if lost is not None:
        conn.close()
        raise corrupt(path, sqlite3.DatabaseError(lost))
    return conn, version


def move_aside(path: str, now: dt.datetime) -> str:
    """Rename the journal and its -wal and -shm to ``path.damaged-YYYYMMDD-HHMMSS`` (+ -2, -3...
    if taken); returns the new name of the journal."""
    base = f"{path}.damaged-{now.astimezone(dt.timezone.utc):%Y%m%d-%H%M%S}"
    aside, serial = base, 1
    while os.path.exists(aside):
        serial += 1
        aside = f"{base}-{serial}"
    try:
        os.rename(path, aside)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.rename(path + suffix, aside + suffix)
    except OSError as exc:
        raise StoreError(f"{path} is damaged and could not be moved aside ({exc.strerror}): "
                         "move it (and its -wal and -shm) yourself") from None
    return aside
