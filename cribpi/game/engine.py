"""``apply(state, event) -> (state, effects)``: the whole of a cribbage table, pure.

Every event is checked against the state first; impossible input raises ``RulesError``
naming what is wrong and what would be accepted, and nothing changes (the transaction is
simply dropped). Points are pegged strictly in order, so the game ends at the exact instant
a side reaches the target: nothing after that instant in the same event is scored.

The handlers live by job: :mod:`~cribpi.game.dealing` (set-up, deals, board pegs, penalties),
:mod:`~cribpi.game.play`, :mod:`~cribpi.game.show`, :mod:`~cribpi.game.entry` (hands, discards,
the crib) and :mod:`~cribpi.game.claims`; :mod:`~cribpi.game.transaction` holds what they share.
"""

from __future__ import annotations

from collections.abc import Callable
import typing
from typing import Any

from cribpi.exc import RulesError
from cribpi.game import claims, confirm, dealing, entry, moves, play, renege, setup
from cribpi.game import events as ev
from cribpi.game.claims import MAX_CLAIM
from cribpi.game.queries import cards_left, claimable, known_hand, show_order
from cribpi.game.state import Effect, PlayInput, State
from cribpi.game.transaction import GameEnded, Tx

__all__ = ["apply", "show_order", "cards_left", "claimable", "known_hand", "INITIAL", "MAX_CLAIM", "open_reneges"]

INITIAL = State()


def apply(state: State, event: ev.Event) -> tuple[State, tuple[Effect, ...]]:
    """Apply one event. Raises RulesError (state unchanged) when the event is impossible."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise RulesError(f"{type(event).__name__} cannot be applied to a table (undo belongs to Game)")
    tx = Tx(state)
    try:
        handler(tx, event)
    except GameEnded:
        pass
    deal = tx.state.deal
    if isinstance(event, _LOGGED) and deal is not None and deal.base is not None:
        tx.set_deal(log=deal.log + (event,))  # what a moved card's replay goes through again
    return tx.state, tuple(tx.effects)


_LOGGED: tuple[type[ev.Event], ...] = typing.get_args(PlayInput)


_HANDLERS: dict[type[ev.Event], Callable[[Tx, Any], None]] = {
    ev.NewGame: dealing.new_game,
    ev.Setup: setup.setup,
    ev.CutForDeal: dealing.cut,
    ev.Starter: play.starter,
    ev.HandCards: entry.enter_hand,
    ev.Lay: play.lay,
    ev.Go: play.go,
    ev.Claim: claims.claim,
    ev.Muggins: claims.muggins,
    ev.MugginsSet: claims.set_muggins,
    ev.Crib: entry.enter_crib,
    ev.Discard: entry.enter_discard,
    ev.Peg: dealing.manual_peg,
    ev.Penalty: dealing.penalty,
    ev.Misdeal: dealing.misdeal,
    ev.EndDeal: dealing.end_deal,
    ev.NextGame: dealing.next_game,
    ev.Confirm: confirm.confirm,
    ev.MoveCard: lambda tx, event: moves.move_card(tx, event, apply),
    ev.Renege: lambda tx, event: renege.claim_renege(tx, event, apply),
}


def open_reneges(state: State) -> tuple[tuple[int, int], ...]:
    """Each (offender, claimer) a ``Renege`` event would be taken for now (ACC rule 7.3)."""
    return renege.open_reneges(state, apply)
