"""The real ``cribpi run`` killed with SIGKILL after the next game's set-up was chosen in the
menu: restarted, it starts the next game with that set-up; a kept preset it does not know is
one line in its log, and the table starts all the same."""

from __future__ import annotations

import json
import signal
import sqlite3
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "service"))  # the daemon harness the service tests use
from daemon_proc import Daemon  # noqa: E402

pytestmark = pytest.mark.service

# At the cut, the main menu is Resume, New game..., Next game setup..., Brightness, Scores.
SETUP_MENU = ("menu", "go", "go", "ok")
# In it: Mode, Players, Rules, Game, Match, Review, Muggins, Start it now..., Back (OK keeps the place).
TO_MATCH = ("go", "go", "go", "go")  # from Mode
CHOICES = ("ok", "go", "ok", "go", "ok", "go", "go", "ok")  # claim mode, 3 players, the next preset, best of 3
START_NOW = ("go", "go", "go", "ok", "go", "ok")  # from Match: Start it now..., then "Yes: new game"


def rows(db: Path, sql: str) -> list[tuple]:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return conn.execute(sql).fetchall()
    except sqlite3.DatabaseError:  # not there yet
        return []


def wait_for(what, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := what():
            return found
        time.sleep(0.05)
    raise AssertionError(f"never came: {what.__doc__}")


def kept(db: Path) -> dict | None:
    """The settings kept for the main table."""
    found = rows(db, "SELECT data FROM table_settings WHERE table_name='main'")
    return json.loads(found[0][0]) if found else None


def games(db: Path) -> list[tuple]:
    return rows(db, "SELECT id, status, players, rules, mode, match_games FROM games ORDER BY id")


def test_a_setup_chosen_then_sigkill_starts_the_next_game_after_the_restart(tmp_path):
    daemon = Daemon(tmp_path)
    daemon.wait_events(1)  # the NewGame of a fresh journal
    daemon.send(*SETUP_MENU, *CHOICES)
    chosen = wait_for(lambda: (k := kept(daemon.db)) and k["match_games"] == 3 and k)
    assert (chosen["mode"], chosen["players"]) == ("claim", 3)
    daemon.proc.kill()  # SIGKILL: no handler runs, as when the plug is pulled
    daemon.proc.wait(timeout=10)
    assert daemon.proc.returncode == -signal.SIGKILL
    [(first, status, players, *_)] = games(daemon.db)
    assert status == "open" and len(json.loads(players)) == 2  # the game being played keeps its own set-up

    again = Daemon(tmp_path)
    again.wait_events(1)
    again.send(*SETUP_MENU, *TO_MATCH, *START_NOW)  # straight to Match, then start it
    _, (second, status, players, rules, mode, match_games) = wait_for(lambda: len(found := games(again.db)) == 2
                                                                      and found)
    code, err = again.stop()
    assert code == 0, err
    assert second != first and status == "open"
    assert (len(json.loads(players)), json.loads(rules)["name"], mode, match_games) == (
        3, chosen["rules"], "claim", 3)
    assert chosen["rules"] != "acc"  # the preset chosen, not the default


def test_a_kept_preset_this_version_does_not_know_is_one_line_and_the_table_starts(tmp_path):
    daemon = Daemon(tmp_path)
    daemon.wait_events(1)
    code, err = daemon.stop()
    assert code == 0, err
    assert kept(daemon.db) is not None  # the set-up of the game started is kept as it starts
    with sqlite3.connect(daemon.db) as conn:  # as an older cribpi with another preset left it
        conn.execute("UPDATE table_settings SET data=? WHERE table_name='main'",
                     (json.dumps({"rules": "tournament-2019", "mode": "claim", "players": 2}),))

    again = Daemon(tmp_path)
    again.wait_events(1)
    again.send(*SETUP_MENU, *TO_MATCH, *START_NOW)
    _, (_, _, _, rules, mode, _) = wait_for(lambda: len(found := games(again.db)) == 2 and found)
    code, err = again.stop()
    assert code == 0, err
    said = [line for line in err.splitlines() if "tournament-2019" in line]
    assert len(said) == 1 and "settings kept from before not used" in said[0], err
    assert (json.loads(rules)["name"], mode) == ("acc", "claim")  # the default preset; the rest is used
