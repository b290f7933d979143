"""Muggins switched on (and off) for the game being played, from the table's MENU, on its keys:
MENU, GO down to "Muggins: off -> on", OK, a question saying what changes, GO to yes, OK."""

from __future__ import annotations

import pytest
from table_keys import card, dismiss, mock_table, press

from cribpi.app import TableSettings
from cribpi.exc import RulesError
from cribpi.game import Claim, Lay, Mode, MugginsSet
from cribpi.rules import Card, MugginsScope
from cribpi.views.model import AlertScreen, MenuScreen, MessageScreen


def go_down_to(parts, app, ui, label: str) -> None:
    """GO until ``label`` is selected (the board's keys: no selection set by hand)."""
    for _ in range(len(ui.menu.items)):
        if ui.screen().items[ui.menu.selected] == label:
            return
        press(parts, app, "go")
    raise AssertionError(f"{label!r} is not in the menu: {ui.screen().items}")


def started(parts, ui, app) -> None:
    """The cut (OK: at random), then the starter: the play is under way."""
    press(parts, app, "ok")
    dismiss(parts, ui, app)
    card(parts, app, "2S")
    dismiss(parts, ui, app)


def test_muggins_on_from_the_menu_on_the_keys_then_undone():
    with mock_table(TableSettings(mode=Mode.CLAIM)) as (parts, ui, app):
        started(parts, ui, app)
        assert ui.state.rules.muggins is MugginsScope.OFF
        press(parts, app, "menu")
        go_down_to(parts, app, ui, "Muggins: off -> on")
        press(parts, app, "ok")
        question = ui.screen()
        assert isinstance(question, MenuScreen) and question.title == "Muggins on this game?"
        assert question.selected == 0 and question.items[:2] == ("No, go back", "Yes: muggins on")
        said = " ".join(question.items[2:])
        assert "From the next claim on, an under-claim can be taken by the opponents" in said
        assert all(len(line) <= 24 for line in question.items)  # a row of the OLED each
        press(parts, app, "go")
        press(parts, app, "ok")
        assert ui.state.rules.muggins is MugginsScope.ACC and ui.session.game.events[-1] == MugginsSet(True)
        done = ui.screen()
        assert isinstance(done, MessageScreen) and done.title == "Muggins on"
        dismiss(parts, ui, app)
        press(parts, app, "menu")
        assert "Muggins: on -> off" in ui.screen().items  # the switch says what it does now
        press(parts, app, "menu")
        press(parts, app, "undo")
        assert ui.state.rules.muggins is MugginsScope.OFF
        assert "took back: muggins switched on" in ui.screen().lines


def test_no_goes_back_and_nothing_changes():
    with mock_table(TableSettings(mode=Mode.CLAIM)) as (parts, ui, app):
        started(parts, ui, app)
        events = len(ui.session.game.events)
        press(parts, app, "menu")
        go_down_to(parts, app, ui, "Muggins: off -> on")
        press(parts, app, "ok")
        press(parts, app, "ok")  # "No, go back"
        assert ui.screen().title == "Menu" and len(ui.session.game.events) == events
        assert ui.state.rules.muggins is MugginsScope.OFF


def test_a_claim_made_before_the_switch_is_not_opened_and_one_after_is():
    with mock_table(TableSettings(mode=Mode.CLAIM)) as (parts, ui, app):
        started(parts, ui, app)
        dealer = ui.state.deal.dealer
        pone = 1 - dealer
        ui.handle_event(Lay(pone, Card.parse("5C")))
        ui.handle_event(Lay(dealer, Card.parse("TD")))
        ui.handle_event(Claim(dealer, 1))  # 2 for fifteen, 1 claimed: nobody may take it
        ui.screens.clear()
        ui.handle_event(MugginsSet(True))
        ui.screens.clear()
        with pytest.raises(RulesError, match="nothing is open to muggins"):
            ui.claims.muggins(pone, 1)  # the claim made before is not opened by the switch
        ui.handle_event(Lay(pone, Card.parse("6H")))
        ui.handle_event(Lay(dealer, Card.parse("6S")))  # a pair: 2, 1 claimed
        ui.handle_event(Claim(dealer, 1))
        before = ui.state.scores[pone]
        ui.claims.muggins(pone, 1)
        assert ui.state.scores[pone] == before + 1


def test_the_muggins_key_in_a_claim_game_without_it_says_how_to_switch_it_on():
    with mock_table(TableSettings(mode=Mode.CLAIM)) as (parts, ui, app):
        started(parts, ui, app)
        with pytest.raises(RulesError, match="to play it from the next claim on, MENU, Muggins: off -> on"):
            ui.claims.muggins(0, 1)


@pytest.mark.parametrize(("settings", "label"), [
    (TableSettings(mode=Mode.COUNT), None),
    (TableSettings(mode=Mode.CLAIM, rules="acc-tournament"), "Muggins: on (tournament)"),
])
def test_where_it_cannot_be_switched(settings, label):
    with mock_table(settings) as (parts, ui, app):
        started(parts, ui, app)
        press(parts, app, "menu")
        muggins = [item for item in ui.screen().items if item.startswith("Muggins")]
        assert muggins == ([label] if label else [])
        if label:
            go_down_to(parts, app, ui, label)
            press(parts, app, "ok")
            refusal = ui.screen()
            assert isinstance(refusal, AlertScreen) and "rules fix muggins on for the whole game" in " ".join(refusal.lines)
            assert ui.state.rules.muggins is MugginsScope.ACC


def test_a_switch_journalled_is_there_after_a_restart_and_undone_past_the_snapshot(tmp_path):
    from cribpi.app.session import Session
    from cribpi.game import NewGame, Starter, Undo
    from cribpi.rules import get_rules
    from cribpi.store import Store

    events = [NewGame(("Ann", "Bob"), get_rules("acc"), Mode.CLAIM, first_dealer=1), Starter(Card.parse("2S")),
              MugginsSet(True), Lay(0, Card.parse("5C"))]
    with Store(tmp_path / "j.db", snapshot_every=2) as store:
        session = Session(events[0], store, table="main")
        for event in events[1:]:
            session.apply(event)
    with Store(tmp_path / "j.db") as store:
        resumed = Session.resume(store, "main")
        assert resumed is not None and resumed.state.rules.muggins is MugginsScope.ACC
        resumed.apply(Undo(2))  # the card, then the switch
        assert resumed.state.rules.muggins is MugginsScope.OFF
        assert store.events(resumed.game_id)[2] == MugginsSet(True)
