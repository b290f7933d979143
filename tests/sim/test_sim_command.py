"""``cribpi sim --mode claim`` on a journal with a count game open asks before starting anew."""

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from cribpi.app import TableSettings
from cribpi.app.session import Session
from cribpi.commands.sim import TABLE, differences, settings_from, start_new
from cribpi.game import Mode
from cribpi.store import Store


def args(**given: object) -> argparse.Namespace:
    base = {"players": None, "mode": None, "rules": None, "names": None, "match": None, "game_length": None,
            "new": False}
    return argparse.Namespace(**{**base, **given})


@pytest.fixture
def journal(tmp_path):
    """A journal with a 2-player count game open at the simulator's table."""
    db = tmp_path / "sim.db"
    with Store(db) as store:
        Session(TableSettings(names=("Ann", "Bob"), table=TABLE).new_game(), store, TABLE)
    return db


class Asked:
    def __init__(self, answer: str) -> None:
        self.answer, self.questions = answer, []

    def __call__(self, question: str) -> str:
        self.questions.append(question)
        return self.answer


def test_another_mode_asks_and_yes_starts_a_new_game(journal):
    ask = Asked("y")
    assert start_new(journal, args(mode="claim"), ask) is True
    [question] = ask.questions
    assert str(journal) in question and "--mode claim (the open game: mode count)" in question
    assert "[y/n]" in question


@pytest.mark.parametrize("answer", ["n", "", "no", "maybe"])
def test_anything_but_yes_resumes_the_open_game(journal, answer):
    assert start_new(journal, args(mode="claim"), Asked(answer)) is False


def test_the_same_setup_or_none_given_asks_nothing(journal):
    ask = Asked("y")
    assert start_new(journal, args(mode="count", players="2", rules="acc"), ask) is False
    assert start_new(journal, args(), ask) is False
    assert ask.questions == []


def test_new_and_a_missing_journal_ask_nothing(tmp_path, journal):
    ask = Asked("n")
    assert start_new(journal, args(mode="claim", new=True), ask) is True
    assert start_new(tmp_path / "none.db", args(mode="claim"), ask) is False
    assert ask.questions == []


def test_differences_name_each_setting_given(journal):
    with Store(journal) as store:
        state = store.current(TABLE).game.state
    assert differences(state, args(players="3", rules="hoyle")) == [
        "--players 3 (the open game: players 2)", "--rules hoyle (the open game: rules acc)"]


def test_settings_default_when_not_given():
    settings = settings_from(args())
    assert (settings.players, settings.mode, settings.rules) == (2, Mode.COUNT, "acc")
    assert settings_from(args(players="4p")).partnerships


def test_help_names_the_journal(tmp_path):
    cribpi = Path(sys.executable).with_name("cribpi")
    db = tmp_path / "mine.db"
    done = subprocess.run([str(cribpi), "sim", "--help"], capture_output=True, text=True,
                          env={"CRIBPI_DB": str(db), "PATH": "/usr/bin:/bin", "COLUMNS": "200"})
    assert done.returncode == 0 and f"here and now {db}" in done.stdout


def test_run_and_sim_share_one_table():
    from cribpi.daemon.table import TABLE as RUN_TABLE

    assert TABLE == RUN_TABLE


def test_the_question_names_the_open_games_number_and_setup(journal):
    with Store(journal) as store:
        game_id = store.current(TABLE).game_id
    ask = Asked("n")
    assert start_new(journal, args(players="3"), ask) is False
    [question] = ask.questions
    assert f"has game {game_id} open (2 players, count mode, ACC rules: Ann v Bob)" in question
    assert "--players 3 (the open game: players 2)" in question


def test_a_damaged_journal_is_no_open_game_and_is_left_for_play_to_move_aside(tmp_path):
    db = tmp_path / "damaged.db"
    db.write_bytes(b"SQLite format 3\0" + b"\xff" * 4000)
    ask = Asked("y")
    assert start_new(db, args(players="3"), ask) is False
    assert ask.questions == [] and db.read_bytes().startswith(b"SQLite format 3\0")
    with Store(db, recover=True) as store:  # what play() opens it with
        assert store.notice and store.current(TABLE) is None


def test_only_the_options_given_override_the_tables_last_setup():
    from cribpi.commands.sim import given_fields

    assert given_fields(args()) == set()
    assert given_fields(args(mode="claim", players="4p")) == {"mode", "players", "partnerships"}
    assert settings_from(args()).match_games == 1
