"""The menus behind MENU (main, next game set-up, confirming questions, the judge's penalty)
and the settings they step through."""

import doctest
import random

import pytest
from table_keys import card, dismiss, mock_table, pick, press, starter

import cribpi.app.settings
from cribpi.app import TableSettings, TableUI
from cribpi.app.menus import PENALTY_POINTS, Menu, PenaltyDraft
from cribpi.app.review import review_screen
from cribpi.app.settings import (
    muggins_on, next_brightness, next_match, next_players, next_rules, settings_of, toggle_muggins,
)
from cribpi.game import Mode, Phase
from cribpi.rules import MugginsScope
from cribpi.hal import Action
from cribpi.views.model import AlertScreen, MenuScreen


def test_menu_changes_mode_and_starts_a_new_game(table):
    parts, ui, app = table
    press(parts, app, "menu")
    assert isinstance(ui.screen(), MenuScreen)
    pick(parts, app, ui, "Next game setup")
    assert ui.screen().title == "Next game"
    press(parts, app, "ok")  # "Mode: count" is first
    assert ui.settings.mode is Mode.CLAIM
    press(parts, app, "go")
    press(parts, app, "ok")  # players 3
    assert ui.settings.players == 3
    assert ui.state.mode is Mode.COUNT  # the game in progress keeps its own
    pick(parts, app, ui, "Start it now")
    assert ui.screen().title == "Abandon this game?" and ui.menu.selected == 0
    press(parts, app, "go")
    press(parts, app, "ok")  # yes
    assert ui.menu is None and ui.state.mode is Mode.CLAIM and ui.state.seats == 3


def test_the_judges_penalty_from_the_menu(table):
    parts, ui, app = table
    starter(parts, ui, app, "KS")
    press(parts, app, "menu")
    labels = ui.screen().items
    ui.menu.selected = labels.index("Penalty...")
    press(parts, app, "ok")
    assert ui.screen().title == "Judge's penalty"
    press(parts, app, "go")  # to "Points"
    press(parts, app, "ok")  # 2 -> 4
    assert "Points: +4" in ui.screen().items
    press(parts, app, "go")
    press(parts, app, "go")  # "Peg the penalty"
    press(parts, app, "ok")
    assert ui.state.scores[0] == 4 and ui.menu is None
    assert isinstance(ui.screen(), AlertScreen) and "renege" in " ".join(ui.screen().lines)


def offered(ui):
    """Whether the main menu offers a misdeal and a penalty now."""
    ui.handle(Action.parse("menu"))
    items = ui.screen().items
    ui.handle(Action.parse("menu"))
    return "Misdeal..." in items, "Penalty..." in items


def test_the_menu_offers_a_misdeal_and_a_penalty_only_when_the_table_can_take_them(table):
    parts, ui, app = table
    assert offered(ui) == (False, False)  # before the cut there is no deal
    press(parts, app, "ok")
    dismiss(parts, ui, app)
    assert offered(ui) == (True, True)
    card(parts, app, "KS")
    assert offered(ui) == (True, True)
    card(parts, app, "5C")
    assert offered(ui) == (False, True)  # a card is laid: too late for a misdeal
    board = TableUI(TableSettings(mode=Mode.BOARD), rng=random.Random(1))
    board.handle(Action.parse("ok"))  # the cut
    board.screens.clear()
    board.handle(Action.peg(0, 121))
    board.handle(Action.parse("ok"))
    assert board.state.phase is Phase.MATCH_OVER and offered(board) == (False, False)


def test_menu_sets_a_best_of_three_match(table):
    parts, ui, app = table
    press(parts, app, "menu")
    pick(parts, app, ui, "Next game setup")
    pick(parts, app, ui, "Match")
    assert ui.settings.match_games == 3 and "Match: best of 3" in ui.screen().items
    ui.new_game()
    assert ui.state.match_games == 3


def test_one_ok_starts_the_next_game_of_the_match_then_a_new_match():
    with mock_table(TableSettings(names=("Ann", "Bob"), mode=Mode.BOARD, match_games=3), seed=5) as (parts, ui, app):

        def peg(seat, points):
            ui.handle(Action.peg(seat, points))
            ui.handle(Action.parse("ok"))

        ui.handle(Action.parse("ok"))  # cut
        ui.screens.clear()
        for game in range(2):
            peg(0, 100)
            peg(0, 21)
            assert ui.screens == []  # nothing to page through
            over = ui.screen()
            assert over.title == "GAME!" or game == 1
            assert "Ann wins" in over.lines[0] and over.lines[-1] == ("OK: next game" if game == 0 else "OK: new match")
            assert ui.board().winner_track == 0
            ui.handle(Action.peg(1, 5))  # the board is locked: refused, and nothing is left to confirm
            assert ui.screen().title == "Not allowed" and ui.tally is None
            ui.screens.clear()
            if game == 0:
                ui.handle(Action.parse("ok"))  # one press: the next game
                assert ui.state.phase is Phase.BOARD and ui.state.winner is None and len(ui.state.games) == 1
        assert ui.state.phase is Phase.MATCH_OVER
        assert ui.screen().title == "MATCH!" and ui.screen().lines[0].startswith("Ann wins 121-")
        assert "games 2-0, points 6-0" in ui.screen().lines  # the last game's result, then the match's
        ui.handle(Action.parse("ok"))  # one press: a new match with the same set-up
        assert ui.state.phase is Phase.CUT and ui.state.games == () and ui.state.match_games == 3


