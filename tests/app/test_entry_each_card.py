"""Each card keyed towards a crib, a discard or the rest of a hand is checked as it is keyed: a
card already seen this deal is refused at once, naming that card, and nothing changes (the
cards keyed before it stay; UNDO then takes back the last good one)."""

import random

from table_keys import card, mock_table, press

from cribpi.app import TableSettings, TableUI
from cribpi.game import Phase
from cribpi.hal import Action
from cribpi.views.model import AlertScreen

PLAY = ("4H", "5D", "6H", "6C", "5H", "4C", "go", "go", "TC", "JS")  # the reviewer's deal, starter 5S


def key(ui: TableUI, *inputs: str) -> None:
    for text in inputs:
        ui.handle(Action.parse(text) if text in ("go", "ok", "undo") else Action.of_card(text))


def to_the_crib(settings: TableSettings | None = None) -> TableUI:
    """Cut 3C 9D (Red deals), starter 5S, the play: the crib is wanted next."""
    ui = TableUI(settings or TableSettings(), rng=random.Random(1))
    key(ui, "3C", "9D", "5S", *PLAY)
    ui.screens.clear()
    assert ui.state.phase is Phase.SHOW
    return ui


def refused(ui: TableUI) -> str:
    screen = ui.screen()
    assert isinstance(screen, AlertScreen) and screen.title == "Not allowed", screen
    return screen.lines[0]


def keyed(ui: TableUI) -> list[str]:
    return [str(c) for c in ui.entry.cards]


def test_the_starter_keyed_as_the_first_crib_card_is_refused_at_once():
    ui = to_the_crib()
    key(ui, "5S")
    assert refused(ui) == "5S has already been seen this deal: the crib must be cards not yet shown"
    assert keyed(ui) == []


def test_a_card_laid_in_the_play_is_refused_as_it_is_keyed_and_the_others_stay():
    ui = to_the_crib()
    key(ui, "7C", "8H")
    before = ui.state
    key(ui, "4H")  # laid by Blue in the play
    assert refused(ui).startswith("4H has already been seen this deal")
    assert keyed(ui) == ["7C", "8H"] and ui.state is before


def test_the_reviewers_keys_leave_only_the_good_card_and_the_crib_goes_on_from_it():
    ui = to_the_crib()
    for text in ("5S", "4H", "6H", "TC"):  # the starter, then three cards laid in the play
        key(ui, text)
        assert refused(ui).startswith(f"{text} has already been seen this deal")
    key(ui, "9C")
    assert keyed(ui) == ["9C"]
    key(ui, "7C", "8H", "undo")  # UNDO takes back the last card keyed, a good one
    assert keyed(ui) == ["9C", "7C"]
    key(ui, "8H", "7D")
    assert ui.state.phase is Phase.DONE
    assert sorted(map(str, ui.state.deal.crib)) == ["7C", "7D", "8H", "9C"]


def test_a_review_discard_of_a_card_laid_is_refused_at_once():
    ui = to_the_crib(TableSettings(review=True))
    assert ui.entry.hint() == "Blue's discard"
    key(ui, "JS")  # Red laid it
    assert refused(ui).startswith("JS has already been seen this deal: the discard")
    assert keyed(ui) == []
    key(ui, "7C", "8H")
    assert ui.state.deal.discards[1] is not None and ui.entry.hint() == "Red's discard"


def test_the_rest_of_a_five_card_hand_is_checked_card_by_card():
    with mock_table(TableSettings(rules="five-card")) as (parts, ui, app):
        for text in ("3C", "9D", "5S"):  # Red cuts low and deals; starter 5S
            card(parts, app, text)
        ui.screens.clear()
        for text in ("TH", "QD", "2C"):  # count 22: Red says go, then Blue, and five-card's play stops
            card(parts, app, text)
        press(parts, app, "go")
        press(parts, app, "go")
        ui.screens.clear()
        assert ui.state.phase is Phase.SHOW and ui.screen().prompt == "Hand cards"
        card(parts, app, "KC")  # the rest of Blue's hand (it laid two of its three)
        ui.screens.clear()
        card(parts, app, "TH")  # Blue laid it: refused as the first of Red's two
        assert refused(ui).startswith("TH has already been seen this deal: the hand")
        assert keyed(ui) == []
        card(parts, app, "7S")
        card(parts, app, "8S")
        assert ui.state.deal.declared[0] is not None
