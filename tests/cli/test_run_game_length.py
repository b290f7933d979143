"""``cribpi run`` plays to 61 from ``--game-length 61`` or the configuration's ``[game]``; with a
game of another length open and no terminal to ask, the open game goes on and the log says so."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.service.daemon_proc import run_until_up

pytestmark = pytest.mark.service


def run_until_started(tmp_path: Path, *options: str) -> str:
    """``cribpi run --backend mock`` on the journal ``tmp_path/j.db``, stopped once it runs: its log."""
    keys = tmp_path / "keys"
    keys.write_text("ok\n")
    log = tmp_path / "log"
    env = {k: v for k, v in os.environ.items() if k not in ("CRIBPI_LAUNCHER", "CRIBPI_CONFIG", "NOTIFY_SOCKET",
                                                            "STATE_DIRECTORY")}
    env["CRIBPI_DB"] = str(tmp_path / "j.db")
    return run_until_up([sys.executable, "-m", "cribpi", "run", "--backend", "mock", "--keys", str(keys), *options],
                        env, log)


def lengths(db: Path) -> list[int]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT rules FROM games ORDER BY id").fetchall()
    return [json.loads(rules).get("game_length", 121) for (rules,) in rows]


def test_game_length_61_on_the_command_line_and_kept_for_the_next_game(tmp_path):
    run_until_started(tmp_path, "--game-length", "61")
    assert lengths(tmp_path / "j.db") == [61]
    log = run_until_started(tmp_path, "--game-length", "121")  # no terminal to ask: the 61 game goes on
    assert lengths(tmp_path / "j.db") == [61]
    assert "you asked for --game-length 121 (the open game: game length 61 points)" in log
    assert "No terminal to ask whether to start a new game: the open game goes on." in log


def test_the_configurations_game_length_sets_a_fresh_table(tmp_path):
    config = tmp_path / "cribpi.toml"
    config.write_text("[game]\ngame_length = 61\n")
    run_until_started(tmp_path, "--config", str(config))
    assert lengths(tmp_path / "j.db") == [61]
