"""Claim mode without guessing (issue 24, section 2): OK alone never claims 0 for a hand the
player has not seen asked; it asks first, and a second OK claims it."""

from __future__ import annotations

import random

from cribpi.app import TableSettings, TableUI
from cribpi.game import Claim, Go, Lay, Mode, Phase, Starter, Where
from cribpi.hal import Action
from cribpi.rules import Card
from cribpi.views.model import PromptScreen

HANDS = {0: ("KC", "JH", "8H", "AH"), 1: ("QD", "9S", "6D", "3C")}  # Ann's: nothing with the starter 2S


def at_anns_hand() -> TableUI:
    """Claim mode, Bob deals: the play over and claimed right, Ann's hand (0) waits for its claim."""
    ui = TableUI(TableSettings(names=("Ann", "Bob"), mode=Mode.CLAIM), rng=random.Random(1))
    ui.handle(Action.of_card("KC"))
    ui.handle(Action.of_card("3D"))
    ui.apply(Starter(Card.parse("2S")))
    while ui.state.phase is Phase.PLAY:
        deal = ui.state.deal
        if deal.unclaimed and (deal.turn is None or deal.unclaimed[0].seat == deal.turn):
            ui.apply(Claim(deal.unclaimed[0].seat, deal.unclaimed[0].points))
            continue
        seat = deal.turn
        fits = [Card.parse(c) for c in HANDS[seat]
                if Card.parse(c) not in deal.cards_of(seat) and deal.running + Card.parse(c).value <= 31]
        ui.apply(Lay(seat, fits[0]) if fits else Go(seat))
    pending = ui.state.deal.pending
    assert pending is not None and (pending.seat, pending.where, pending.points) == (0, Where.HAND, 0)
    ui.screens.clear()
    return ui


def test_ok_alone_asks_before_it_claims_0_and_a_second_ok_claims_it() -> None:
    ui = at_anns_hand()
    assert ui.screen() == PromptScreen("Ann hand?", "", "PEG N, OK; 0: OK, OK")
    ui.handle(Action.parse("ok"))
    assert ui.state.deal.pending is not None and ui.state.deal.pending.seat == 0  # not claimed yet
    assert ui.screen() == PromptScreen("Ann hand?", "Ann 0", "OK claims 0, PEG adds, UNDO: back")
    ui.handle(Action.parse("undo"))  # back: nothing claimed
    assert ui.tally is None and ui.state.deal.pending.seat == 0
    ui.handle(Action.parse("ok"))
    ui.handle(Action.parse("ok"))
    assert ui.state.deal.pending is not None and ui.state.deal.pending.seat == 1  # Ann's 0 claimed: Bob's hand next


def test_an_ok_that_pages_a_screen_away_and_the_next_never_claim_a_hand() -> None:
    ui = at_anns_hand()
    before = ui.state
    ui.screens = [PromptScreen("a breakdown", "", "")]  # what the last claim left queued
    ui.handle(Action.parse("ok"))  # pages it away
    ui.handle(Action.parse("ok"))  # pressed at once: asks, never claims
    assert ui.state is before and ui.tally == (0, 0)
