"""The discard review on the OLED: what a player threw to the crib against the best throw."""

from __future__ import annotations

from cribpi.game import State
from cribpi.game.review import review_seat
from cribpi.views.model import MessageScreen

__all__ = ["review_screen"]

NO_REVIEW = MessageScreen(("No review: it is off", "or the discard is", "not entered."), "Review")


def review_screen(state: State, seat: int) -> MessageScreen:
    """``Threw 5C 5D: +4.12``, the best throw, and what the difference cost."""
    review = review_seat(state, seat)
    if review is None:
        return NO_REVIEW
    made = " ".join(map(str, review.made.discard))
    best = " ".join(map(str, review.best.discard))
    lines = (f"Threw {made}: {review.made.total_ev:+.2f}",
             f"Best {best}: {review.best.total_ev:+.2f}",
             f"Cost {review.loss:.2f} pts, #{review.rank}")
    return MessageScreen(lines, f"{state.names[seat]} review")
