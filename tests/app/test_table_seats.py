"""Whose card it is: the turn on every play screen, a renege told with what ACC rule 7.3
allows (its penalty ready in the menu), and a card moved to the seat that laid it."""

from __future__ import annotations

import random
from typing import Any

from cribpi.app import TableSettings, TableUI
from cribpi.game import Phase
from cribpi.hal import Action
from cribpi.views.model import AlertScreen, PlayScreen, PromptScreen
from cribpi.views.oled import pages


def table(**settings: Any) -> TableUI:
    """Ann and Bob after the cut; Ann is the pone (she leads)."""
    ui = TableUI(TableSettings(names=("Ann", "Bob"), **settings), rng=random.Random(1))
    ui.handle(Action.of_card("KC"))  # Ann cuts a king,
    ui.handle(Action.of_card("3D"))  # Bob a three: Bob deals
    ui.screens.clear()
    assert ui.state.deal is not None and ui.state.deal.dealer == 1
    return ui


def keys(ui: TableUI, *words: str) -> None:
    """Cards (``5H``), ``go`` and ``ok``, each as one action; every screen queued is paged away
    except after the last."""
    for word in words:
        ui.screens.clear()
        ui.handle(Action.parse(word) if word in ("go", "ok", "menu", "undo") else Action.of_card(word))


def test_the_turn_is_on_every_play_screen_and_a_card_keyed_names_its_seat():
    ui = table()
    keys(ui, "2S", "TC")
    assert isinstance(ui.screen(), PlayScreen) and ui.screen().turn == "Bob"
    ui.handle(Action.parse("rank 5"))
    assert ui.screen() == PromptScreen("Bob lays", "5_", "count 10")


def test_a_go_said_holding_a_card_that_fitted_is_a_renege_menu_opens_on_its_claim():
    ui = table()
    keys(ui, "2S", "TC", "KD", "QC", "go", "go")  # 30: Bob says go, Ann too: one for the go to Ann
    assert ui.state.scores == (1, 0)
    keys(ui, "AD")  # Bob leads the next count with an ace he held at 30
    alert = next(s for s in ui.screens if isinstance(s, AlertScreen) and s.title == "Renege")
    assert alert.lines == ("Bob said go at 30 holding AD, which fitted", "ACC 7.3: Ann may claim 2 a card",
                           "MENU: Renege, play back")
    assert pages(alert) == 1  # one OK reads it
    keys(ui, "menu")
    assert ui.screen().items[ui.screen().selected] == "Renege by Bob"  # MENU opens ready to claim it
    ui.handle(Action.parse("ok"))
    assert ui.state.scores == (2, 0)  # Ann's 1 for the go is cancelled; she pegs 2 for the renege card
    assert ui.state.deal.running == 30 and ui.state.deal.turn == 1  # back to Bob's go: Bob plays on
    claimed = ui.screen()
    assert isinstance(claimed, AlertScreen) and claimed.title == "Renege claimed"
    assert claimed.lines[:2] == ("Play back to Bob's go at 30", "AD back to the hands")
    assert "Bob to play" in claimed.lines
    keys(ui, "AD")  # Bob lays the ace at 30 now: 31
    assert ui.state.scores == (2, 2) and ui.state.phase is Phase.PLAY


def test_where_the_turn_could_pass_a_keyed_card_offers_go_and_go_hands_the_card_on():
    ui = table()
    keys(ui, "2S", "TC", "QD", "2C")  # 22: Bob may be unable to lay
    ui.handle(Action.parse("rank 9"))
    assert ui.screen() == PromptScreen("Bob lays", "9_", "count 22, GO if Bob said go")
    ui.handle(Action.parse("go"))  # Bob said go: the 9 keyed is Ann's
    assert ui.screen().prompt == "Ann lays" and ui.entry.rank is not None
    ui.handle(Action.parse("suit H"))
    assert ui.state.deal.cards_of(0)[-1].rank.symbol == "9" and ui.state.scores == (2, 0)


def test_a_card_is_moved_to_the_seat_that_laid_it_from_the_menu_and_undo_takes_it_back():
    ui = table()
    keys(ui, "2S", "TC", "QD", "2C", "9H")  # nobody entered Bob's go: the 31 went to Bob
    assert ui.state.scores == (0, 2)
    keys(ui, "menu")
    ui.menus.current.selected = ui.screen().items.index("Move a card...")
    ui.handle(Action.parse("ok"))
    assert ui.screen().title == "Whose card was it?" and ui.screen().items[0] == "9H Bob -> Ann"
    ui.handle(Action.parse("ok"))
    assert ui.menu is None and ui.state.scores == (2, 0)
    moved = ui.screens[0]
    assert moved.title == "Card moved" and "9H moved from Bob to Ann" in moved.lines[0]
    keys(ui, "undo")
    assert ui.state.scores == (0, 2) and "took back: 9H moved to Ann" in ui.screen().lines[0]


def test_only_the_moves_the_play_can_have_had_are_listed():
    ui = table()
    keys(ui, "2S", "TC", "QD")
    keys(ui, "menu")
    ui.menus.current.selected = ui.screen().items.index("Move a card...")
    ui.handle(Action.parse("ok"))  # QD Bob -> Ann: at 10 Bob could not have said go; nor can TC be Bob's lead
    assert ui.screen().items == ("No card can move", "Back")
    keys(ui, "menu")  # closes it
    keys(ui, "2C", "9H")  # the 9H went to Bob, whose turn it was: his 31
    keys(ui, "menu")
    ui.menus.current.selected = ui.screen().items.index("Move a card...")
    ui.handle(Action.parse("ok"))
    assert ui.screen().items == ("9H Bob -> Ann", "Back")  # Bob may have said go at 22: 9H was Ann's
    assert ui.state.scores == (0, 2)


def test_back_in_whose_card_was_it_closes_it_onto_the_menu_item_that_opened_it():
    """"Back" in the "Whose card was it?" submenu closes the submenu: the main menu again, on
    "Move a card..." (it opened the main menu afresh, on its first item)."""
    ui = table()
    keys(ui, "2S", "TC", "QD", "2C", "9H")
    keys(ui, "menu")
    opened = ui.screen().items.index("Move a card...")
    ui.menus.current.selected = opened
    ui.handle(Action.parse("ok"))
    assert ui.screen().title == "Whose card was it?"
    ui.menus.current.selected = ui.screen().items.index("Back")
    ui.handle(Action.parse("ok"))
    assert ui.screen().title == "Menu" and ui.screen().selected == opened > 0
    assert ui.screen().items[ui.screen().selected] == "Move a card..."
    assert ui.state.scores == (0, 2)  # nothing moved
