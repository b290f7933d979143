"""The table's outbox: every event and result waits here, on disk, until the broker has
acknowledged it (QoS 1 PUBACK), so a broker that is down, restarted or unreachable for a
whole game loses nothing; and it stays marked not done until the director itself says it has
it durably (``done``, the director's session): after any reconnect of either side, what is not
done is sent again, so a broker that acknowledged a row and died before saving it loses nothing
either. Each row's id is the table's monotonic message id, which the director
deduplicates on, so a message sent twice (acknowledged, but the ack lost) is counted once.

What the broker acknowledged stays, marked sent, for as long as the table serves that event:
a director that was not yet following the event, or that lost its database, announces a new
session and the table sends the event's rows again under their original ids (a replay, see
:mod:`cribpi.tournament.table.publisher`). The session each event was last replayed to is kept here.

It is its own SQLite file beside the game journal (``cribpi-outbox.db``): the journal keeps
one writer, and the outbox is written from the table's thread and the MQTT thread.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["Outbox", "outbox_path"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,          -- events or result
    body TEXT NOT NULL,          -- the JSON message without its id
    held INTEGER NOT NULL DEFAULT 0,  -- a result waiting for the players' confirmation
    sent INTEGER NOT NULL DEFAULT 0,  -- acknowledged by the broker
    event TEXT NOT NULL DEFAULT '',   -- the event it was written for
    done TEXT                         -- the director's session that said it has it, durably
);
CREATE TABLE IF NOT EXISTS tournament_answers (  -- each side's word on the held result
    side INTEGER PRIMARY KEY,
    agree INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_served (  -- the director's session each event was replayed to
    event TEXT PRIMARY KEY,
    session TEXT NOT NULL
)"""
_UNSENT_INDEX = "CREATE INDEX IF NOT EXISTS tournament_outbox_unsent ON tournament_outbox (id) WHERE sent = 0"


def outbox_path(journal: Path) -> Path:
    return journal.with_name(f"{journal.stem}-outbox.db")


