"""The command cribpi names to go on with a game opens the same journal: a journal chosen with
``CRIBPI_DB`` is named in it, for ``bash .ci/play`` as for ``cribpi`` itself."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

from cribpi.daemon.table import resume_command, resume_hint
from tests.service.daemon_proc import run_until_up

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def argv(monkeypatch):
    monkeypatch.delenv("CRIBPI_LAUNCHER", raising=False)
    monkeypatch.delenv("CRIBPI_DB", raising=False)

    def set_argv(*words: str) -> None:
        monkeypatch.setattr(sys, "argv", ["cribpi", *words])
    return set_argv


def test_a_journal_from_cribpi_db_is_in_the_command(tmp_path, monkeypatch, argv):
    db = tmp_path / "my games.db"
    monkeypatch.setenv("CRIBPI_DB", str(db))
    argv("sim", "--seed", "3")
    assert resume_command(db) == f"CRIBPI_DB={shlex.quote(str(db))} cribpi sim --seed 3"
    assert f"run `CRIBPI_DB={shlex.quote(str(db))} cribpi sim --seed 3` again" in resume_hint(db)


def test_a_journal_given_otherwise_needs_no_cribpi_db(tmp_path, monkeypatch, argv):
    db = tmp_path / "j.db"
    argv("sim", "--db", str(db))
    assert resume_command(db) == f"cribpi sim --db {db}"
    monkeypatch.setenv("CRIBPI_DB", str(tmp_path / "other.db"))  # not the journal played: not named
    assert resume_command(db) == f"cribpi sim --db {db}"


def test_the_launchers_own_words_stand(tmp_path, monkeypatch, argv):
    monkeypatch.setenv("CRIBPI_DB", str(tmp_path / "j.db"))
    monkeypatch.setenv("CRIBPI_LAUNCHER", "bash .ci/play")
    argv("run")
    assert resume_command(tmp_path / "j.db") == "bash .ci/play"


def play_until_stopped(tmp_path: Path, env: dict[str, str]) -> str:
    """``bash .ci/play run --backend mock --keys FILE``, stopped with SIGTERM once it runs: its log."""
    keys = tmp_path / "keys"
    keys.write_text("ok\n")
    log = tmp_path / "log"
    base = {k: v for k, v in os.environ.items() if k not in ("CRIBPI_DB", "CRIBPI_LAUNCHER", "CRIBPI_CONFIG",
                                                               "NOTIFY_SOCKET", "STATE_DIRECTORY")}
    text = run_until_up(["bash", str(ROOT / ".ci/play"), "run", "--backend", "mock", "--keys", str(keys)],
                        {**base, **env}, log, seconds=120)
    return " ".join(text.split())


@pytest.mark.service
def test_ci_play_with_cribpi_db_says_the_command_that_opens_the_same_journal(tmp_path):
    db = tmp_path / "x.db"
    text = play_until_stopped(tmp_path, {"CRIBPI_DB": str(db)})
    command = f"CRIBPI_DB={shlex.quote(str(db))} bash .ci/play run --backend mock --keys {tmp_path / 'keys'}"
    assert f"the game is kept in {db}; run `{command}` again" in text, text


def test_the_command_to_go_on_leaves_out_the_set_up_options(monkeypatch, argv):
    """The game is in the journal: a set-up option left in the command would ask again whether
    to start a new game (a second review: after answering "no" to --game-length 121, the quit
    message said to run --game-length 121 again, and a "yes" then would abandon the game)."""
    argv("sim", "--players", "3", "--names=Ann,Bob,Cy", "--new", "--seed", "4", "--game-length", "61", "--db", "x.db")
    assert resume_command() == "cribpi sim --seed 4 --db x.db"
    monkeypatch.setenv("CRIBPI_LAUNCHER", r"CRIBPI_DB=/tmp/a\ b.db bash .ci/play run --game-length 121 --mode claim")
    assert resume_command() == "CRIBPI_DB='/tmp/a b.db' bash .ci/play run"  # still an assignment for the shell
    monkeypatch.setenv("CRIBPI_LAUNCHER", "bash .ci/play")
    assert resume_command() == "bash .ci/play"
