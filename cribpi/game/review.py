"""The post-deal review: the discard actually made against the best one.

Off unless the table turned it on (``NewGame(review=True)``), and never under tournament
rules. It needs the seat's kept hand (known after the play) and its discard (``Discard``).
"""

from __future__ import annotations

from cribpi.analysis import DiscardReview, review_discard
from cribpi.game.engine import known_hand
from cribpi.game.state import State

__all__ = ["review_seat", "reviewable_seats"]


def reviewable_seats(state: State) -> list[int]:
    """Seats whose whole deal (hand and discard) is known, when the review is on."""
    deal = state.deal
    if not state.review or state.rules.tournament or deal is None or not deal.discards:
        return []
    held = state.rules.cards_held
    return [seat for seat in range(state.seats)
            if deal.discards[seat] is not None and len(known_hand(state, seat)) == held]


def review_seat(state: State, seat: int) -> DiscardReview | None:
    """The review of one seat's discard this deal, or None when it is off or not known."""
    if seat not in reviewable_seats(state):
        return None
    deal = state.deal
    assert deal is not None
    discard = deal.discards[seat]
    assert discard is not None
    dealt = known_hand(state, seat) + discard
    return review_discard(dealt, discard, dealer=seat == deal.dealer, rules=state.rules)
