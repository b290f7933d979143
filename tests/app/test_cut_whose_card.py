"""The cut for the deal says whose card is keyed next, and a tie on a three-handed cut says that
every seat cuts again (the game takes a card per seat again, not only the tied players')."""

import random

from cribpi.app import TableSettings, TableUI
from cribpi.game import Mode, Phase
from cribpi.hal import Action
from cribpi.views.model import AlertScreen
from cribpi.views.text import screen_text


def table(**settings) -> TableUI:
    return TableUI(TableSettings(**settings), rng=random.Random(1))


def words(ui: TableUI) -> str:
    return screen_text(ui.screen())


def test_the_cut_names_the_first_seat_then_each_next_one():
    ui = table(players=3)
    names = ui.state.names
    assert f"{names[0]}'s first" in words(ui)
    ui.handle(Action.of_card("3C"))
    assert f"{names[1]}'s card next" in words(ui)
    ui.handle(Action.rank_key("9"))  # a rank waiting for its suit is not a card yet
    assert f"{names[1]}'s card next" in words(ui)
    ui.handle(Action.suit_key("D"))
    assert f"{names[2]}'s card next" in words(ui)
    ui.handle(Action.parse("undo"))
    assert f"{names[1]}'s card next" in words(ui)


def test_a_three_handed_tie_says_every_seat_cuts_again_from_the_first():
    ui = table(players=3)
    names = ui.state.names
    for text in ("3C", "3D", "9D"):
        ui.handle(Action.of_card(text))
    screen = ui.screen()
    assert isinstance(screen, AlertScreen) and screen.title == "Cut again"
    assert screen.lines[-1] == f"all 3 cut again, {names[0]} first"
    ui.screens.clear()
    assert ui.state.phase is Phase.CUT and f"{names[0]}'s first" in words(ui)


def test_a_two_handed_tie_needs_no_more_words():
    ui = table()
    for text in ("3C", "3D"):
        ui.handle(Action.of_card(text))
    assert len(ui.screen().lines) == 1


def test_board_mode_shows_the_cut_with_the_same_words():
    ui = table(players=3, mode=Mode.BOARD)
    for text in ("3C", "3D", "9D"):
        ui.handle(Action.of_card(text))
    assert ui.screen().lines[-1] == f"all 3 cut again, {ui.state.names[0]} first"
