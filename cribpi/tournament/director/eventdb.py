"""The director's database of one event (SQLite): players, rounds and their seating, tables,
results, and an audit trail of every correction. Written by the director only.

Every write is durable when its method returns (WAL, synchronous=FULL), unless the director
has deferred the fsync (:meth:`EventDB.defer_sync`, when it follows a broker): then a commit
reaches the WAL file without waiting for the disk, which loses nothing if the director dies,
and :meth:`EventDB.sync` (one fsync of the WAL, made outside the database lock) makes every
commit so far safe from a power cut too. The director acknowledges a message to the broker only
after that (see :mod:`cribpi.tournament.director`)."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from cribpi.exc import StoreError

__all__ = ["EventDB", "hash_password", "check_password"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (name TEXT PRIMARY KEY, registered REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS rounds (number INTEGER PRIMARY KEY, kind TEXT NOT NULL, created REAL NOT NULL,
                                   games INTEGER);  -- games in each of its matches (NULL: the event's)
CREATE TABLE IF NOT EXISTS seats (round INTEGER NOT NULL, table_id TEXT NOT NULL, player TEXT NOT NULL,
                                  PRIMARY KEY (round, player));
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, msg_id INTEGER NOT NULL, game INTEGER NOT NULL,
    game_number INTEGER NOT NULL, round INTEGER NOT NULL, players TEXT NOT NULL, scores TEXT NOT NULL,
    winner INTEGER NOT NULL, kind TEXT NOT NULL, margin INTEGER NOT NULL, status TEXT NOT NULL,
    received REAL NOT NULL, UNIQUE (table_id, msg_id), UNIQUE (table_id, game, game_number));
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY, result INTEGER NOT NULL, at REAL NOT NULL, by TEXT NOT NULL, why TEXT NOT NULL,
    before TEXT NOT NULL, after TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS admin_sessions (  -- the admin's logins: a digest of the cookie, never the cookie
    cookie TEXT PRIMARY KEY, expires REAL NOT NULL, csrf TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS waiting (  -- results of players not registered yet, as they came
    table_id TEXT NOT NULL, msg_id INTEGER NOT NULL, topic TEXT NOT NULL, payload BLOB NOT NULL,
    PRIMARY KEY (table_id, msg_id));
"""

RESULT_COLUMNS = ("id", "table_id", "msg_id", "game", "game_number", "round", "players", "scores", "winner",
                  "kind", "margin", "status", "received")


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        _, salt, digest = stored.split("$")
        mine = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=2**14, r=8, p=1)
    except ValueError:
        return False
    return hmac.compare_digest(mine.hex(), digest)


def _digest(cookie: str) -> str:
    return hashlib.sha256(cookie.encode()).hexdigest()


def _private(path: Path, *, create: bool) -> None:
    """The database (and its WAL and shared-memory files, which SQLite creates with the
    database's mode) readable by its owner only: it holds the admin's scrypt hash. A new one
    is made so; an older one readable by others is made so too, if this user owns it."""
    if create and not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        try:
            mode = part.stat().st_mode
            if mode & 0o077:
                part.chmod(mode & 0o700)
        except OSError:  # not there, or not ours: nothing to do here
            pass


