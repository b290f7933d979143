"""The show: the hands and then the crib counted in order, each as soon as its cards are known."""

from __future__ import annotations

from cribpi.game.queries import known_hand, show_order
from cribpi.game.state import Phase, Where
from cribpi.game.transaction import Tx
from cribpi.rules import Card, ShowScore, score_hand

__all__ = ["start_show", "advance_show"]


def start_show(tx: Tx) -> None:
    tx.set(phase=Phase.SHOW)
    tx.set_deal(show_step=0, turn=None)
    advance_show(tx)


def advance_show(tx: Tx) -> None:
    """Count every hand that is known, in order, stopping for claims and missing cards."""
    order = show_order(tx.state)
    while tx.deal.pending is None:
        step = tx.deal.show_step
        if step < len(order):
            seat = order[step]
            hand = known_hand(tx.state, seat)
            if len(hand) < tx.state.rules.cards_held:
                return  # waiting for HandCards
            score = _show_score(tx, hand, crib=False)
            tx.set_deal(hand_totals=tx.deal.hand_totals + ((seat, score.total),), show_step=step + 1)
            tx.score(seat, Where.HAND, score.total, score.items)
        elif step == len(order):
            if len(tx.deal.crib) < 4:
                return  # waiting for the crib
            score = _show_score(tx, tx.deal.crib, crib=True)
            tx.set_deal(crib_total=score.total, show_step=step + 1)
            tx.score(tx.deal.dealer, Where.CRIB, score.total, score.items)
        else:
            tx.set(phase=Phase.DONE)
            return


def _show_score(tx: Tx, hand: tuple[Card, ...], crib: bool) -> ShowScore:
    starter = tx.deal.starter
    assert starter is not None
    return score_hand(hand, starter, crib=crib, rules=tx.state.rules)
