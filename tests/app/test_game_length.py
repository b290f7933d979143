"""A 61-point game chosen at the table: "Game: 121/61" in Next game setup, kept in the journal
like the other set-up choices, the configuration's length as the table's default, and the LEDs
of a 61 game (its game hole is hole 61)."""

from __future__ import annotations

import random

from cribpi.app import TableSettings, TableUI
from cribpi.app.settings import MAIN_TABLE, game_length_of, next_game_length, next_rules
from cribpi.game import Mode, Phase
from cribpi.views.leds import render_board
from setup_menu import choose, labels, opened, press, setup_menu


def start_it(ui: TableUI) -> None:
    setup_menu(ui)
    choose(ui, "Start it now")
    choose(ui, "Yes: new game")


def test_next_game_setup_offers_121_or_61_and_starts_a_61_game():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    assert "Game: 121" in setup_menu(ui)
    choose(ui, "Game")
    assert "Game: 61" in labels(ui) and ui.settings.game_length == 61
    choose(ui, "Game")
    assert "Game: 121" in labels(ui)
    choose(ui, "Game")
    start_it(ui)
    assert ui.state.rules.game_length == 61 and ui.state.rules.name == "acc"


def test_five_card_is_always_61_and_says_so():
    five = TableSettings(rules="five-card", game_length=121)
    assert game_length_of(five) == 61 and next_game_length(five) == five
    ui = TableUI(five, rng=random.Random(1))
    assert "Game: 61 (five-card)" in setup_menu(ui)
    choose(ui, "Game")
    assert ui.settings == five and ui.state.rules.game_length == 61
    assert game_length_of(next_rules(five)) == 121  # the next preset: the length chosen before


def test_a_61_game_chosen_is_kept_across_a_restart_and_starts_the_next_game(tmp_path):
    db = tmp_path / "cribpi.db"
    store, ui = opened(db)
    setup_menu(ui)
    choose(ui, "Game")  # chosen, not started: kept as it is chosen
    store.close()
    store, ui = opened(db)
    try:
        assert ui.state.rules.game_length == 121  # the open game keeps its own length
        assert "Game: 61" in setup_menu(ui)
        start_it(ui)
        assert ui.state.rules.game_length == 61
    finally:
        store.close()
    store, ui = opened(db)  # the 61 game open: resumed as it was, and the menu says 61 still
    try:
        assert ui.state.rules.game_length == 61 and "Game: 61" in setup_menu(ui)
    finally:
        store.close()


def test_the_configured_length_is_the_default_and_a_length_chosen_at_the_table_wins(tmp_path):
    db = tmp_path / "cribpi.db"
    store, ui = opened(db, TableSettings(table=MAIN_TABLE, game_length=61))  # [game] game_length = 61
    assert ui.state.rules.game_length == 61
    store.close()
    store, ui = opened(db, new=True)  # the configuration says nothing now: nobody chose 61 at the table
    assert ui.state.rules.game_length == 121
    setup_menu(ui)
    choose(ui, "Game")  # chosen at the table: 61
    store.close()
    store, ui = opened(db, TableSettings(table=MAIN_TABLE, game_length=121), new=True)
    try:
        assert ui.state.rules.game_length == 61
    finally:
        store.close()


def test_a_length_given_on_the_command_line_is_kept_for_the_next_game(tmp_path):
    db = tmp_path / "cribpi.db"
    store, ui = opened(db, TableSettings(table=MAIN_TABLE, game_length=61), new=True, given={"game_length"})
    assert ui.state.rules.game_length == 61
    store.close()
    store, ui = opened(db, new=True)  # no option now, the configuration's default 121: the choice stays
    try:
        assert ui.state.rules.game_length == 61
    finally:
        store.close()


def test_a_61_game_is_won_at_hole_61_on_the_leds():
    ui = TableUI(TableSettings(mode=Mode.BOARD, game_length=61, brightness=1.0), rng=random.Random(2))
    press(ui, "ok")  # a random cut for the deal
    while ui.screens:
        press(ui, "ok")
    for _ in range(2):
        press(ui, "peg 0 30", "ok")
    press(ui, "peg 0 5", "ok")
    assert ui.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) and ui.state.scores[0] == 61
    board = ui.board()
    assert board.game_length == 61 and board.winner_track == 0 and board.tracks[0].front == 61
    frame = render_board(board)
    colour = board.tracks[0].colour
    assert frame.hole(0, 61) == colour
    assert all(frame.hole(t, hole) == (0, 0, 0) for t in range(len(frame.tracks)) for hole in range(62, 122))