class EventDB:
    def __init__(self, path: Path | str, *, create: bool = False) -> None:
        if not create and not Path(path).is_file():
            raise StoreError(f"there is no event database at {path}: make one with `cribpi director init`")
        _private(Path(path), create=create)
        self.lock = threading.RLock()
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(_SCHEMA)
        if "games" not in {row[1] for row in self.db.execute("PRAGMA table_info(rounds)")}:  # an older database
            self.db.execute("ALTER TABLE rounds ADD COLUMN games INTEGER")
        if "withdrawn" not in {row[1] for row in self.db.execute("PRAGMA table_info(players)")}:
            self.db.execute("ALTER TABLE players ADD COLUMN withdrawn REAL")  # when the player withdrew (NULL: plays)
        self.path = str(path)
        self.wal: int | None = None  # the WAL file, once the fsync is deferred
        self.checkpointer: sqlite3.Connection | None = None
        self.synced = self.db.total_changes

    def close(self) -> None:
        self.sync()
        with self.lock:
            self.db.close()
        if self.checkpointer is not None:
            self.checkpointer.close()
            self.checkpointer = None
        if self.wal is not None:
            os.close(self.wal)
            self.wal = None

    def defer_sync(self) -> None:
        """Commit without waiting for the disk from now on; :meth:`sync` makes it durable."""
        with self.lock:
            if self.wal is not None:
                return
            self.db.execute("PRAGMA synchronous=NORMAL")
            # Checkpoints (which fsync) move to the flusher's own connection: see checkpoint().
            self.db.execute("PRAGMA wal_autocheckpoint=0")
            # The WAL file SQLite appends each commit to (created with the database's first
            # read in WAL mode); an fsync of any descriptor of it flushes those appends.
            self.db.execute("SELECT count(*) FROM meta").fetchone()
            self.wal = os.open(f"{self.path}-wal", os.O_RDONLY)
            self.checkpointer = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)

    def checkpoint(self, over: int = 4 << 20) -> bool:
        """Copy the WAL into the database once it holds over ``over`` bytes (a PASSIVE
        checkpoint on a connection of its own: the message thread goes on committing);
        whether it ran."""
        if self.wal is None or self.checkpointer is None or os.fstat(self.wal).st_size <= over:
            return False
        self.checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return True

    def unsynced(self) -> bool:
        """Whether a commit may not be on the disk yet."""
        with self.lock:
            return self.wal is not None and self.db.total_changes != self.synced

    def sync(self) -> None:
        """Make every commit so far durable: one fsync of the WAL, outside the lock, so the
        message thread goes on committing meanwhile."""
        if self.wal is None:
            return
        with self.lock:
            changes = self.db.total_changes
        os.fsync(self.wal)
        with self.lock:
            self.synced = max(self.synced, changes)

    # -- meta -----------------------------------------------------------------------------

    def get(self, key: str, default: str = "") -> str:
        with self.lock:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else default

    def put(self, key: str, value: str) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # -- the admin's sessions ------------------------------------------------------------------

    def add_session(self, cookie: str, expires: float, csrf: str) -> None:
        """Keep a login (by a digest of its cookie) till ``expires``; expired ones go."""
        with self.lock:
            self.db.execute("DELETE FROM admin_sessions WHERE expires < ?", (time.time(),))
            self.db.execute("INSERT OR REPLACE INTO admin_sessions VALUES (?, ?, ?)", (_digest(cookie), expires, csrf))

    def admin_session(self, cookie: str) -> tuple[float, str] | None:
        """(expiry, CSRF token) of the login whose cookie is ``cookie``, or None."""
        with self.lock:
            row = self.db.execute("SELECT expires, csrf FROM admin_sessions WHERE cookie = ?",
                                  (_digest(cookie),)).fetchone()
        return (float(row[0]), str(row[1])) if row else None

    def drop_session(self, cookie: str) -> None:
        with self.lock:
            self.db.execute("DELETE FROM admin_sessions WHERE cookie = ?", (_digest(cookie),))

    # -- players, tables, rounds ------------------------------------------------------------

    def add_player(self, name: str) -> bool:
        with self.lock:
            cur = self.db.execute("INSERT OR IGNORE INTO players (name, registered) VALUES (?, ?)", (name, time.time()))
        return cur.rowcount == 1

    def withdraw(self, name: str, withdrawn: bool) -> bool:
        """Mark ``name`` withdrawn (seated no more, not in the cut) or playing again; whether
        such a player is registered."""
        with self.lock:
            cur = self.db.execute("UPDATE players SET withdrawn = ? WHERE name = ?",
                                  (time.time() if withdrawn else None, name))
        return cur.rowcount == 1

    def withdrawn(self) -> set[str]:
        with self.lock:
            return {r[0] for r in self.db.execute("SELECT name FROM players WHERE withdrawn IS NOT NULL")}

    def rename_player(self, old: str, new: str) -> None:
        """``old`` is called ``new`` everywhere: the players, the seats, and each result naming
        them (alone, or as a partner in "A & B"), in one transaction."""
        def renamed(side: str) -> str:
            if side == old:
                return new
            parts = side.split(" & ")
            return " & ".join(new if p.strip() == old else p for p in parts) if len(parts) == 2 else side

        with self.lock:
            self.db.execute("BEGIN")
            try:
                self.db.execute("UPDATE players SET name = ? WHERE name = ?", (new, old))
                self.db.execute("UPDATE seats SET player = ? WHERE player = ?", (new, old))
                for result_id, players in self.db.execute("SELECT id, players FROM results").fetchall():
                    sides = json.loads(players)
                    changed = [renamed(side) for side in sides]
                    if changed != sides:
                        self.db.execute("UPDATE results SET players = ? WHERE id = ?", (json.dumps(changed), result_id))
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def players(self) -> list[str]:
        with self.lock:
            return [r[0] for r in self.db.execute("SELECT name FROM players ORDER BY registered, name")]

    def playing(self) -> list[str]:
        """The players not withdrawn, as :meth:`players` orders them."""
        with self.lock:
            return [r[0] for r in self.db.execute("SELECT name FROM players WHERE withdrawn IS NULL"
                                                  " ORDER BY registered, name")]

    def add_tables(self, ids: list[str]) -> None:
        with self.lock:
            self.db.executemany("INSERT OR IGNORE INTO tables VALUES (?)", [(t,) for t in ids])

    def tables(self) -> list[str]:
        with self.lock:
            return [r[0] for r in self.db.execute("SELECT id FROM tables ORDER BY length(id), id")]

    def add_round(self, kind: str, seating: dict[str, list[str]], games: int | None = None) -> int:
        """A new round, seated; ``games``: the games of each of its matches (None: the event's)."""
        with self.lock:
            self.db.execute("BEGIN")
            number = int(self.db.execute("SELECT coalesce(max(number), 0) + 1 FROM rounds").fetchone()[0])
            self.db.execute("INSERT INTO rounds (number, kind, created, games) VALUES (?, ?, ?, ?)",
                            (number, kind, time.time(), games))
            self.db.executemany("INSERT INTO seats VALUES (?, ?, ?)",
                                [(number, t, p) for t, names in seating.items() for p in names])
            self.db.execute("COMMIT")
        return number

    def current_round(self) -> tuple[int, str]:
        with self.lock:
            row = self.db.execute("SELECT number, kind FROM rounds ORDER BY number DESC LIMIT 1").fetchone()
        return (int(row[0]), str(row[1])) if row else (0, "qualifying")

    def seating(self, number: int) -> dict[str, list[str]]:
        seats: dict[str, list[str]] = {}
        with self.lock:
            for table, player in self.db.execute("SELECT table_id, player FROM seats WHERE round = ? ORDER BY rowid",
                                                 (number,)):  # in seat order, as seated
                seats.setdefault(table, []).append(player)
        return seats

    def round_games(self, number: int) -> int | None:
        """The games of each match of round ``number``, as it was seated (None: not said)."""
        with self.lock:
            row = self.db.execute("SELECT games FROM rounds WHERE number = ?", (number,)).fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def count_results(self, table: str, round_number: int, statuses: tuple[str, ...]) -> int:
        with self.lock:
            marks = ", ".join("?" * len(statuses))
            return int(self.db.execute(f"SELECT count(*) FROM results WHERE table_id = ? AND round = ? AND status IN"
                                       f" ({marks})", (table, round_number, *statuses)).fetchone()[0])

    def round_kinds(self) -> dict[int, str]:
        with self.lock:
            return {int(n): str(k) for n, k in self.db.execute("SELECT number, kind FROM rounds")}

    # -- results ------------------------------------------------------------------------------

    def insert_result(self, table: str, body: dict[str, Any], round_number: int) -> int:
        """Store a new result; ``sqlite3.IntegrityError`` if its (table, id) or game is known."""
        with self.lock:
            cur = self.db.execute(
                "INSERT INTO results (table_id, msg_id, game, game_number, round, players, scores, winner, kind,"
                " margin, status, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table, body["id"], body["game"], body["game_number"], round_number, json.dumps(body["players"]),
                 json.dumps(body["scores"]), body["winner"], body["kind"], body["margin"], body["status"], time.time()))
        return int(cur.lastrowid or 0)

    def result_for_game(self, table: str, game: int, game_number: int) -> dict[str, Any] | None:
        return self._one("table_id = ? AND game = ? AND game_number = ?", (table, game, game_number))

    def result(self, result_id: int) -> dict[str, Any] | None:
        return self._one("id = ?", (result_id,))

    def _one(self, where: str, args: tuple[Any, ...]) -> dict[str, Any] | None:
        rows = self.results(where, args)
        return rows[0] if rows else None

    def results(self, where: str = "1", args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute(f"SELECT {', '.join(RESULT_COLUMNS)} FROM results WHERE {where} ORDER BY id",
                                   args).fetchall()
        out = []
        for row in rows:
            item = dict(zip(RESULT_COLUMNS, row))
            item["players"], item["scores"] = json.loads(item["players"]), json.loads(item["scores"])
            out.append(item)
        return out

    def update_result(self, result_id: int, changes: dict[str, Any], *, by: str, why: str) -> None:
        """Change a result, writing its before and after to the audit trail in the same transaction."""
        before = self.result(result_id)
        if before is None:
            raise StoreError(f"result {result_id} does not exist")
        after = {**before, **changes}
        with self.lock:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE results SET scores = ?, winner = ?, kind = ?, margin = ?, status = ?,"
                            " msg_id = ? WHERE id = ?",
                            (json.dumps(after["scores"]), after["winner"], after["kind"], after["margin"],
                             after["status"], after["msg_id"], result_id))
            self.db.execute("INSERT INTO corrections (result, at, by, why, before, after) VALUES (?, ?, ?, ?, ?, ?)",
                            (result_id, time.time(), by, why, json.dumps(before), json.dumps(after)))
            self.db.execute("COMMIT")

    # -- results waiting for their players ---------------------------------------------------

    def add_waiting(self, table: str, msg_id: int, topic: str, payload: bytes, *, most: int) -> bool:
        """Keep a result whose players are not registered yet, at most ``most`` a table;
        whether it is kept."""
        with self.lock:
            held = self.db.execute("SELECT count(*) FROM waiting WHERE table_id = ?", (table,)).fetchone()[0]
            if held >= most:
                return False
            self.db.execute("INSERT OR IGNORE INTO waiting VALUES (?, ?, ?, ?)", (table, msg_id, topic, payload))
        return True

    def waiting(self, mentioning: bytes = b"") -> list[tuple[str, int, str, bytes]]:
        """The results kept waiting whose payload holds ``mentioning``: (table, id, topic,
        payload), each table's in id order."""
        with self.lock:
            rows = self.db.execute("SELECT table_id, msg_id, topic, payload FROM waiting WHERE instr(payload, ?) > 0"
                                   " ORDER BY table_id, msg_id", (mentioning,)).fetchall()
        return [(str(t), int(i), str(topic), bytes(p)) for t, i, topic, p in rows]

    def done_waiting(self, table: str, msg_id: int) -> None:
        with self.lock:
            self.db.execute("DELETE FROM waiting WHERE table_id = ? AND msg_id = ?", (table, msg_id))

    def corrections(self) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute("SELECT id, result, at, by, why, before, after FROM corrections ORDER BY id").fetchall()
        return [{"id": i, "result": r, "at": at, "by": by, "why": why, "before": json.loads(b), "after": json.loads(a)}
                for i, r, at, by, why, b, a in rows]
