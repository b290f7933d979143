"""``cribpi stats --db PATH [--json]``."""

from __future__ import annotations

import json
import subprocess
import sys

from cribpi.cli import main
from cribpi.game import Mode, NewGame, Peg
from cribpi.store import Store

from store_helpers import journal


def _board_game(db, winner: int) -> None:  # type: ignore[no-untyped-def]
    with Store(db) as store:
        journal(store, [NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0),
                        Peg(1 - winner, 95), Peg(winner, 121)])


def test_json_gives_each_player_s_record(db_path, capsys):
    _board_game(db_path, 0)
    _board_game(db_path, 0)
    assert main(["stats", "--db", str(db_path), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["Ann"]["games_won"] == 2 and stats["Ann"]["matches_won"] == 2
    assert stats["Ben"]["games_played"] == 2 and stats["Ben"]["games_won"] == 0
    assert stats["Ben"]["average_hand"] is None  # board mode enters no cards


def test_the_table_has_a_row_per_player(db_path, capsys):
    _board_game(db_path, 1)
    assert main(["stats", "--db", str(db_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["Player", "Games", "Won"]
    assert lines[1].split()[:5] == ["Ann", "1", "0", "1", "0"]
    assert lines[2].split()[:5] == ["Ben", "1", "1", "1", "1"]


def test_an_empty_journal_says_so(db_path, capsys):
    Store(db_path).close()
    assert main(["stats", "--db", str(db_path)]) == 0
    assert "No finished games" in capsys.readouterr().out


def test_a_missing_or_foreign_file_exits_2_naming_it(tmp_path, capsys):
    missing = tmp_path / "nothing.db"
    assert main(["stats", "--db", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err and not missing.exists()
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all\n" * 100)
    assert main(["stats", "--db", str(junk)]) == 2
    assert "not a cribpi game journal" in capsys.readouterr().err


def test_runs_as_a_command(db_path):
    _board_game(db_path, 0)
    out = subprocess.run([sys.executable, "-m", "cribpi", "stats", "--db", str(db_path), "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out)["Ann"]["games_won"] == 1
