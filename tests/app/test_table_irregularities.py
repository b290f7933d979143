"""Muggins at a three-player table (issue 24, section 1): a call is on a claim still open to
it; with nothing open it is refused saying so, with claims of two opponents open MENU says whose
claim it is on, and an under-claim whose time runs out says so on the screen. A false claim of
game has its screen."""

from __future__ import annotations

import random

from cribpi.app import TableSettings, TableUI
from cribpi.game import Mode
from cribpi.hal import Action, Kind
from cribpi.views.model import AlertScreen

ANN, BOB, CAT = 0, 1, 2


def three() -> TableUI:
    """Ann, Bob and Cat in claim mode with muggins on; Bob deals, Cat leads."""
    ui = TableUI(TableSettings(names=("Ann", "Bob", "Cat"), players=3, mode=Mode.CLAIM, muggins=True),
                 rng=random.Random(1))
    for cut in ("KC", "3D", "QH"):
        ui.handle(Action.of_card(cut))
    ui.screens.clear()
    assert ui.state.deal is not None and ui.state.deal.dealer == BOB
    return ui


def lay(ui: TableUI, *cards: str) -> None:
    for text in cards:
        ui.screens.clear()
        ui.handle(Action.of_card(text))


def claim(ui: TableUI, seat: int, points: int) -> None:
    ui.screens.clear()
    ui.handle(Action.peg(seat, points))
    ui.handle(Action.parse("ok"))


def call(ui: TableUI, seat: int, points: int) -> None:
    """The simulator's ``x seat points Enter``."""
    ui.screens.clear()
    ui.handle(Action(Kind.MUGGINS, seat=seat, points=points))


def both_open() -> TableUI:
    """Ann claims 1 of her fifteen's 2, Bob his pair's 2: both claims are open to Cat."""
    ui = three()
    lay(ui, "2S", "5C", "TD")
    claim(ui, ANN, 1)
    lay(ui, "TH")
    claim(ui, BOB, 2)
    assert ui.state.scores == (1, 2, 0)
    return ui


def test_a_call_with_two_opponents_claims_open_says_whose_in_the_menu() -> None:
    ui = both_open()
    call(ui, CAT, 1)
    refusal = ui.screen()
    assert isinstance(refusal, AlertScreen) and refusal.title == "Not allowed"
    assert "Bob (seat 2) or Ann (seat 1) are open to muggins: MENU says whose" in refusal.lines[0]
    assert ui.state.scores == (1, 2, 0)  # nobody pegs for a call not yet made
    ui.handle(Action.parse("menu"))
    menu = ui.screen()
    assert menu.items[:3] == ("Cat: muggins Bob 1", "Cat: muggins Ann 1", "Resume")
    ui.menus.current.selected = 1
    ui.handle(Action.parse("ok"))
    assert ui.state.scores == (1, 2, 1)  # Cat takes the point Ann missed
    call(ui, CAT, 2)  # only Bob's claim is open now: the table takes it, and it was right
    wrong = ui.screen()
    assert isinstance(wrong, AlertScreen) and wrong.title == "Wrong muggins"
    assert wrong.lines[0] == "Cat called muggins wrongly on Bob's play: Bob pegs 2"
    assert ui.state.scores == (1, 4, 1)


def test_a_call_with_nothing_open_is_refused_and_nobody_pegs() -> None:
    ui = three()
    lay(ui, "2S", "5C")
    call(ui, ANN, 2)
    refusal = ui.screen()
    assert isinstance(refusal, AlertScreen) and refusal.title == "Not allowed"
    assert refusal.lines[0].startswith("nothing is open to muggins for Ann")
    assert ui.state.scores == (0, 0, 0)
    ui.screens.clear()
    ui.handle(Action(Kind.MUGGINS, seat=ANN))  # the MUGGINS key alone: refused before points are keyed
    assert ui.screen().lines[0].startswith("nothing is open to muggins") and ui.tally is None


def test_an_under_claim_whose_time_runs_out_says_so() -> None:
    ui = both_open()
    lay(ui, "6S")  # 31 for Cat
    claim(ui, CAT, 2)
    lay(ui, "9H", "6D")  # Ann leads the next count; Bob's fifteen
    claim(ui, BOB, 2)
    lay(ui, "AS")
    assert not any(isinstance(s, AlertScreen) and s.title == "Muggins closed" for s in ui.screens)
    lay(ui, "AH")  # Ann lays her next card: her short fifteen can no longer be called
    closed = [s for s in ui.screens if isinstance(s, AlertScreen) and s.title == "Muggins closed"]
    assert closed and closed[0].lines == ("Muggins on Ann's play (1 missed) is closed:", "Ann has laid another card")


def test_a_claims_breakdown_names_every_card_of_a_run() -> None:
    from cribpi.game import Alert, AlertKind, Where
    from cribpi.rules import Card, ScoreItem
    from cribpi.views.table import alert_lines

    ui = three()
    run = tuple(Card.parse(c) for c in ("4C", "5D", "6H", "7S"))
    alert = Alert(AlertKind.MUGGINS, "", ANN, (ScoreItem("fifteen", run[1:3] + (Card.parse("4D"),), 2),
                                              ScoreItem("run", run, 4)), Where.HAND, 6, 2)
    assert alert_lines(ui.state, alert) == ("Ann claimed 2 of 6: muggins for 4?", "fifteen 5D 6H 4D 2",
                                            "run 4C 5D 6H 7S 4")
    in_play = Alert(AlertKind.MUGGINS, "", ANN, (ScoreItem("run", run, 4),), Where.PLAY, 4, 0)
    assert alert_lines(ui.state, in_play)[1] == "run 4"  # a play score's cards are the count's


def test_a_card_keyed_once_the_deal_is_counted_is_the_next_deal_s_starter() -> None:
    from cribpi.game import Crib, Go, Lay, Phase, Starter
    from cribpi.rules import Card

    ui = TableUI(TableSettings(names=("Ann", "Bob")), rng=random.Random(1))
    ui.handle(Action.of_card("KC"))
    ui.handle(Action.of_card("3D"))  # Bob deals, Ann leads
    hands = {0: ["TC", "9C", "8C", "7C"], 1: ["KD", "QD", "JD", "6D"]}
    ui.apply(Starter(Card.parse("2S")))
    while ui.state.phase is Phase.PLAY:
        deal = ui.state.deal
        seat = deal.turn
        fits = [c for c in hands[seat] if Card.parse(c) not in deal.cards_of(seat) and deal.running + Card.parse(c).value <= 31]
        ui.apply(Lay(seat, Card.parse(fits[0])) if fits else Go(seat))
    ui.apply(Crib(tuple(Card.parse(c) for c in ("AH", "2H", "3H", "4H"))))
    assert ui.state.phase is Phase.DONE
    ui.screens.clear()
    ui.handle(Action.parse("rank 5"))
    ui.handle(Action.parse("suit S"))  # keyed as the next starter, not refused as "no card is wanted now"
    deal = ui.state.deal
    assert ui.state.phase is Phase.PLAY and deal.number == 2 and deal.dealer == 0 and str(deal.starter) == "5S"
