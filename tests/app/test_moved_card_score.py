"""After "Move a card" the play screen's last score is the play's as it now stands."""

from cribpi.app import TableUI
from cribpi.app.session import Session

from cribpi.game import Lay, MoveCard, NewGame, Starter
from cribpi.rules import ACC, Card

C = Card.parse
from cribpi.views.model import PlayScreen

ANN, BOB = 0, 1  # Bob deals, Ann leads


def test_a_moved_card_takes_its_score_off_the_play_screen():
    ui = TableUI(session=Session(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB)))
    for event in (Starter(C("2S")), Lay(ANN, C("TC")), Lay(BOB, C("QD")), Lay(ANN, C("2C")), Lay(BOB, C("9H"))):
        ui.apply(event)
    ui.screens.clear()
    screen = ui.screen()
    assert isinstance(screen, PlayScreen) and screen.last.who == "Bob" and screen.last.points == 2
    ui.apply(MoveCard(C("9H"), ANN))  # Ann laid the 9H: the thirty-one is hers
    ui.screens.clear()
    screen = ui.screen()
    assert ui.state.scores == (2, 0)
    assert isinstance(screen, PlayScreen) and screen.last is not None
    assert (screen.last.who, screen.last.points) == ("Ann", 2)  # the play as it now stands
