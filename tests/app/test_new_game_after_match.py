"""After the match is over, "Start it now" (or "New game") starts the next game at once: there
is no game left to abandon, so the table does not ask "Abandon this game?"."""

from __future__ import annotations

from cribpi.app import TableUI
from cribpi.app.session import Session
from cribpi.game import Mode, NewGame, Peg, Phase
from cribpi.rules import ACC
from setup_menu import choose, labels, press, setup_menu


def test_start_it_now_after_the_match_asks_nothing() -> None:
    ui = TableUI(session=Session(NewGame(("Ann", "Bob"), ACC, mode=Mode.BOARD, first_dealer=0)))
    for _ in range(6):
        ui.apply(Peg(0, 20))
    ui.apply(Peg(0, 1))
    assert ui.state.phase is Phase.MATCH_OVER
    old = ui.session.game
    setup_menu(ui)
    choose(ui, "Start it now")
    assert ui.menu is None and ui.session.game is not old  # started, nothing asked
    assert ui.state.phase is not Phase.MATCH_OVER and ui.state.scores == (0, 0)


def test_start_it_now_during_a_game_still_asks_first() -> None:
    ui = TableUI(session=Session(NewGame(("Ann", "Bob"), ACC, mode=Mode.BOARD, first_dealer=0)))
    ui.apply(Peg(0, 20))
    old = ui.session.game
    setup_menu(ui)
    choose(ui, "Start it now")
    assert ui.menu is not None and labels(ui) == ["No, go back", "Yes: new game"]
    press(ui, "ok")  # No, go back
    assert ui.session.game is old
