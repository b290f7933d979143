"""Card entry: a rank key then a suit key make a card, and each card goes where the game wants
one (the cut, the starter, the play, the crib, a hand). Cards for a cut, a crib or a hand are
collected until there are enough, then sent as one event."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

from cribpi.exc import CribpiError, RulesError
from cribpi.game import (
    Crib, CutForDeal, Discard, Effect, EndDeal, Event, HandCards, Lay, Phase, Starter, State, describe_expected,
    expected, show_order,
)
from cribpi.game.queries import entry_refusal
from cribpi.app.parts import Table
from cribpi.rules import Card, Rank, Suit

__all__ = ["CardEntry", "CribStep", "crib_step", "turn_of"]

MakeEvent = Callable[[tuple[Card, ...]], Event]


class CribStep(NamedTuple):
    """The next cards the crib needs: what to ask for, how many, the event they make, and what
    the game calls them (a "crib" or a "discard")."""

    label: str
    needed: int
    make: MakeEvent
    what: str = "crib"


def crib_step(state: State) -> CribStep:
    """With the review on, each player's discard is entered on its own (the review needs to
    know whose cards they were), then any card from the pack; otherwise the crib at once."""
    deal = state.deal
    if deal is None:
        raise RulesError(f"no crib is wanted now: waiting for {describe_expected(state)}")
    if not state.review:
        return CribStep("Crib cards", 4, Crib)
    for seat in show_order(state):
        if deal.discards[seat] is None:
            return CribStep(f"{state.names[seat]}'s discard", state.rules.discards_each,
                            functools.partial(Discard, seat), "discard")
    thrown = tuple(c for d in deal.discards if d for c in d)
    label = "Crib: card from the pack" if len(thrown) < 4 else "Crib: OK to count it"
    return CribStep(label, 4 - len(thrown), lambda cards: Crib(thrown + cards))


def turn_of(state: State) -> int:
    """The seat to lay a card or say go."""
    deal = state.deal
    if deal is None or deal.turn is None:
        raise RulesError("nobody is to play now")
    return deal.turn


class CardEntry:
    """Cards being keyed: a rank that waits for its suit, and the cards collected so far."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.rank: Rank | None = None  # a rank key waiting for its suit
        self.cards: list[Card] = []  # cards entered towards a cut, a crib or a hand

    def key_rank(self, rank: Rank) -> None:
        self.rank = rank

    def key_suit(self, suit: Suit) -> tuple[Effect, ...]:
        if self.rank is None:
            raise RulesError("press a rank key first, then the suit")
        card, self.rank = Card(self.rank, suit), None
        return self.card(card)

    def card(self, card: Card) -> tuple[Effect, ...]:
        """A whole card, from the keys or a card reader, for whatever the game wants now."""
        state = self.table.state
        want = expected(state)
        if "cut" in want.actions:
            return self._collect(card, state.seats, CutForDeal, "cut")
        if "starter" in want.actions:
            return self.table.apply(Starter(card))
        if "lay" in want.actions:
            return self.table.apply(Lay(turn_of(state), card))
        if "crib" in want.actions:
            return self._crib_card(card)
        if "hand" in want.actions and want.seat is not None:
            return self._hand_card(card, want.seat)
        if want.actions == ("end_deal",) and state.phase is Phase.DONE:
            return self._next_deal(card, state)
        raise RulesError(f"no card is wanted now: waiting for {describe_expected(state)}")

    def _next_deal(self, card: Card, state: State) -> tuple[Effect, ...]:
        """The deal is counted and a card is keyed: the next deal is plainly under way, so it
        moves on to it (the OK for the next deal is taken as said) and the card is its starter.
        Not while an under-claim is still open to muggins: the deal's end closes it, and that
        is for OK to do, with the table told."""
        deal = state.deal
        if deal is not None and any(m.missed for m in deal.missed):
            raise RulesError("OK first: the next deal closes the muggins still open on this one "
                             f"(then {card} is the next starter)")
        effects = self.table.apply(EndDeal())
        return effects + self.table.apply(Starter(card))

    def crib_ready(self) -> bool:
        """The discards entered for the review make the whole crib: OK counts it."""
        state = self.table.state
        return "crib" in expected(state).actions and state.review and crib_step(state).needed == 0

    def count_crib(self) -> tuple[Effect, ...]:
        return self.table.apply(crib_step(self.table.state).make(()))

    def hint(self) -> str:
        """Whose card the cut wants next; whose cards the crib wants next, when the review has
        them entered seat by seat; else "" (the phase's own hint)."""
        state = self.table.state
        actions = expected(state).actions
        if "cut" in actions and len(self.cards) < state.seats:
            name = state.names[len(self.cards)]
            return f"{name}'s card next, OK: random" if self.cards else f"a card per seat, {name}'s first, OK: random"
        return crib_step(state).label if "crib" in actions and state.review else ""

    def text(self) -> str:
        """What is keyed so far, as the OLED shows it: ``7C 8H 5_``."""
        text = " ".join(str(c) for c in self.cards)
        return f"{text} {self.rank.symbol}_".strip() if self.rank is not None else text

    def take_back(self) -> bool:
        """UNDO: the waiting rank, else the last card collected; False when nothing is keyed."""
        if self.rank is not None:
            self.rank = None
        elif self.cards:
            self.cards.pop()
        else:
            return False
        return True

    def clear(self) -> None:
        self.rank, self.cards = None, []

    def _hand_card(self, card: Card, seat: int) -> tuple[Effect, ...]:
        deal = self.table.state.deal
        laid = deal.cards_of(seat) if deal else ()
        need = self.table.state.rules.cards_held - len(laid)
        return self._collect(card, need, lambda cards: HandCards(seat, laid + cards), "hand")

    def _crib_card(self, card: Card) -> tuple[Effect, ...]:
        _, needed, make, what = crib_step(self.table.state)
        if needed == 0:
            raise RulesError("the discards make the whole crib: press OK to count it")
        effects = self._collect(card, needed, make, what)
        if not self.cards and self.crib_ready():
            effects += self.count_crib()  # 2 or 4 players: the discards are the crib
        return effects

    def _collect(self, card: Card, needed: int, make: MakeEvent, what: str) -> tuple[Effect, ...]:
        """Each card is checked as it is keyed (a refused one is not entered, and the cards
        before it stay); the last one needed makes the event."""
        if card in self.cards:
            raise RulesError(f"{card} is already entered: enter {needed - len(self.cards)} more different card(s)")
        why = entry_refusal(self.table.state, card, what)
        if why is not None:
            raise RulesError(why)
        self.cards.append(card)
        if len(self.cards) < needed:
            return ()
        try:
            return self.table.apply(make(tuple(self.cards)))
        except CribpiError:
            self.cards.pop()  # the event is refused: the card just keyed is not entered, nothing changes
            raise
