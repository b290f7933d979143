"""Cards entered beside the play: a hand declared whole, a seat's discard, the crib.

A hand or the crib entered in the show lets the count go on; a hand entered after its
holder said go may reveal a renege.
"""

from __future__ import annotations

from cribpi.exc import RulesError
from cribpi.game import events as ev
from cribpi.game.play import check_renege
from cribpi.game.show import advance_show
from cribpi.game.state import Phase
from cribpi.game.queries import not_in_crib_words
from cribpi.game.transaction import Tx, check_seat, check_unseen, need_phase, who

__all__ = ["enter_hand", "enter_discard", "enter_crib"]


def enter_hand(tx: Tx, event: ev.HandCards) -> None:
    state = tx.state
    need_phase(state, event, Phase.STARTER, Phase.PLAY, Phase.SHOW)
    seat = check_seat(state, event.seat)
    deal = tx.deal
    cards = tuple(event.cards)
    if deal.declared[seat] is not None:
        raise RulesError(f"{who(state, seat)}'s hand is already entered: undo to change it")
    if len(cards) != state.rules.cards_held:
        raise RulesError(f"a hand has {state.rules.cards_held} cards, not {len(cards)}")
    laid = deal.cards_of(seat)
    missing = [c for c in laid if c not in cards]
    if missing:
        raise RulesError(f"{who(state, seat)} laid {missing[0]} in the play, so the hand must include it")
    check_unseen(deal, cards, "hand", allowed=set(laid))
    declared = list(deal.declared)
    declared[seat] = cards
    tx.set_deal(declared=tuple(declared), seen_bits=deal.seeing(cards))
    check_renege(tx, seat, tuple(c for c in cards if c not in laid))
    if state.phase is Phase.SHOW:
        advance_show(tx)


def enter_discard(tx: Tx, event: ev.Discard) -> None:
    state = tx.state
    need_phase(state, event, Phase.STARTER, Phase.PLAY, Phase.SHOW, Phase.DONE)
    seat = check_seat(state, event.seat)
    deal = tx.deal
    cards = tuple(event.cards)
    if deal.discards[seat] is not None:
        raise RulesError(f"{who(state, seat)}'s discard is already entered: undo to change it")
    if len(cards) != state.rules.discards_each:
        raise RulesError(f"a discard is {state.rules.discards_each} card(s) here, not {len(cards)}")
    if deal.crib:
        strays = [c for c in cards if c not in deal.crib]
        if strays:
            raise RulesError(not_in_crib_words(strays[0], deal.crib))
        check_unseen(deal, cards, "discard", allowed=set(deal.crib))
    else:
        check_unseen(deal, cards, "discard")
    discards = list(deal.discards)
    discards[seat] = cards
    tx.set_deal(discards=tuple(discards), seen_bits=deal.seeing(cards))


def enter_crib(tx: Tx, event: ev.Crib) -> None:
    state = tx.state
    need_phase(state, event, Phase.STARTER, Phase.PLAY, Phase.SHOW)
    cards = tuple(event.cards)
    if tx.deal.crib:
        raise RulesError("the crib is already entered: undo to change it")
    if len(cards) != 4:
        raise RulesError(f"the crib has 4 cards, not {len(cards)}")
    thrown = {c for d in tx.deal.discards if d for c in d}
    if not thrown <= set(cards):
        missing = sorted(thrown - set(cards))
        raise RulesError(f"the crib must hold the discards entered: {' '.join(map(str, missing))} missing")
    check_unseen(tx.deal, cards, "crib", allowed=thrown)
    tx.set_deal(crib=cards, seen_bits=tx.deal.seeing(cards))
    if state.phase is Phase.SHOW:
        advance_show(tx)
