"""The journal file: its schema, and opening it (checked, created or migrated) safely.

The layout of each table is documented in docs/store.md. A file is refused, untouched, when
it is not SQLite, is another program's database, comes from a newer cribpi, or fails
``PRAGMA integrity_check`` (:class:`~cribpi.exc.JournalDamaged`); an older journal is
migrated in one transaction by a writer, and read as it is by a reader. SQLite's errors
become the project's typed errors in one place, :func:`store_error`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import urllib.parse
import zlib
from collections.abc import Iterator
from typing import Final

from cribpi.exc import JournalDamaged, JournalFull, StoreError

__all__ = ["SCHEMA_VERSION", "APPLICATION_ID", "NoJournal", "open_journal", "connect_read_only", "corrupt",
           "store_error", "event_crc", "transaction"]

#: Bumped whenever the schema changes; a migration from every older version goes in _MIGRATIONS.
SCHEMA_VERSION: Final = 4
#: ``PRAGMA application_id``: "CRBP", so `file` and cribpi itself can tell the journal apart.
APPLICATION_ID: Final = 0x43524250

_SNAPSHOTS: Final = """
CREATE TABLE snapshots (          -- every N events, and after an undo below the latest
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seq      INTEGER NOT NULL,      -- the state after this event of the journal
    in_force INTEGER NOT NULL,      -- how many events were in force then (undos taken out)
    format   TEXT NOT NULL,         -- the writer's snapshot_format(): any other is ignored
    state    TEXT NOT NULL,         -- JSON (cribpi/store/snapshot.py)
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
"""

_TABLE_SETTINGS: Final = """
CREATE TABLE table_settings (     -- what a table keeps besides its games (cribpi/store/settings.py)
    table_name TEXT PRIMARY KEY,    -- as in games: NULL for a table with no name
    data       TEXT NOT NULL,       -- JSON: the next game's set-up and the brightness, as last chosen
    saved      TEXT NOT NULL        -- UTC, ISO 8601
);
"""

_SCHEMA: Final = """
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished', 'abandoned')),
    table_name  TEXT,
    event_name  TEXT,
    players     TEXT NOT NULL,      -- JSON list of the names, seat 0 first
    rules       TEXT NOT NULL,      -- JSON, as in the NewGame event
    mode        TEXT NOT NULL,      -- board, count or claim
    match_games INTEGER NOT NULL,   -- best of N
    started     TEXT NOT NULL,      -- UTC, ISO 8601
    finished    TEXT,
    winner      TEXT,               -- the side that won the match, by name
    summary     TEXT                -- JSON: games won, game points and spread per side
);
CREATE INDEX games_open ON games (status, table_name);
CREATE TABLE events (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seq      INTEGER NOT NULL,      -- 1, 2, ... in journal order (undos included)
    type     TEXT NOT NULL,
    data     TEXT NOT NULL,         -- Event.to_dict() as JSON
    recorded TEXT NOT NULL,
    crc      INTEGER,               -- event_crc(): NULL only in rows written before version 3
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    number      INTEGER NOT NULL,   -- game of the match, 1, 2, ...
    winner      TEXT NOT NULL,
    winner_team INTEGER NOT NULL,
    scores      TEXT NOT NULL,      -- JSON, per side
    kind        TEXT NOT NULL,      -- win, skunk, double skunk, lurch
    game_points INTEGER NOT NULL,
    margin      INTEGER NOT NULL,
    PRIMARY KEY (game_id, number)
);
""" + _SNAPSHOTS + _TABLE_SETTINGS

#: user_version -> SQL that brings a journal of that version to the next one.
_MIGRATIONS: Final[dict[int, str]] = {
    1: _SNAPSHOTS,  # 2: snapshots of the state, so a restart replays only the latest events
    2: "ALTER TABLE events ADD COLUMN crc INTEGER",  # 3: a checksum of each event written
    3: _TABLE_SETTINGS,  # 4: the next game's set-up, kept before that game is started
}

#: SQLite's primary result codes that name a full disk, and a damaged file.
_FULL: Final = 13  # SQLITE_FULL
_DAMAGED: Final = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB
#: Less room than this on the journal's file system is a full disk (SQLite then fails with
#: an I/O error, not SQLITE_FULL, when it cannot grow its -shm file).
_ROOM: Final = 64 * 1024


def event_crc(game_id: int, seq: int, kind: str, data: str) -> int:
    """The checksum of one event row: a byte changed in a page (which integrity_check does
    not read) makes its event unreadable instead of silently a different event."""
    return zlib.crc32(f"{game_id}:{seq}:{kind}:{data}".encode())


class NoJournal(StoreError):
    """An SQLite file with no journal in it yet (new, or its creator died before committing
    the schema): a reader has nothing to read; a writer creates the journal there."""


def open_journal(path: str, *, read_only: bool = False) -> tuple[sqlite3.Connection, int]:
    """A connection to the journal at ``path`` and its schema version. A writer's is in WAL
    mode with full sync, at SCHEMA_VERSION (created if the file is new or empty, migrated if
    older); a reader's (``read_only``) changes nothing, not even an older schema, and is
    checked with ``PRAGMA integrity_check`` (a writer is opened only after such a check:
    cribpi.store.guard). Raises StoreError (or a subclass) naming the file."""
    try:
        conn = connect_read_only(path) if read_only else sqlite3.connect(path, isolation_level=None, timeout=10.0)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the game journal {path}: {exc}: "
                         "check that its folder exists and is writable") from None
    try:
        version = _prepare(conn, path, read_only)
    except (sqlite3.Error, UnicodeDecodeError) as exc:  # text that is not UTF-8: a damaged page
        conn.close()
        raise store_error(path, exc, "open the game journal") from None
    except BaseException:
        conn.close()
        raise
    return conn, version


def connect_read_only(path: str) -> sqlite3.Connection:
    """A connection that can never write the file (nor checkpoint its WAL): for ``stats``,
    ``export`` and backups while a table writes."""
    uri = f"file:{urllib.parse.quote(os.path.abspath(path))}?mode=ro"
    return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10.0)


def corrupt(path: str, exc: BaseException) -> JournalDamaged:
    damaged = JournalDamaged(
        f"{path} is damaged ({_one_line(exc)}): move it aside (keep it: `sqlite3 FILE .recover` may save "
        "its games); `cribpi run` and `cribpi sim` do that themselves and start a new journal")
    damaged.reason = _one_line(exc)
    return damaged


def store_error(path: str, exc: BaseException, doing: str) -> StoreError:
    """The typed error for an SQLite or OS error met while ``doing`` something to ``path``:
    JournalFull for a full disk, JournalDamaged for a damaged file, else StoreError."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, UnicodeDecodeError) or str(exc).startswith("Could not decode to UTF-8"):
        return corrupt(path, sqlite3.DatabaseError("text that is not UTF-8"))
    if code is not None and code & 0xFF in _DAMAGED:
        if not _is_sqlite(path):  # the wrong file given, not a journal damaged: nothing to move aside
            return StoreError(f"{path} is not a cribpi game journal (not an SQLite file): give the file "
                              "`cribpi run` writes")
        return corrupt(path, exc)
    if (code is not None and code & 0xFF == _FULL) or getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT) \
            or _no_room(path):
        if doing.startswith("open"):
            return JournalFull(f"disk full: cannot open the game journal {path} (SQLite needs a little room "
                               "even to read it): free some space on that disk")
        if doing.startswith(("journal", "start")):  # what the table shows the players
            return JournalFull(f"disk full: this score is not saved ({path}: could not {doing}): free some "
                               "space on that disk; the journal is unchanged")
        return JournalFull(f"disk full: could not {doing} ({path}): free some space on that disk")
    hint = ": check that the file and its folder are writable" if "open" in doing else ""
    return StoreError(f"{path}: could not {doing}: {_one_line(exc)}{hint}")


