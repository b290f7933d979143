"""The next game's set-up chosen in the menu is kept in the journal as it is chosen: a restart
(the journal opened again, nothing closed first) shows it in the menu and starts the next game
with it; a kept choice this cribpi cannot use is logged in one line and the table starts."""

from __future__ import annotations

import json
import logging
import sqlite3

import pytest

from cribpi.app import TableSettings, TableUI
from cribpi.app.opening import open_table
from cribpi.app.settings import MAIN_TABLE, kept_data
from cribpi.exc import JournalFull
from cribpi.game import Mode
from cribpi.views.model import AlertScreen
from setup_menu import SETTINGS, choose, opened, press, setup_menu


def choose_setup(ui: TableUI) -> None:
    """Claim mode, three players, the next preset after ACC's, best of 3, muggins switched
    off, then the brightness: every kind of choice the menu makes."""
    setup_menu(ui)
    for item in ("Mode", "Players", "Rules", "Match", "Muggins"):
        choose(ui, item)
    choose(ui, "Back")
    choose(ui, "Brightness")
    ui.menus.close()


def test_a_setup_chosen_and_not_started_is_in_the_menu_after_a_restart(tmp_path):
    db = tmp_path / "cribpi.db"
    store, ui = opened(db)
    game_id, game_state = ui.session.game_id, ui.state
    choose_setup(ui)
    chosen = ui.settings
    assert (chosen.mode, chosen.players, chosen.match_games, chosen.brightness) == (Mode.CLAIM, 3, 3, 0.75)
    menu = setup_menu(ui)
    store.close()  # a real process killed with SIGKILL: tests/daemon/test_setup_after_kill.py
    store2, again = opened(db)
    try:
        assert again.session.game_id == game_id and again.state == game_state  # the open game as it was
        assert again.settings == chosen and setup_menu(again) == menu
        assert again.board().brightness == 0.75
        choose(again, "Start it now")
        choose(again, "Yes: new game")
        state = again.state
        assert again.session.game_id != game_id
        assert (state.mode, state.seats, state.rules.name, state.match_games) == (
            Mode.CLAIM, 3, chosen.rules, 3)
        assert state.rules.muggins.value == "off"
    finally:
        store2.close()


def test_a_game_started_with_options_from_the_command_line_is_the_setup_kept_after_it(tmp_path):
    db = tmp_path / "cribpi.db"
    store, ui = opened(db)
    choose_setup(ui)  # the menu chose claim mode ...
    store.close()
    store, ui = opened(db, TableSettings(table=MAIN_TABLE, mode=Mode.BOARD), new=True, given={"mode"})
    assert ui.state.mode is Mode.BOARD and ui.state.seats == 3  # ... the command line board mode
    store.close()
    store, ui = opened(db)
    try:
        assert ui.state.mode is Mode.BOARD and ui.settings.mode is Mode.BOARD  # the game started last wins
        assert ui.settings.players == 3 and ui.settings.brightness == 0.75
    finally:
        store.close()


def keep_raw(db, data: dict) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM table_settings")
        conn.execute("INSERT INTO table_settings VALUES (?, json(?), '2026-01-01T00:00:00Z')",
                     (MAIN_TABLE, json.dumps(data)))


def test_an_unknown_preset_kept_by_another_version_falls_back_in_one_logged_line(tmp_path, caplog):
    db = tmp_path / "cribpi.db"
    store, ui = opened(db)
    store.close()
    keep_raw(db, {**kept_data(SETTINGS), "rules": "tournament-2019", "mode": "claim", "future_option": 1})
    with caplog.at_level(logging.WARNING):
        store, ui = opened(db)
    try:
        lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(lines) == 1 and "rules 'tournament-2019' is not one of acc" in lines[0], lines
        assert ui.settings.rules == SETTINGS.rules and ui.settings.mode is Mode.CLAIM  # the rest is used
        assert "Rules: acc" in setup_menu(ui)
    finally:
        store.close()


@pytest.mark.parametrize("data", [
    {"players": "three", "brightness": 7, "review": "yes", "match_games": 4},
    {"players": 3, "rules": "five-card"},  # two-handed rules with three players
    {"players": 3, "partnerships": True},
])
def test_stale_or_bad_choices_never_stop_the_table(tmp_path, caplog, data):
    db = tmp_path / "cribpi.db"
    store, ui = opened(db)
    store.close()
    keep_raw(db, data)
    with caplog.at_level(logging.WARNING):
        store, ui = opened(db)
    try:
        lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(lines) == 1 and lines[0].startswith(f"table {MAIN_TABLE}: settings kept from before not used")
        setup_menu(ui)
        choose(ui, "Start it now")
        choose(ui, "Yes: new game")  # the next game starts with what could be used
        assert ui.state.seats in (2, 3) and ui.state.rules.players == ui.state.seats
    finally:
        store.close()


def test_a_choice_the_journal_cannot_keep_is_refused_and_changes_nothing():
    class FullJournal:
        def table_settings(self, table):
            return None

        def keep_table_settings(self, table, data):
            raise JournalFull("disk full: could not keep the settings of table main (j.db): free some space")

    ui = open_table(None, SETTINGS, keeper=FullJournal())
    before = ui.settings
    setup_menu(ui)
    choose(ui, "Mode")
    assert ui.settings == before and ui.menu is None
    screen = ui.screen()
    assert isinstance(screen, AlertScreen) and screen.lines[0].startswith("disk full: could not keep the settings")


def test_a_brightness_nobody_chose_follows_the_configuration_and_a_chosen_one_stays(tmp_path):
    db = tmp_path / "cribpi.db"
    store, ui = opened(db)  # configured 0.5; the game started is kept, its brightness is not chosen
    store.close()
    store, ui = opened(db, TableSettings(table=MAIN_TABLE, brightness=0.25))  # the configuration changed
    assert ui.settings.brightness == 0.25
    press(ui, "menu")
    choose(ui, "Brightness")  # 0.25 -> 0.5: chosen at the table
    assert ui.settings.brightness == 0.5
    store.close()
    store, ui = opened(db, TableSettings(table=MAIN_TABLE, brightness=0.1))
    try:
        assert ui.settings.brightness == 0.5 and ui.board().brightness == 0.5
    finally:
        store.close()
