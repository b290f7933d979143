"""The cribbage table as data: events, immutable state, ``apply``, undo, legal actions.

Pure: no hardware, files or clock. Builds on :mod:`cribpi.rules`.
"""

from cribpi.game.engine import INITIAL, apply, cards_left, claimable, known_hand, open_reneges, show_order
from cribpi.game.events import (
    EVENT_TYPES, Claim, Crib, CutForDeal, Discard, EndDeal, Event, Go, HandCards, Lay, Misdeal, Mode,
    MoveCard, Muggins, MugginsSet, NewGame, NextGame, Peg, Penalty, Renege, Starter, Undo, event_from_dict, random_cut,
)
from cribpi.game.game import Game, replay
from cribpi.game.legal import Expected, can_go, describe_expected, expected, legal_cards
from cribpi.game.state import (
    Alert, AlertKind, DealState, Effect, GameOver, GameRecordResult, MatchOver, Missed, Moment, Pegged,
    Phase, Reason, State, Where,
)

__all__ = [
    "INITIAL", "EVENT_TYPES", "Alert", "AlertKind", "Claim", "Crib", "CutForDeal", "DealState", "Effect",
    "Discard", "EndDeal", "Event", "Expected", "Game", "GameOver", "GameRecordResult", "Go", "HandCards",
    "Lay", "MatchOver", "Misdeal", "Missed", "Mode", "Moment", "MoveCard", "Muggins", "MugginsSet", "NewGame", "NextGame",
    "Peg", "Pegged", "Penalty", "Phase", "Reason", "Renege", "Starter", "State", "Undo", "Where", "apply",
    "can_go", "cards_left", "claimable", "describe_expected", "event_from_dict", "expected", "known_hand",
    "legal_cards", "open_reneges", "random_cut", "replay", "show_order",
]
