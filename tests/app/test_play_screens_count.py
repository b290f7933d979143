"""Every screen of the play shows the count (issue 24, section 3): the alerts that cover the
play's screen (overclaim, MUGGINS!, wrong muggins, muggins closed, renege, renege claimed, false
game, card moved, penalty, undone, a refusal) and the scores pegged in it that are not play
scores (a muggins award, a penalty, his heels) said the alert and lost the count."""

from __future__ import annotations

import random

from cribpi.app import TableSettings, TableUI
from cribpi.game import Go, Mode, MoveCard, Penalty, Phase
from cribpi.game.events import Setup
from cribpi.hal import Action, Kind
from cribpi.rules import Card
from cribpi.views.model import AlertScreen, MessageScreen, ScoreScreen
from cribpi.views.oled import render_screen
from cribpi.views.text import screen_text

ANN, BOB, CAT = 0, 1, 2


def three(scores: tuple[int, int, int] = (0, 0, 0), mode: Mode = Mode.CLAIM) -> TableUI:
    """Ann, Bob and Cat (in claim mode with muggins on, unless told), from ``scores``; Bob
    deals, Cat leads."""
    ui = TableUI(TableSettings(names=("Ann", "Bob", "Cat"), players=3, mode=mode, muggins=mode is Mode.CLAIM),
                 rng=random.Random(1))
    ui.handle_event(Setup(scores, dealer=BOB))
    ui.screens.clear()
    return ui


def counted(ui: TableUI) -> list[str]:
    """The titles of the screens queued; each in the play says the running count (an alert
    and a message the count now, a score the count it covers) and whose turn, in its words
    and on the OLED's last row."""
    deal = ui.state.deal
    assert ui.state.phase is Phase.PLAY and deal is not None
    titles = []
    for screen in ui.screens:
        if not isinstance(screen, (AlertScreen, MessageScreen, ScoreScreen)):
            continue
        words = screen_text(screen)
        assert "count " in words and f"{ui.state.names[deal.turn]} next" in words, words
        if not isinstance(screen, ScoreScreen):
            assert screen.count == deal.running, words
        title = getattr(screen, "title", "") or f"{screen.who} +"  # type: ignore[union-attr]
        titles.append(title)
        image = render_screen(screen)
        assert image.getbbox() is not None and image.crop((0, 57, 128, 64)).getbbox() is not None  # the foot row
    return titles


def lay(ui: TableUI, *cards: str) -> list[str]:
    titles: list[str] = []
    for text in cards:
        ui.screens.clear()
        ui.handle(Action.of_card(text))
        titles += counted(ui)
    return titles


def claim(ui: TableUI, seat: int, points: int) -> list[str]:
    ui.screens.clear()
    ui.handle(Action.peg(seat, points))
    ui.handle(Action.parse("ok"))
    return counted(ui)


def call(ui: TableUI, seat: int, points: int) -> list[str]:
    ui.screens.clear()
    ui.handle(Action(Kind.MUGGINS, seat=seat, points=points))
    return counted(ui)


def test_the_claims_and_muggins_screens_of_the_play_show_the_count() -> None:
    ui = three()
    lay(ui, "2S", "5C", "TD")
    assert "MUGGINS!" in claim(ui, ANN, 1)  # Ann claims 1 of her fifteen's 2
    lay(ui, "TH")
    claim(ui, BOB, 2)
    assert "Not allowed" in call(ui, CAT, 1)  # both claims are open: MENU says whose
    ui.screens.clear()
    ui.handle(Action.parse("menu"))
    ui.menus.current.selected = 1  # Cat: muggins Ann 1
    ui.handle(Action.parse("ok"))
    assert "Cat +" in counted(ui)  # the award
    assert "Wrong muggins" in call(ui, CAT, 2)
    assert "Overclaim" in claim(ui, CAT, 3)  # Cat claims 3 for the nothing her 5C made


def test_muggins_closed_shows_the_count() -> None:
    ui = three()
    lay(ui, "2S", "5C", "TD")
    claim(ui, ANN, 1)
    lay(ui, "TH")
    claim(ui, BOB, 2)
    lay(ui, "6S")  # 31 for Cat
    claim(ui, CAT, 2)
    lay(ui, "9H", "6D")
    claim(ui, BOB, 2)
    lay(ui, "AS")
    assert "Muggins closed" in lay(ui, "AH")


def test_a_renege_its_claim_and_a_false_claim_of_game_show_the_count() -> None:
    ui = three((100, 110, 113))
    lay(ui, "2S", "5C", "TD")
    claim(ui, ANN, 2)
    lay(ui, "TH")
    claim(ui, BOB, 2)
    ui.screens.clear()
    ui.handle(Action.parse("go"))  # Cat says go at 25, holding 4H
    lay(ui, "6S")
    claim(ui, ANN, 2)
    lay(ui, "9H")
    assert "Renege" in lay(ui, "4H")
    ui.screens.clear()
    ui.handle(Action.parse("menu"))
    ui.handle(Action.parse("ok"))  # the menu opens on Ann's claim of the renege
    assert "Renege claimed" in counted(ui)
    lay(ui, "4H")  # Cat plays on from the go: 29
    assert "False game" in claim(ui, CAT, 8)


def test_his_heels_show_the_count() -> None:
    assert "Bob +" in lay(three(mode=Mode.COUNT), "JS")  # over the play's first screen


def test_a_card_moved_a_penalty_an_undo_and_a_refusal_show_the_count() -> None:
    ui = TableUI(TableSettings(names=("Ann", "Bob")), rng=random.Random(1))
    ui.handle_event(Setup((0, 0), dealer=BOB))
    lay(ui, "KS", "TD", "QD", "5C", "6C")  # Bob said go at 25, but nobody pressed GO: 6C went to Bob
    ui.screens.clear()
    ui.handle_event(MoveCard(Card.parse("6C"), ANN))
    assert "Card moved" in counted(ui)
    ui.screens.clear()
    ui.handle_event(Penalty(BOB, 2, "exposed card"))
    assert "Penalty" in counted(ui)
    ui.screens.clear()
    ui.handle(Action.parse("undo"))
    assert "Undone" in counted(ui)
    ui.screens.clear()
    ui.handle_event(Go(ui.state.deal.turn))  # every card fits: refused, over the play
    assert "Not allowed" in counted(ui)
