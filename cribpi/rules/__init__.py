"""The rules of cribbage: cards, show and play scoring with reasons, rule presets.

Pure and standard-library only; everything else in cribpi stands on it.
"""

from cribpi.exc import CardError, RulesError
from cribpi.rules.cards import DECK, Card, Rank, Suit, format_cards, parse_cards
from cribpi.rules.play import MAX_COUNT, PlayScore, count_total, playable, score_play
from cribpi.rules.presets import (
    ACC,
    ACC_TOURNAMENT,
    FIVE_CARD,
    HOYLE,
    LEAFLET,
    PRESETS,
    GameResult,
    MugginsScope,
    ResultKind,
    ResultScheme,
    Rules,
    classify_result,
    get_rules,
)
from cribpi.rules.items import ScoreItem
from cribpi.rules.show import ShowScore, rank_multiset_points, rank_points_table, score_hand
from cribpi.rules.speech import number_words

__all__ = [
    "ACC", "ACC_TOURNAMENT", "DECK", "FIVE_CARD", "HOYLE", "LEAFLET", "MAX_COUNT", "PRESETS",
    "Card", "CardError", "GameResult", "MugginsScope", "PlayScore", "Rank", "ResultKind",
    "ResultScheme", "Rules", "RulesError", "ScoreItem", "ShowScore", "Suit",
    "classify_result", "count_total", "format_cards", "get_rules", "number_words",
    "parse_cards", "playable", "rank_multiset_points", "rank_points_table", "score_hand", "score_play",
]
