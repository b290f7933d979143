"""``cribpi sim`` and ``cribpi run`` options against a journal with a game open: --names,
--match and --game-length are asked about like --mode; a set-up no game can have is refused
before anything is asked, saying what to give instead; --names with a name twice names --names."""

from __future__ import annotations

import argparse

import pytest

from cribpi.app import TableSettings
from cribpi.app.session import Session
from cribpi.commands.sim import TABLE, check_setup, given_fields, player_names, settings_from, start_new
from cribpi.exc import ConfigError
from cribpi.store import Store
from tests.sim.test_sim_command import Asked


def args(**given: object) -> argparse.Namespace:
    base = {"players": None, "mode": None, "rules": None, "names": None, "match": None, "game_length": None,
            "new": False}
    return argparse.Namespace(**{**base, **given})


def journal_with(tmp_path, settings: TableSettings):
    db = tmp_path / "sim.db"
    with Store(db) as store:
        Session(settings.new_game(), store, TABLE)
    return db


@pytest.fixture
def journal(tmp_path):
    """A Red v Blue best-of-1 count game open at the simulator's table."""
    return journal_with(tmp_path, TableSettings(table=TABLE))


@pytest.mark.parametrize("given, named", [
    ({"names": "Ann,Bob"}, "--names Ann,Bob (the open game: names Red, Blue)"),
    ({"match": 3}, "--match 3 (the open game: match best of 1)"),
    ({"game_length": 61}, "--game-length 61 (the open game: game length 121 points)"),
])
def test_names_match_and_length_other_than_the_open_games_ask_first(journal, given, named):
    ask = Asked("y")
    assert start_new(journal, args(**given), ask) is True
    [question] = ask.questions
    assert named in question and "[y/n]" in question


def test_the_question_says_an_open_games_length_other_than_its_presets(tmp_path):
    db = journal_with(tmp_path, TableSettings(table=TABLE, game_length=61))
    ask = Asked("n")
    assert start_new(db, args(game_length=121), ask) is False
    assert "(2 players, count mode, ACC rules, 61 points: Red v Blue)" in ask.questions[0]


@pytest.mark.parametrize("given", [{"names": "Red, Blue"}, {"match": 1}, {"game_length": 121}])
def test_the_open_games_own_names_match_and_length_ask_nothing(journal, given):
    ask = Asked("y")
    assert start_new(journal, args(**given), ask) is False and ask.questions == []


def test_run_asks_about_the_game_length_with_its_own_options(journal):
    """`cribpi run` has no --mode or --new: its namespace asks about what it has."""
    ask = Asked("n")
    run_args = argparse.Namespace(config=None, backend=None, keys=None, game_length=61)
    assert start_new(journal, run_args, ask) is False
    assert "--game-length 61 (the open game: game length 121 points)" in ask.questions[0]
    assert given_fields(run_args) == {"game_length"}


def test_game_length_reaches_the_settings_and_the_fields_given():
    assert settings_from(args(game_length=61)).new_game().rules.game_length == 61
    assert given_fields(args(game_length=61)) == {"game_length"}


def test_three_players_with_five_card_as_the_last_rules_is_refused_before_asking(tmp_path):
    db = journal_with(tmp_path, TableSettings(rules="five-card", table=TABLE))
    given = args(players="3")
    with pytest.raises(ConfigError) as refused:
        check_setup(db, settings_from(given), given_fields(given))
    message = str(refused.value)
    assert message.startswith("--players 3: the table's rules are five-card, which are for 2 players")
    assert "add --rules acc" in message and "hoyle" in message


@pytest.mark.parametrize("given, message", [
    ({"players": "3", "rules": "five-card"}, "--players 3 --rules five-card: five-card cribbage is for 2 players"),
    ({"rules": "five-card", "game_length": 121}, "--game-length 121: five-card cribbage is played to 61"),
])
def test_five_card_asked_for_with_what_it_cannot_have_is_refused(tmp_path, given, message):
    with pytest.raises(ConfigError, match=message):
        check_setup(tmp_path / "none.db", settings_from(args(**given)), given_fields(args(**given)))


def test_a_length_against_the_tables_five_card_rules_says_so(tmp_path):
    db = journal_with(tmp_path, TableSettings(rules="five-card", table=TABLE))
    given = args(game_length=121)
    with pytest.raises(ConfigError, match="--game-length 121: the table's rules are five-card, and five-card"):
        check_setup(db, settings_from(given), given_fields(given))


def test_a_setup_that_can_start_passes_and_the_journal_is_unchanged(tmp_path):
    db = journal_with(tmp_path, TableSettings(rules="five-card", table=TABLE))
    before = db.read_bytes()
    for given in (args(players="3", rules="acc"), args(game_length=61), args()):
        check_setup(db, settings_from(given), given_fields(given))
    assert db.read_bytes() == before


def test_a_name_given_twice_is_refused_naming_names():
    with pytest.raises(ConfigError) as refused:
        player_names("Ann,Ann", 2)
    assert str(refused.value) == "--names 'Ann,Ann': player names must be distinct; 'Ann' is given twice"


def test_names_without_players_are_counted_against_the_tables_players(tmp_path):
    """A second review: ``--names Ann,Bob,Cy`` at a 3-player table was refused as "3 names for
    2 players" (the default), and ``--names Ann,Bob`` there asked first, then failed."""
    db = journal_with(tmp_path, TableSettings(players=3, table=TABLE))
    three = args(names="Ann,Bob,Cy")
    check_setup(db, settings_from(three), given_fields(three), three.names)  # no error: 3 names, 3 seats
    asked = Asked("n")
    assert start_new(db, three, asked) is False and "Ann" in asked.questions[0]
    two = args(names="Ann,Bob")
    with pytest.raises(ConfigError, match=r"^--names 'Ann,Bob' gives 2 names for 3 players at the table; "
                                          r".*or --players 2$"):
        check_setup(db, settings_from(two), given_fields(two), two.names)
    with pytest.raises(ConfigError, match=r"^--names 'Ann,Bob' gives 2 names for 3 players; "):
        settings_from(args(names="Ann,Bob", players="3"))  # with --players, at once
