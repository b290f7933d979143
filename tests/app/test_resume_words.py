"""A table resumed from its journal (a restart, a pulled plug) says its last score in the
words it was made with, as it did before the restart, not a bare "play" or "heels"."""

from __future__ import annotations

import pytest

from cribpi.app import TableUI
from cribpi.app.session import Session
from cribpi.game import Event, Lay, NewGame, Starter
from cribpi.rules import ACC, Card
from cribpi.store import Store
from cribpi.views.model import PlayScreen
from cribpi.views.text import screen_text

C = Card.parse
ANN, BOB = 0, 1  # Bob deals, Ann leads

CASES = {
    "fifteen": (Starter(C("2S")), Lay(ANN, C("TC")), Lay(BOB, C("5D"))),
    "thirty-one": (Starter(C("2S")), Lay(ANN, C("TC")), Lay(BOB, C("QD")), Lay(ANN, C("2C")), Lay(BOB, C("9H"))),
    "pair royal": (Starter(C("2S")), Lay(ANN, C("4C")), Lay(BOB, C("4D")), Lay(ANN, C("4H"))),
    "heels": (Starter(C("JS")), Lay(ANN, C("3C"))),
}


def resting(ui: TableUI) -> tuple[str, str]:
    ui.screens.clear()
    screen = ui.screen()
    assert isinstance(screen, PlayScreen) and screen.last is not None and ui.last_score is not None
    return screen_text(screen), ui.last_score.reason


@pytest.mark.parametrize("name", CASES)
def test_the_last_score_reads_the_same_after_a_restart(tmp_path, name: str) -> None:
    events: tuple[Event, ...] = CASES[name]
    with Store(tmp_path / "cribpi.db") as store:
        ui = TableUI(session=Session(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), store))
        for event in events:
            ui.apply(event)
        before = resting(ui)
    assert before[1] not in ("play", "heels", "")  # the words, as the rules said them
    with Store(tmp_path / "cribpi.db") as store:
        session = Session.resume(store)
        assert session is not None and session.game.events[-1] == events[-1]
        assert resting(TableUI(session=session)) == before