def test_muggins_is_switched_on_from_the_menu_under_every_preset(table):
    parts, ui, app = table
    assert ui.state.rules.muggins is MugginsScope.OFF  # the acc preset plays without it
    press(parts, app, "menu")
    pick(parts, app, ui, "Next game setup")
    pick(parts, app, ui, "Muggins")
    assert "Muggins: on" in ui.screen().items
    pick(parts, app, ui, "Start it now")
    press(parts, app, "go")
    press(parts, app, "ok")  # yes: a new game
    assert ui.state.rules.muggins is MugginsScope.ACC and ui.state.rules.name == "acc"
    assert settings_of(ui.state, TableSettings()).muggins is True  # a resumed game keeps it for the next


def test_choosing_a_preset_brings_its_own_muggins():
    off = toggle_muggins(TableSettings(rules="hoyle"))  # switched on under hoyle...
    assert muggins_on(off)
    assert next_rules(off).rules == "leaflet" and not muggins_on(next_rules(off))  # ...the next preset's own
    assert muggins_on(TableSettings(rules="acc-tournament"))


@pytest.mark.parametrize("preset", ["acc", "hoyle", "leaflet", "acc-tournament", "five-card"])
def test_muggins_on_keeps_a_preset_s_own_scope_and_off_switches_it_off(preset):
    settings = TableSettings(rules=preset)
    own = settings.new_game().rules.muggins
    switched = toggle_muggins(settings).new_game().rules.muggins
    if own is MugginsScope.OFF:
        assert switched is MugginsScope.ACC  # ACC Rule 10: the play, hands and crib
    else:
        assert switched is MugginsScope.OFF
        assert toggle_muggins(toggle_muggins(settings)).new_game().rules.muggins is own


@pytest.mark.parametrize("submenu", ["Next game setup", "Penalty...", "New game..."])
def test_menu_closes_any_menu_at_once(table, submenu):
    """The simulator's Esc sends MENU while a menu is open: a submenu or a question closes too."""
    parts, ui, app = table
    press(parts, app, "ok")  # the cut: a penalty can be pegged from the deal on
    dismiss(parts, ui, app)
    press(parts, app, "menu")
    pick(parts, app, ui, submenu)
    assert ui.menu is not None and ui.menu.title != "Menu"
    press(parts, app, "menu")
    assert ui.menu is None and not isinstance(ui.screen(), MenuScreen)


def test_menu_keys_move_round_and_other_keys_do_nothing(table):
    parts, ui, app = table
    press(parts, app, "menu")
    items = len(ui.screen().items)
    press(parts, app, "undo")
    assert ui.menu.selected == items - 1  # UNDO from the top goes round to the bottom
    before = ui.state
    card(parts, app, "5H")
    assert ui.state is before and isinstance(ui.screen(), MenuScreen)
    press(parts, app, "menu")
    assert ui.menu is None


def test_a_rebuilt_menu_keeps_its_place_within_its_items():
    labels = ["a", "b", "c"]
    menu = Menu(lambda: [(label, lambda: None) for label in labels], selected=2)
    labels.pop()  # one item fewer when the menu is built again
    assert menu.rebuilt().selected == 1 and menu.rebuilt().screen().items == ("a", "b")


def test_the_penalty_draft_steps_round_each_choice():
    draft = PenaltyDraft()
    assert draft.next_seat(2).next_seat(2).seat == 0
    points = draft
    for _ in PENALTY_POINTS:
        points = points.next_points()
    assert points.points == draft.points
    assert draft.next_reason().event().reason == "exposed card"


def test_brightness_steps_from_the_nearest_step():
    assert next_brightness(TableSettings(brightness=0.3)).brightness == 0.5
    assert next_brightness(TableSettings(brightness=1.0)).brightness == 0.1


def test_five_card_rules_only_with_two_players():
    two = TableSettings(rules="five-card")
    assert next_players(two).rules == "acc" and next_players(two).players == 3
    three = TableSettings(players=3, rules="leaflet")
    assert next_rules(three).rules == "acc"  # round past five-card


def test_a_match_length_the_menu_does_not_offer_goes_back_to_one():
    assert next_match(TableSettings(match_games=9)).match_games == 1
    assert next_match(TableSettings(match_games=7)).match_games == 1


def test_the_review_of_a_discard_not_entered_says_so():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    ui.handle(Action.parse("ok"))
    assert review_screen(ui.state, 0).title == "Review" and "off" in review_screen(ui.state, 0).lines[0]


def test_settings_doctests():
    result = doctest.testmod(cribpi.app.settings, report=True, verbose=False)
    assert result.failed == 0 and result.attempted > 0