class Outbox:
    def __init__(self, path: Path | str) -> None:
        self.lock = threading.Lock()
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        # FULL, as the journal: a result the table has finished must outlive a power cut until
        # the director has it (NORMAL kept it through a crash of cribpi only: cut at random on a
        # filesystem that drops what was not synced, 86 of 87 outboxes lost a finished row)
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(_SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tournament_outbox)")}
        if "event" not in columns:  # an outbox from before replays: its sent rows name no event
            self.db.execute("DELETE FROM tournament_outbox WHERE sent = 1")
            self.db.execute("ALTER TABLE tournament_outbox ADD COLUMN event TEXT NOT NULL DEFAULT ''")
        if "done" not in {row[1] for row in self.db.execute("PRAGMA table_info(tournament_outbox)")}:
            self.db.execute("ALTER TABLE tournament_outbox ADD COLUMN done TEXT")
        self.db.execute(_UNSENT_INDEX)
        # A new outbox numbers its rows from the time it was made, in microseconds: the director
        # knows a table's messages by (table, id), so a table whose outbox is new (a replaced
        # card, a load generator's second run) must not start again at 1, where every message
        # would be taken for a replay of the old outbox's. An outbox's ids stay behind the clock
        # while it adds fewer than one row a microsecond (in milliseconds, a quick table's
        # second outbox could start under its first's last ids); an outbox numbered in
        # milliseconds before this is passed by a new one at once. 2**53 (JSON's and the
        # director's limit) is some 230 years away.
        self.db.execute("INSERT INTO sqlite_sequence (name, seq) SELECT 'tournament_outbox', ? WHERE NOT EXISTS"
                        " (SELECT 1 FROM sqlite_sequence WHERE name = 'tournament_outbox')"
                        " AND NOT EXISTS (SELECT 1 FROM tournament_outbox)", (time.time_ns() // 1000,))
        self.event = ""

    def use_event(self, event: str) -> None:
        """Serve ``event``: rows are added for it, and only its rows are sent or replayed. Rows
        that name no event (written before events were recorded) become its own; what was sent
        for another event is dropped (AUTOINCREMENT never reuses its ids); what another event
        still has unsent waits for a table that serves that event again."""
        with self.lock:
            self.event = event
            # rows from before events were recorded, or named by the bare event id (before the
            # instance of an event was told apart, see cribpi.tournament.table.publisher.instance_of)
            bare = event.split("#", 1)[0]
            self.db.execute("UPDATE tournament_outbox SET event = ? WHERE event IN ('', ?)", (event, bare))
            self.db.execute("DELETE FROM tournament_outbox WHERE sent = 1 AND event != ?", (event,))

    def add(self, kind: str, body: dict[str, Any], *, held: bool = False) -> int:
        with self.lock:
            if held:  # a fresh result: no side has answered for it yet
                self.db.execute("DELETE FROM tournament_answers")
            cur = self.db.execute("INSERT INTO tournament_outbox (kind, body, held, event) VALUES (?, ?, ?, ?)",
                                  (kind, json.dumps(body, separators=(",", ":")), int(held), self.event))
            return int(cur.lastrowid or 0)

    def answer(self, side: int, agree: bool, sides: int) -> str | None:
        """Record ``side``'s word on the held result (kept on disk, so a restart keeps it); the
        result goes as ``disputed`` at once on a dispute, as ``confirmed`` once all ``sides``
        agreed. Returns the status it went with, or None while it is still held."""
        if not self.held():
            return None
        with self.lock:
            self.db.execute("INSERT OR IGNORE INTO tournament_answers (side, agree) VALUES (?, ?)", (side, int(agree)))
            given = dict(self.db.execute("SELECT side, agree FROM tournament_answers").fetchall())
        status = "disputed" if 0 in given.values() else "confirmed" if len(given) >= sides else None
        if status is not None:
            self.release(status)
        return status

    def release(self, status: str) -> int:
        """Let every held result go, marked ``status`` (confirmed or disputed); how many. It goes
        under a new id, after everything added while it was held (the sender hands paho rows in
        id order and never looks back), and the held row is dropped in the same transaction."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute("DELETE FROM tournament_answers")
                rows = self.db.execute(
                    "SELECT id, kind, body, event FROM tournament_outbox WHERE held = 1 ORDER BY id").fetchall()
                for row_id, kind, body, event in rows:
                    data = json.loads(body)
                    data["status"] = status
                    self.db.execute("INSERT INTO tournament_outbox (kind, body, event) VALUES (?, ?, ?)",
                                    (kind, json.dumps(data, separators=(",", ":")), event))
                    self.db.execute("DELETE FROM tournament_outbox WHERE id = ?", (row_id,))
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
            return len(rows)

    def held(self) -> bool:
        with self.lock:
            return self.db.execute("SELECT 1 FROM tournament_outbox WHERE held = 1").fetchone() is not None

    def pending(self, after: int, limit: int = 200, *, again: bool = False) -> list[tuple[int, str, bytes]]:
        """The event's unsent, unheld messages with id > ``after``, oldest first: (id, kind,
        payload with its id). ``again``: the sent ones too (a replay), each as it first went."""
        sent = "" if again else "sent = 0 AND "
        with self.lock:
            rows = self.db.execute(
                f"SELECT id, kind, body FROM tournament_outbox WHERE {sent}held = 0 AND event = ? AND id > ?"
                " ORDER BY id LIMIT ?", (self.event, after, limit)).fetchall()
        return [(i, kind, ('{"id":%d,' % i + body[1:]).encode()) for i, kind, body in rows]

    def newest(self) -> int:
        """The event's highest message id (0 when it has none)."""
        with self.lock:
            row = self.db.execute("SELECT max(id) FROM tournament_outbox WHERE event = ?", (self.event,)).fetchone()
        return int(row[0] or 0)

    def served(self) -> str | None:
        """The director's session the event's rows were last replayed to in full."""
        with self.lock:
            row = self.db.execute("SELECT session FROM tournament_served WHERE event = ?", (self.event,)).fetchone()
        return str(row[0]) if row else None

    def serve(self, session: str) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO tournament_served VALUES (?, ?)", (self.event, session))

    def mark_sent(self, ids: list[int]) -> None:
        with self.lock:
            self.db.executemany("UPDATE tournament_outbox SET sent = 1 WHERE id = ?", [(i,) for i in ids])

    def mark_done(self, ids: list[int], session: str) -> None:
        """The director's ``session`` has these rows, durably: they are not sent to it again."""
        with self.lock:
            self.db.executemany("UPDATE tournament_outbox SET done = ? WHERE id = ? AND event = ?",
                                [(session, i, self.event) for i in ids])

    def send_again(self, session: str | None) -> int:
        """Mark unsent every row of the event the director's ``session`` has not said it has
        (None: no director heard of yet, so every row no director has), to be sent again after a
        reconnect of either side; how many."""
        with self.lock:
            cur = self.db.execute(
                "UPDATE tournament_outbox SET sent = 0 WHERE sent = 1 AND held = 0 AND event = ? AND"
                + (" done IS NULL" if session is None else " (done IS NULL OR done != ?)"),
                (self.event,) if session is None else (self.event, session))
            return cur.rowcount

    def undelivered(self, session: str | None) -> int:
        """The event's rows (not held) the director's ``session`` has not said it has."""
        with self.lock:
            return int(self.db.execute(
                "SELECT count(*) FROM tournament_outbox WHERE held = 0 AND event = ? AND (done IS NULL OR done != ?)",
                (self.event, session or "")).fetchone()[0])

    def count(self, kind: str) -> int:
        """The event's rows of ``kind`` (``result``: the games it finished)."""
        with self.lock:
            return int(self.db.execute("SELECT count(*) FROM tournament_outbox WHERE kind = ? AND event = ?",
                                       (kind, self.event)).fetchone()[0])

    def unsent(self) -> int:
        with self.lock:
            return int(self.db.execute("SELECT count(*) FROM tournament_outbox WHERE sent = 0 AND event = ?",
                                       (self.event,)).fetchone()[0])

    def close(self) -> None:
        with self.lock:
            self.db.close()
