"""After "Move a card" the last score is said in the words the rules give it, as a deal laid
that way from the start says it, and UNDO brings back the words of the play as entered."""

from __future__ import annotations

import pytest

from cribpi.app import TableUI
from cribpi.app.session import Session
from cribpi.game import Event, Go, Lay, MoveCard, NewGame, Starter
from cribpi.hal import Action
from cribpi.rules import ACC, Card, parse_cards, score_play
from cribpi.views.model import PlayScreen
from cribpi.views.text import screen_text

C = Card.parse
ANN, BOB = 0, 1  # Bob deals, Ann leads

# (what was entered, the card moved, to whom, the deal as it was really laid, the last card's count)
CASES = {
    "thirty-one": (
        (Lay(ANN, C("TC")), Lay(BOB, C("QD")), Lay(ANN, C("2C")), Lay(BOB, C("9H"))),
        C("9H"), ANN,
        (Lay(ANN, C("TC")), Lay(BOB, C("QD")), Lay(ANN, C("2C")), Go(BOB), Lay(ANN, C("9H"))),
        "TC QD 2C 9H",
    ),
    "pair": (
        (Lay(ANN, C("KC")), Lay(BOB, C("KD")), Lay(ANN, C("5S")), Lay(BOB, C("5H"))),
        C("5H"), ANN,
        (Lay(ANN, C("KC")), Lay(BOB, C("KD")), Lay(ANN, C("5S")), Go(BOB), Lay(ANN, C("5H"))),
        "KC KD 5S 5H",
    ),
    # the 9H moved makes Bob lead the next count, so the 7D's fifteen becomes Ann's
    "fifteen": (
        (Lay(ANN, C("TC")), Lay(BOB, C("QD")), Lay(ANN, C("2C")), Lay(BOB, C("9H")), Lay(ANN, C("8C")),
         Lay(BOB, C("7D"))),
        C("9H"), ANN,
        (Lay(ANN, C("TC")), Lay(BOB, C("QD")), Lay(ANN, C("2C")), Go(BOB), Lay(ANN, C("9H")), Lay(BOB, C("8C")),
         Lay(ANN, C("7D"))),
        "8C 7D",
    ),
}


def table(events: tuple[Event, ...]) -> TableUI:
    ui = TableUI(session=Session(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB)))
    for event in (Starter(C("2S")), *events):
        ui.apply(event)
    ui.screens.clear()
    return ui


def resting(ui: TableUI) -> tuple[str, str | None]:
    """The play screen's words and the reason of the last score the table keeps."""
    ui.screens.clear()
    screen = ui.screen()
    assert isinstance(screen, PlayScreen) and screen.last is not None
    assert ui.last_score is not None
    return screen_text(screen), ui.last_score.reason


def spoken(count: str) -> str:
    """What the rules say for the last card of ``count``."""
    return score_play(parse_cards(count)).explain()


def items(ui: TableUI) -> list[str]:
    menu = ui.menu
    assert menu is not None
    return [label for label, _ in menu.items]


def move_from_menu(ui: TableUI, card: Card, seat: int) -> None:
    """MENU, Move a card..., then the item naming the card and the seat."""
    ui.handle(Action.parse("menu"))
    for _ in range(items(ui).index("Move a card...")):
        ui.handle(Action.parse("go"))
    ui.handle(Action.parse("ok"))
    wanted = f"{card} {ui.state.names[1 - seat]} -> {ui.state.names[seat]}"
    for _ in range(items(ui).index(wanted)):
        ui.handle(Action.parse("go"))
    ui.handle(Action.parse("ok"))
    assert ui.menu is None


@pytest.mark.parametrize("case", CASES)
def test_a_moved_card_s_score_is_said_as_a_deal_laid_that_way_says_it(case: str):
    entered, card, seat, really, count = CASES[case]
    ui = table(entered)
    move_from_menu(ui, card, seat)
    fresh = table(really)
    assert ui.state.scores == fresh.state.scores
    text, reason = resting(ui)
    assert (text, reason) == resting(fresh)
    assert reason == spoken(count) and reason != "play"  # the rules' words, not the moment's name
    assert text.endswith(f"\nAnn {score_play(parse_cards(count)).total} {reason}")


@pytest.mark.parametrize("case", CASES)
def test_undo_after_a_move_brings_back_the_words_of_the_play_as_entered(case: str):
    entered, card, seat, _, count = CASES[case]
    ui = table(entered)
    before = resting(ui)
    assert before[1] == spoken(count)
    ui.apply(MoveCard(card, seat))
    assert resting(ui) != before
    ui.handle(Action.parse("undo"))
    assert resting(ui) == before


def test_undo_of_a_lay_brings_back_the_words_of_the_score_before_it():
    entered = CASES["pair"][0]
    ui = table(entered[:2])  # Bob's pair of kings
    words = resting(ui)
    ui.apply(entered[2])  # Ann's 5S scores nothing: the pair is still the last score
    ui.handle(Action.parse("undo"))
    assert resting(ui) == words and words[1] == spoken("KC KD")
