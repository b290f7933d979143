"""What a table keeps besides its games: the set-up chosen for its next game, and its brightness.

A choice made in the menu belongs to no game yet (the game it sets up is started later, or
never), so it is not an event: it is one row per table in ``table_settings`` (schema 4), its
JSON written by the app (:func:`cribpi.app.settings.kept_data`) and checked by the app when read
back, so a choice an older or newer cribpi wrote is judged where the choices are known. Each
write is its own transaction, committed like an event: a pulled plug keeps the last choice.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Mapping
from typing import Any

from cribpi.nesting import loads_json

__all__ = ["read_table_settings", "write_table_settings", "SETTINGS_SINCE"]

log = logging.getLogger(__name__)

#: The schema version that has ``table_settings`` (an older journal, read as it is, has none).
SETTINGS_SINCE = 4


def read_table_settings(conn: sqlite3.Connection, path: str, table: str | None, version: int) -> dict[str, Any] | None:
    """The settings kept for ``table``; None when none are kept, or when they cannot be read
    (logged in one line: the table starts from its other settings, never stops for them)."""
    if version < SETTINGS_SINCE:
        return None
    row = conn.execute("SELECT data FROM table_settings WHERE table_name IS ?", (table,)).fetchone()
    if row is None:
        return None
    try:
        data = loads_json(row[0]) if isinstance(row[0], str) else None
    except ValueError:  # not JSON, or nested deeper than settings are (TooDeep)
        data = None
    if not isinstance(data, dict):
        log.warning("%s: the settings kept for table %s are not a JSON object: not used", path, table)
        return None
    return data


def write_table_settings(conn: sqlite3.Connection, table: str | None, data: Mapping[str, Any], now: str) -> None:
    """Keep ``data`` as ``table``'s settings, in place of any kept before (inside the caller's
    transaction)."""
    text = json.dumps(dict(data), ensure_ascii=False, sort_keys=True)
    conn.execute("DELETE FROM table_settings WHERE table_name IS ?", (table,))
    conn.execute("INSERT INTO table_settings (table_name, data, saved) VALUES (?, ?, ?)", (table, text, now))