def _one_line(exc: BaseException) -> str:
    """SQLite's message on one printable line; never the damaged bytes it may quote."""
    text = str(exc)
    if text.startswith("Could not decode to UTF-8"):
        return "text that is not UTF-8"
    return "".join(c if c.isprintable() else "?" for c in " ".join(text.split()))[:300]


def _is_sqlite(path: str) -> bool:
    try:
        with open(path, "rb") as file:
            return file.read(16) == b"SQLite format 3\0"
    except OSError:
        return True  # cannot tell: say damaged, which moves nothing without a check


def _no_room(path: str) -> bool:
    try:
        fs = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return False
    return fs.f_bavail * fs.f_frsize < _ROOM


def _prepare(conn: sqlite3.Connection, path: str, read_only: bool) -> int:
    # Reading the header first: a file that is not SQLite fails here, before anything is written.
    # One statement, so one read: another process may be creating the journal meanwhile.
    app_id, version, tables = conn.execute(
        "SELECT a.application_id, v.user_version, (SELECT count(*) FROM sqlite_master)"
        " FROM pragma_application_id AS a, pragma_user_version AS v").fetchone()
    if app_id != APPLICATION_ID and (app_id != 0 or tables):
        raise StoreError(f"{path} is an SQLite database but not a cribpi game journal "
                         "(wrong application id): give another file name")
    if version > SCHEMA_VERSION:
        raise StoreError(f"{path} was written by a newer cribpi (journal version {version}, "
                         f"this cribpi reads up to {SCHEMA_VERSION}): upgrade cribpi")
    if app_id == APPLICATION_ID and version not in _MIGRATIONS and version != SCHEMA_VERSION:
        raise corrupt(path, sqlite3.DatabaseError(f"journal version {version} is not one cribpi wrote"))
    if read_only:
        if app_id == 0:
            raise NoJournal(f"there is no game journal at {path}: give the file `cribpi run` writes")
        _check(conn, path)
        return int(version)
    # WAL: a commit appends to the -wal file and never rewrites pages in place, so a crash
    # mid-write leaves the last committed state readable. synchronous=FULL: in WAL mode
    # NORMAL only fsyncs at checkpoints, so a commit could be lost to a power cut after the
    # app has shown its effects; FULL fsyncs the WAL on every commit, which is what lets
    # append() promise that an acknowledged event survives a pulled plug.
    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise StoreError(f"{path}: SQLite refused WAL mode (got {mode!r}): "
                         "keep the journal on a local file system")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    if app_id == 0:
        _create(conn)
    elif version < SCHEMA_VERSION:
        _migrate(conn)
    return SCHEMA_VERSION


def _check(conn: sqlite3.Connection, path: str) -> None:
    """integrity_check, not quick_check: only the full check sees index keys out of order."""
    problems = [row[0] for row in conn.execute("PRAGMA integrity_check(3)").fetchall()]
    if problems != ["ok"]:
        found = "; ".join(" ".join(str(problem).split()) for problem in problems)  # one line
        raise corrupt(path, sqlite3.DatabaseError(f"integrity_check: {found[:300]}"))


def _create(conn: sqlite3.Connection) -> None:
    with transaction(conn):
        if conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
            return  # another process created the journal while this one waited for the lock
        _run_script(conn, _SCHEMA)
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def _migrate(conn: sqlite3.Connection) -> None:
    with transaction(conn):
        # Read under the write lock: another process may have migrated it meanwhile.
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        while version < SCHEMA_VERSION:  # every version below is in _MIGRATIONS (_prepare checked)
            _run_script(conn, _MIGRATIONS[version])
            version += 1
        conn.execute(f"PRAGMA user_version={version}")


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Each statement in turn, inside the caller's transaction (no `;` in the comments)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT: the write lock is taken up front, so no half-read journal."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a failed COMMIT (disk full, I/O error) must not wedge the journal
            conn.execute("ROLLBACK")
        raise
