"""A table's settings kept in the journal (schema 4): per table, replaced as they change, kept
across a kill -9, migrated into older journals, and never a reason to stop when unreadable."""

from __future__ import annotations

import logging
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from cribpi.exc import JournalFull
from cribpi.store import SCHEMA_VERSION, Store

from store_helpers import fill, journal, random_match

CHOICES = {"mode": "claim", "players": 3, "rules": "hoyle", "brightness": 0.75, "muggins": None}


def test_settings_are_kept_per_table_and_replaced_as_they_change(db_path):
    with Store(db_path) as store:
        assert store.table_settings("main") is None
        store.keep_table_settings("main", CHOICES)
        store.keep_table_settings(None, {"mode": "board"})  # a table with no name is a table too
        store.keep_table_settings("main", {**CHOICES, "players": 4})
    with Store(db_path) as store:
        assert store.table_settings("main") == {**CHOICES, "players": 4}
        assert store.table_settings(None) == {"mode": "board"}
        assert store.table_settings("other") is None
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM table_settings").fetchone()[0] == 2  # one row a table
    with Store(db_path, read_only=True) as reader:  # stats and export read alongside
        assert reader.table_settings("main") == {**CHOICES, "players": 4}


_KEEP_THEN_DIE = textwrap.dedent("""
    import os, sys
    from cribpi.store import Store
    store = Store(sys.argv[1])
    store.keep_table_settings("main", {"mode": "claim", "players": int(sys.argv[2])})
    print("kept", flush=True)
    os.kill(os.getpid(), 9)
""")


def test_settings_kept_survive_a_kill_9_straight_after(db_path):
    for players in (3, 4):
        done = subprocess.run([sys.executable, "-c", _KEEP_THEN_DIE, str(db_path), str(players)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == -signal.SIGKILL and done.stdout == "kept\n", done.stderr
        with Store(db_path, read_only=True) as reader:  # the WAL as the killed writer left it
            assert reader.table_settings("main") == {"mode": "claim", "players": players}


def test_a_version_3_journal_is_migrated_and_keeps_its_games(db_path):
    events = [e for e, _ in random_match(5)][:12]
    with Store(db_path) as store:
        game_id, game = journal(store, events, table="main")
    with sqlite3.connect(db_path) as conn:  # as cribpi wrote it before version 4
        conn.execute("DROP TABLE table_settings")
        conn.execute("PRAGMA user_version=3")
    with Store(db_path, read_only=True) as reader:  # a reader reads it as it is
        assert reader.table_settings("main") is None and reader.events(game_id) == events
    with Store(db_path) as store:
        assert store._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        assert store.current("main").game.state == game.state
        store.keep_table_settings("main", CHOICES)
        assert store.table_settings("main") == CHOICES


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", "null"])
def test_unreadable_settings_are_logged_in_one_line_and_not_used(db_path, caplog, text):
    with Store(db_path) as store:
        store.keep_table_settings("main", CHOICES)
        store._conn.execute("UPDATE table_settings SET data=?", (text,))
        with caplog.at_level(logging.WARNING, logger="cribpi.store"):
            assert store.table_settings("main") is None
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "settings kept for table main are not a JSON object" in lines[0]


def test_on_a_full_disk_a_setting_is_refused_in_one_line_and_the_one_kept_before_stays(small_disk):
    disk = small_disk(8192)
    with Store(disk / "cribpi.db") as store:
        store.keep_table_settings("main", CHOICES)
        filler = fill(disk)
        refused = 0
        for players in range(40):  # a few commits go into room SQLite already had
            try:
                store.keep_table_settings("main", {**CHOICES, "players": players})
            except JournalFull as exc:
                refused += 1
                assert str(exc).startswith("disk full: could not keep the settings of table main")
                assert "\n" not in str(exc)
                break
        assert refused == 1, "the disk never filled"
        assert store.table_settings("main") == ({**CHOICES, "players": players - 1} if players else CHOICES)
        filler.unlink()
        store.keep_table_settings("main", {**CHOICES, "players": 2})
        assert store.table_settings("main") == {**CHOICES, "players": 2}
