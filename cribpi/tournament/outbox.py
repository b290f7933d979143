"""The table's outbox: every event and result waits here, on disk, until the broker has
acknowledged it (QoS 1 PUBACK), so a broker that is down, restarted or unreachable for a
whole game loses nothing. Each row's id is the table's monotonic message id, which the director
deduplicates on, so a message sent twice (acknowledged, but the ack lost) is counted once.

It is its own SQLite file beside the game journal (``cribpi-outbox.db``): the journal keeps
one writer, and the outbox is written from the table's thread and the MQTT thread.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

__all__ = ["Outbox", "outbox_path"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,          -- events or result
    body TEXT NOT NULL,          -- the JSON message without its id
    held INTEGER NOT NULL DEFAULT 0,  -- a result waiting for the players' confirmation
    sent INTEGER NOT NULL DEFAULT 0   -- acknowledged by the broker
);
CREATE TABLE IF NOT EXISTS tournament_answers (  -- each side's word on the held result
    side INTEGER PRIMARY KEY,
    agree INTEGER NOT NULL
)"""


def outbox_path(journal: Path) -> Path:
    return journal.with_name(f"{journal.stem}-outbox.db")


class Outbox:
    def __init__(self, path: Path | str) -> None:
        self.lock = threading.Lock()
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # survives a crash of cribpi; the journal is FULL
        self.db.executescript(_SCHEMA)
        # What the broker has acknowledged is done with; AUTOINCREMENT never reuses its ids.
        self.db.execute("DELETE FROM tournament_outbox WHERE sent = 1")

    def add(self, kind: str, body: dict[str, Any], *, held: bool = False) -> int:
        with self.lock:
            if held:  # a fresh result: no side has answered for it yet
                self.db.execute("DELETE FROM tournament_answers")
            cur = self.db.execute("INSERT INTO tournament_outbox (kind, body, held) VALUES (?, ?, ?)",
                                  (kind, json.dumps(body, separators=(",", ":")), int(held)))
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
                rows = self.db.execute("SELECT id, kind, body FROM tournament_outbox WHERE held = 1 ORDER BY id").fetchall()
                for row_id, kind, body in rows:
                    data = json.loads(body)
                    data["status"] = status
                    self.db.execute("INSERT INTO tournament_outbox (kind, body) VALUES (?, ?)",
                                    (kind, json.dumps(data, separators=(",", ":"))))
                    self.db.execute("DELETE FROM tournament_outbox WHERE id = ?", (row_id,))
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
            return len(rows)

    def held(self) -> bool:
        with self.lock:
            return self.db.execute("SELECT 1 FROM tournament_outbox WHERE held = 1").fetchone() is not None

    def pending(self, after: int, limit: int = 200) -> list[tuple[int, str, bytes]]:
        """Unsent, unheld messages with id > ``after``: (id, kind, payload with its id)."""
        with self.lock:
            rows = self.db.execute(
                "SELECT id, kind, body FROM tournament_outbox WHERE sent = 0 AND held = 0 AND id > ? ORDER BY id LIMIT ?",
                (after, limit)).fetchall()
        return [(i, kind, ('{"id":%d,' % i + body[1:]).encode()) for i, kind, body in rows]

    def mark_sent(self, ids: list[int]) -> None:
        with self.lock:
            self.db.executemany("UPDATE tournament_outbox SET sent = 1 WHERE id = ?", [(i,) for i in ids])

    def unsent(self) -> int:
        with self.lock:
            return int(self.db.execute("SELECT count(*) FROM tournament_outbox WHERE sent = 0").fetchone()[0])

    def close(self) -> None:
        with self.lock:
            self.db.close()
