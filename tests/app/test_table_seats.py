"""Whose card it is: the turn on every play screen, a renege told with what ACC rule 7.3
allows (its penalty ready in the menu), and a card moved to the seat that laid it."""

from __future__ import annotations

import random
from typing import Any

from cribpi.app import TableSettings, TableUI
from cribpi.game import Phase
from cribpi.hal import Action
from cribpi.views.model import AlertScreen, PlayScreen, PromptScreen


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


def test_a_go_said_holding_a_card_that_fitted_is_a_renege_with_its_penalty_ready():
    ui = table()
    keys(ui, "2S", "TC", "KD", "QC", "go", "go")  # 30: Bob says go, Ann too: one for the go to Ann
    assert ui.state.scores == (1, 0)
    keys(ui, "AD")  # Bob leads the next count with an ace he held at 30
    alert = next(s for s in ui.screens if isinstance(s, AlertScreen) and s.title == "Renege")
    text = " ".join(alert.lines)
    assert "Bob said go at 30 holding AD" in text and "ACC rule 7.3" in text and "Ann may claim it" in text
    keys(ui, "menu")
    ui.menus.current.selected = ui.screen().items.index("Penalty...")
    ui.handle(Action.parse("ok"))
    assert ui.screen().items[:3] == ("Pegs: Ann", "Points: +2", "For: renege")
    ui.menus.current.selected = ui.screen().items.index("Peg the penalty")
    ui.handle(Action.parse("ok"))
    assert ui.state.scores == (3, 0)
    assert ui.state.phase is Phase.PLAY
