"""A score made before the play (his heels, a judge's penalty at the starter, five-card's three
to start) is said after an UNDO into the play in the words the table said it with at the time,
not by its short reason ("heels", "penalty")."""

from __future__ import annotations

import pytest

from cribpi.app import TableUI
from cribpi.app.session import Session
from cribpi.game import CutForDeal, Event, Lay, MoveCard, NewGame, Penalty, Phase, Reason, Starter
from cribpi.hal import Action
from cribpi.rules import ACC, FIVE_CARD, Card, Rules
from cribpi.views.model import PlayScreen
from cribpi.views.text import screen_text

C = Card.parse
ANN, BOB = 0, 1  # Bob deals, Ann leads

# (the rules, what happens before the play, the words said when the score was made, its short reason)
CASES = {
    "heels": (ACC, (Starter(C("JS")),), "two for his heels is two", Reason.HEELS),
    "penalty at the starter": (ACC, (Penalty(BOB, 2, "exposed card"), Starter(C("2S"))), "exposed card",
                               Reason.PENALTY),
    "penalty, then heels": (ACC, (Penalty(ANN, 2, "exposed card"), Starter(C("JD"))), "two for his heels is two",
                            Reason.HEELS),
    "penalty sending a side back": (ACC, (Penalty(BOB, 3, "set-up"), Penalty(BOB, -2, "overpeg"), Starter(C("2S"))),
                                    "overpeg", Reason.PENALTY),
    "five-card three to start": (FIVE_CARD, (Starter(C("2S")),), "three to start", Reason.THREE_FOR_LAST),
}


def table(rules: Rules, events: tuple[Event, ...]) -> TableUI:
    """The game started as at a table, by the cut (Bob cuts low and deals), then ``events``."""
    ui = TableUI(session=Session(NewGame(("Ann", "Bob"), rules)))
    for event in (CutForDeal((C("KH"), C("AH"))), *events):
        ui.apply(event)
    ui.screens.clear()
    return ui


def resting(ui: TableUI) -> tuple[str, str]:
    """The play screen's words and the reason of the last score it shows."""
    ui.screens.clear()
    screen = ui.screen()
    assert ui.state.phase is Phase.PLAY and isinstance(screen, PlayScreen) and screen.last is not None
    return screen_text(screen), screen.last.reason


def undo(ui: TableUI) -> None:
    ui.handle(Action.parse("undo"))
    assert ui.screens and ui.screens[0].title == "Undone"


@pytest.mark.parametrize("case", CASES)
def test_undo_of_the_first_card_brings_back_the_words_said_before_the_play(case: str):
    rules, before, words, short = CASES[case]
    ui = table(rules, before)
    at_the_time = resting(ui)
    assert at_the_time[1] == words != short.value
    ui.apply(Lay(ANN, C("KC")))  # scores nothing: the score before the play is still the last
    assert resting(ui)[1] == words
    undo(ui)
    assert resting(ui) == at_the_time


@pytest.mark.parametrize("case", CASES)
def test_undo_of_the_play_s_only_score_brings_them_back_too(case: str):
    rules, before, words, _ = CASES[case]
    ui = table(rules, before)
    at_the_time = resting(ui)
    ui.apply(Lay(ANN, C("KC")))
    ui.apply(Lay(BOB, C("KD")))  # Bob's pair is the last score now
    assert resting(ui)[1] == "a pair is two"
    undo(ui)
    assert resting(ui)[1] == words  # Ann's KC is still down
    undo(ui)
    assert resting(ui) == at_the_time


def test_a_move_that_leaves_no_score_in_the_play_shows_the_heels_in_their_words():
    ui = table(ACC, (Starter(C("JS")), Lay(ANN, C("TC")), Lay(BOB, C("QD")), Lay(ANN, C("2C")), Lay(BOB, C("9H"))))
    assert resting(ui)[1] == "thirty-one is two"  # Bob's
    ui.apply(MoveCard(C("9H"), ANN))  # Ann's now: still a thirty-one
    assert resting(ui)[1] == "thirty-one is two"
    undo(ui)
    undo(ui)  # Bob's 9H taken back
    assert resting(ui)[1] == "two for his heels is two"
