"""What the table is waiting for: legal actions as a query, never stored."""

from __future__ import annotations

import dataclasses

from cribpi.game.queries import show_order
from cribpi.game.state import Phase, State
from cribpi.rules import DECK, MAX_COUNT, Card, count_total

__all__ = ["Expected", "expected", "describe_expected", "legal_cards", "can_go"]


@dataclasses.dataclass(frozen=True, slots=True)
class Expected:
    """The inputs the table accepts next (besides undo, penalties and muggins)."""

    actions: tuple[str, ...]  # event kinds: starter, lay, go, claim, hand, crib, end_deal, ...
    seat: int | None = None  # whose input it is, when one seat's


def expected(state: State) -> Expected:
    phase = state.phase
    deal = state.deal
    if phase is Phase.NEW:
        return Expected(("new_game",))
    if phase is Phase.CUT:
        return Expected(("cut",))
    if phase is Phase.BOARD:
        return Expected(("peg", "end_deal"))
    if phase is Phase.GAME_OVER:
        return Expected(("next_game",))
    if phase is Phase.MATCH_OVER or deal is None:
        return Expected(())
    if deal.pending is not None:
        return Expected(("claim",), deal.pending.seat)
    if phase is Phase.PLAY and deal.turn is None and deal.unclaimed:
        return Expected(("claim",), deal.unclaimed[0].seat)  # the play is over: its last claims
    if phase is Phase.STARTER:
        return Expected(("starter",))
    if phase is Phase.PLAY:
        acts = ("lay", "go", "claim") if deal.unclaimed else ("lay", "go")
        return Expected(acts if can_go(state) else tuple(a for a in acts if a != "go"), deal.turn)
    if phase is Phase.SHOW:
        order = show_order(state)
        if deal.show_step < len(order):
            return Expected(("hand",), order[deal.show_step])
        return Expected(("crib",), deal.dealer)
    return Expected(("end_deal",))


#: What each awaited input is called at the table.
ACTION_WORDS = {
    "new_game": "a new game", "cut": "the cut for the deal", "starter": "the starter card",
    "lay": "a card", "go": "go", "claim": "a claim", "hand": "the rest of the hand",
    "crib": "the crib cards", "end_deal": "OK for the next deal", "next_game": "OK for the next game",
    "peg": "a peg",
}


def describe_expected(state: State) -> str:
    """``a card or go from Ann, or a claim from Bob``: in the play a claim is open to the seats
    whose cards scored, not to the seat to lay (who may have nothing to claim)."""
    exp = expected(state)
    who = f" from {state.names[exp.seat]}" if exp.seat is not None and state.names else ""
    actions, claim = exp.actions, ""
    deal = state.deal
    if "claim" in actions and len(actions) > 1 and deal is not None:
        actions = tuple(a for a in actions if a != "claim")
        claimers = sorted({m.seat for m in deal.unclaimed if m.points})
        if claimers:
            names = [state.names[s] if state.names else f"seat {s + 1}" for s in claimers]
            claim = f", or a claim from {' or '.join(names)}"
    words = [ACTION_WORDS.get(a, a) for a in actions]
    return (" or ".join(words) or "a new match: this one is over") + who + claim


def legal_cards(state: State, seat: int | None = None) -> list[Card]:
    """Cards the seat may lay now: its entered hand, or any unseen card, that fits under 31."""
    deal = state.deal
    if state.phase is not Phase.PLAY or deal is None or deal.turn is None:
        return []
    seat = deal.turn if seat is None else seat
    if seat != deal.turn:
        return []
    room = MAX_COUNT - count_total(deal.count)
    declared = deal.declared[seat]
    laid = set(deal.cards_of(seat))
    pool = [c for c in declared if c not in laid] if declared is not None else [c for c in DECK if c not in deal.seen()]
    return [c for c in pool if c.value <= room]


def can_go(state: State) -> bool:
    """Whether the seat to play may say go (no card it holds could fit)."""
    deal = state.deal
    if state.phase is not Phase.PLAY or deal is None or deal.turn is None:
        return False
    running = count_total(deal.count)
    if running + 10 <= MAX_COUNT:
        return False
    declared = deal.declared[deal.turn]
    return declared is None or not legal_cards(state)
