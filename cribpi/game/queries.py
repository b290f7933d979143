"""Questions about a table's state that every part of the game asks: whose turn comes next,
what a seat still holds, what a claim would be for. Read-only; they import only the state."""

from __future__ import annotations

from cribpi.game.state import DealState, Moment, State
from cribpi.rules import Card

__all__ = ["show_order", "cards_left", "known_hand", "claimable", "next_to_play", "entry_refusal", "seen_words",
           "not_in_crib_words", "muggins_targets"]


def show_order(state: State) -> tuple[int, ...]:
    """Seats in showing order: from the dealer's left round to the dealer."""
    dealer = state.deal.dealer if state.deal else 0
    return tuple((dealer + i) % state.seats for i in range(1, state.seats + 1))


def cards_left(state: State, seat: int) -> int:
    """Cards a seat still holds in the play."""
    deal = state.deal
    return 0 if deal is None else deal.held[seat]


def known_hand(state: State, seat: int) -> tuple[Card, ...]:
    """The seat's hand as far as it is known: entered whole, else the cards it laid."""
    deal = state.deal
    assert deal is not None
    declared = deal.declared[seat]
    return declared if declared is not None else deal.cards_of(seat)


def claimable(state: State, seat: int) -> Moment | None:
    """The score a claim by ``seat`` would be for: its hand or crib, else its play score."""
    deal = state.deal
    if deal is None:
        return None
    if deal.pending is not None and deal.pending.seat == seat:
        return deal.pending
    return next((m for m in deal.unclaimed if m.seat == seat), None)


def muggins_targets(state: State, caller: int) -> tuple[int, ...]:
    """The opponents of ``caller`` with a claim still open to muggins, the latest claim first:
    whom a call by ``caller`` can be on (:mod:`cribpi.game.claims`)."""
    deal = state.deal
    if deal is None:
        return ()
    team = state.team_of(caller)
    seats = (m.seat for m in reversed(deal.missed) if state.team_of(m.seat) != team)
    return tuple(dict.fromkeys(seats))


def next_to_play(state: State, deal: DealState, after: int) -> int | None:
    """The first seat clockwise after ``after`` that may still lay a card on the current count:
    it holds one and has not said go (``after`` itself comes last)."""
    seats = state.seats
    held, gone = deal.held, deal.gone
    for i in range(1, seats + 1):
        seat = (after + i) % seats
        if held[seat] and seat not in gone:
            return seat
    return None


def entry_refusal(state: State, card: Card, what: str) -> str | None:
    """Why ``card`` may not be keyed towards the ``what`` being entered ("cut", "crib",
    "discard" or "hand": a hand's cards not laid in the play), else None. Asked of each card
    as it is keyed, so a wrong one is refused at once, not when the last card makes the event;
    the event's handler still checks the whole (:func:`cribpi.game.transaction.check_unseen`,
    in the same words: :func:`seen_words`, :func:`not_in_crib_words`)."""
    deal = state.deal
    if deal is None or what == "cut":
        return None
    if what == "discard" and deal.crib:  # the crib is entered: a discard is two of its cards
        return None if card in deal.crib else not_in_crib_words(card, deal.crib)
    return seen_words(card, what) if deal.has_seen(card) else None


def seen_words(card: Card, what: str) -> str:
    """The refusal of a card shown already this deal, entered as part of ``what``."""
    return f"{card} has already been seen this deal: the {what} must be cards not yet shown"


def not_in_crib_words(card: Card, crib: tuple[Card, ...]) -> str:
    """The refusal of a discard's card that the crib entered does not hold."""
    return f"{card} is not in the crib ({' '.join(map(str, crib))}): a discard goes to the crib"
