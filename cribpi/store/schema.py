"""The journal file: its schema, and opening it (checked, created or migrated) safely.

The layout of each table is documented in docs/store.md. A file is refused, untouched, when
it is not SQLite, is another program's database, or comes from a newer cribpi; an older
journal is migrated in one transaction.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from typing import Final

from cribpi.exc import StoreError

__all__ = ["SCHEMA_VERSION", "APPLICATION_ID", "open_journal", "corrupt", "transaction"]

#: Bumped whenever the schema changes; a migration from every older version goes in _MIGRATIONS.
SCHEMA_VERSION: Final = 2
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
""" + _SNAPSHOTS

#: user_version -> SQL that brings a journal of that version to the next one.
_MIGRATIONS: Final[dict[int, str]] = {
    1: _SNAPSHOTS,  # 2: snapshots of the state, so a restart replays only the latest events
}


def open_journal(path: str) -> sqlite3.Connection:
    """A connection to the journal at ``path`` (created if the file is new or empty), in WAL
    mode with full sync, at SCHEMA_VERSION and checked. Raises StoreError naming the file."""
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the game journal {path}: {exc}: "
                         "check that its folder exists and is writable") from None
    try:
        _prepare(conn, path)
    except sqlite3.OperationalError as exc:
        conn.close()
        if "not a database" in str(exc) or "malformed" in str(exc):
            raise corrupt(path, exc) from None
        raise StoreError(f"cannot open the game journal {path}: {exc}: "
                         "check that the file and its folder are writable") from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise corrupt(path, exc) from None
    except BaseException:
        conn.close()
        raise
    return conn


def corrupt(path: str, exc: BaseException) -> StoreError:
    return StoreError(
        f"{path} is not a cribpi game journal or is damaged ({exc}): move it aside "
        "(keep it: `sqlite3 FILE .recover` may save its games) and cribpi will start a new one")


def _prepare(conn: sqlite3.Connection, path: str) -> None:
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
    check = conn.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        raise corrupt(path, sqlite3.DatabaseError(f"quick_check: {check}"))


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
        while version < SCHEMA_VERSION:
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
