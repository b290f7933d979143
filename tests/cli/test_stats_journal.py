"""After ``bash .ci/play``, ``.venv/bin/cribpi stats`` said only "No finished games yet.": the
games were in the checkout's journal, and plain ``cribpi`` reads the user's. It says which
journal it read, and where the checkout's games are, with the command that reads them on a line
of its own; the README says which journal each way uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribpi.cli import main
from cribpi.store import Store

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def users_journal(tmp_path, monkeypatch) -> Path:
    for name in ("CRIBPI_DB", "STATE_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    return tmp_path / "cribpi" / "cribpi.db"


def test_an_empty_users_journal_names_itself_and_the_checkouts(users_journal, capsys):
    users_journal.parent.mkdir()
    Store(users_journal).close()
    assert main(["stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = " ".join(lines)
    assert said.startswith(f"No finished games yet in {users_journal}.")  # a long path has a line of its own
    assert ".cribpi/cribpi.db" in said and lines[-1] == "bash .ci/play stats"
    assert all(len(line) <= 80 for line in lines if str(users_journal) not in line)


def test_a_missing_users_journal_says_where_the_checkouts_games_are(users_journal, capsys):
    assert main(["stats"]) == 2
    err = capsys.readouterr().err
    assert str(users_journal) in err and "`bash .ci/play stats`" in err and len(err.splitlines()) == 1


def test_a_journal_named_is_only_named(tmp_path, monkeypatch, capsys):
    db = tmp_path / "mine.db"
    Store(db).close()
    monkeypatch.setenv("CRIBPI_DB", str(db))  # as `bash .ci/play stats` runs it
    assert main(["stats"]) == 0
    assert " ".join(capsys.readouterr().out.split()) == f"No finished games yet in {db}."


def test_the_readme_says_which_journal_each_way_uses():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "The games `bash .ci/play` plays are kept in the checkout, in `.cribpi/cribpi.db`" in readme
    assert "`bash .ci/play stats`" in readme and "~/.local/state/cribpi/cribpi.db" in readme
