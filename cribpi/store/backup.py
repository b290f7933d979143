"""Backups of a journal: a consistent copy made with SQLite's online backup API, the last N kept.

``backup(store_path, dest_dir, keep=N)`` is what ``cribpi backup`` and the daily timer call.
It reads the journal through its own read-only connection, so it works while a table is
writing (the copy holds every event committed when it started, never half an event), and
never takes the journal's writer lock. Copying ``cribpi.db`` alone could miss the events
still in ``cribpi.db-wal``; this cannot.

Each copy is ``STEM-YYYYMMDD-HHMMSS.db`` (UTC) in ``dest_dir``, written under a temporary name
and checked before it is renamed into place, so a failed backup (disk full, a damaged
journal) leaves the earlier copies as they were and is never counted as one of the N kept.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

from cribpi.exc import JournalDamaged, StoreError
from cribpi.store.schema import APPLICATION_ID, connect_read_only, store_error

__all__ = ["backup", "backups"]


def backup(store_path: str | os.PathLike[str], dest_dir: str | os.PathLike[str], *, keep: int = 7,
           clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.timezone.utc)) -> Path:
    """Copy the journal at ``store_path`` into ``dest_dir`` (created if missing) and delete
    all but the newest ``keep`` copies of it there. Returns the new copy's path.

    Raises JournalDamaged if the journal (so the copy) fails its integrity check, JournalFull
    if ``dest_dir`` has no room, StoreError otherwise; the earlier copies are then untouched.
    """
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 1:
        raise StoreError(f"keep={keep!r}: the number of backups to keep is a whole number, 1 or more")
    source, folder = os.fspath(store_path), Path(dest_dir)
    if not os.path.isfile(source) or os.path.getsize(source) == 0:
        raise StoreError(f"there is no game journal at {source} to back up")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise store_error(str(folder), exc, "create the backup folder") from None
    stem = Path(source).stem
    final = _free_name(folder, stem, clock())
    partial = final.with_name(final.name + ".partial")
    try:
        _copy(source, partial)
        os.replace(partial, final)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise
    for old in backups(folder, stem)[:-keep]:
        old.unlink()
    return final


def backups(dest_dir: str | os.PathLike[str], stem: str = "cribpi") -> list[Path]:
    """The copies ``backup`` wrote of journal ``STEM.db`` in ``dest_dir``, oldest first."""
    pattern = re.compile(re.escape(stem) + r"-(\d{8}-\d{6})(?:-(\d+))?\.db")
    folder = Path(dest_dir)
    found = []
    for path in folder.iterdir() if folder.is_dir() else ():
        match = pattern.fullmatch(path.name)
        if match:
            found.append(((match[1], int(match[2] or 1)), path))
    return [path for _, path in sorted(found)]


def _free_name(folder: Path, stem: str, now: dt.datetime) -> Path:
    """STEM-YYYYMMDD-HHMMSS.db, with -2, -3... if a copy was already made in that second."""
    base = f"{stem}-{now.astimezone(dt.timezone.utc):%Y%m%d-%H%M%S}"
    name, serial = folder / f"{base}.db", 1
    while name.exists():
        serial += 1
        name = folder / f"{base}-{serial}.db"
    return name


def _copy(source: str, target: Path) -> None:
    """SQLite's backup API, all pages in one step (one read transaction: a consistent copy),
    then the copy is checked: a journal, and sound."""
    with contextlib.suppress(FileNotFoundError):
        target.unlink()
    src = connect_read_only(source)
    try:
        dest = sqlite3.connect(target)
        try:
            src.backup(dest)
            dest.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
            app_id = dest.execute("PRAGMA application_id").fetchone()[0]
            check = dest.execute("PRAGMA integrity_check(1)").fetchone()[0]
        except sqlite3.Error as exc:
            raise store_error(source, exc, f"back up to {target.parent}") from None
        finally:
            dest.close()
    finally:
        src.close()
    if app_id != APPLICATION_ID:
        raise StoreError(f"{source} is not a cribpi game journal: not backed up")
    if check != "ok":
        raise JournalDamaged(f"{source} is damaged ({check}): not backed up; earlier backups are kept")
