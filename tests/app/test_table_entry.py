"""Card entry at the table: a rank key then a suit key make a card; cards for a cut, a crib or
a hand are collected until there are enough; with the review on, each discard on its own."""

import random

from table_keys import card, deal_to_the_show, mock_table, press

from cribpi.app import TableSettings, TableUI
from cribpi.app.entry import crib_step
from cribpi.game import Crib, Phase
from cribpi.hal import Action
from cribpi.views.model import AlertScreen


def test_a_refused_crib_card_keeps_the_cards_already_entered(table):
    parts, ui, app = table
    deal_to_the_show(parts, ui, app)
    for text in ("7C", "8H", "7D"):
        card(parts, app, text)
    card(parts, app, "QH")  # laid in the play: refused
    assert isinstance(ui.screen(), AlertScreen)
    assert [str(c) for c in ui.entry.cards] == ["7C", "8H", "7D"]
    card(parts, app, "8S")
    assert ui.state.phase is Phase.DONE


def test_with_the_review_on_each_discard_is_entered_and_reviewed(table):
    parts, ui, app = table
    ui.settings = TableSettings(names=("Ann", "Bob"), review=True)
    ui.new_game()
    deal_to_the_show(parts, ui, app)
    first = ui.state.names[(ui.state.deal.dealer + 1) % 2]
    assert ui.screen().hint == f"{first}'s discard"
    for text in ("7C", "8H", "7D", "8S"):
        card(parts, app, text)
    assert ui.state.phase is Phase.DONE and ui.state.deal.crib and all(ui.state.deal.discards)
    press(parts, app, "menu")
    labels = list(ui.screen().items)
    review = [i for i, label in enumerate(labels) if label.startswith("Review ")]
    assert len(review) == 2
    ui.menu.selected = review[0]
    press(parts, app, "ok")
    assert ui.screen().title.endswith("review") and "Best" in " ".join(ui.screen().lines)


def test_undoing_the_crib_that_the_discards_made_then_ok_counts_it_again():
    ui = TableUI(TableSettings(review=True), rng=random.Random(1))
    ui.handle(Action.parse("ok"))
    ui.screens.clear()
    for text in ("6S", "QH", "5C", "TD", "6D", "2C", "4H", "4S", "4D", "7C", "8H", "7D", "8S"):
        ui.handle(Action.of_card(text))
    assert ui.state.phase is Phase.DONE
    ui.screens.clear()
    ui.handle(Action.parse("undo"))  # takes back the crib
    assert ui.state.phase is Phase.SHOW
    ui.screens.clear()
    ui.handle(Action.of_card("AS"))
    assert "press OK" in " ".join(ui.screen().lines)
    ui.screens.clear()
    ui.handle(Action.parse("ok"))
    assert ui.state.phase is Phase.DONE


def test_half_keyed_cards_never_carry_into_the_next_event():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    ui.handle(Action.of_card("KH"))  # a cut card...
    ui.handle(Action.parse("ok"))  # ...then a random cut after all
    ui.screens.clear()
    assert ui.entry.cards == [] and ui.state.phase is Phase.STARTER


def test_the_keyed_cards_show_and_undo_takes_back_the_rank_first():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    ui.handle(Action.of_card("7C"))  # the first of two cards cut for the deal
    ui.handle(Action.parse("rank 5"))
    assert ui.entry.text() == "7C 5_"
    ui.handle(Action.parse("undo"))
    assert ui.entry.text() == "7C"
    ui.handle(Action.parse("undo"))
    assert ui.entry.text() == "" and ui.entry.cards == []


def test_the_same_card_twice_is_refused_and_the_first_stays():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    ui.handle(Action.of_card("7C"))
    ui.handle(Action.of_card("7C"))
    assert "already entered" in " ".join(ui.screen().lines)
    assert [str(c) for c in ui.entry.cards] == ["7C"]


def test_a_suit_without_a_rank_asks_for_the_rank_first():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    ui.handle(Action.parse("suit H"))
    assert "rank key first" in " ".join(ui.screen().lines)


def test_without_the_review_the_crib_is_entered_at_once():
    with mock_table() as (parts, ui, app):
        deal_to_the_show(parts, ui, app)
        step = crib_step(ui.state)
        assert (step.label, step.needed, step.make) == ("Crib cards", 4, Crib)
        assert ui.entry.hint() == ""
