"""The show's itemiser as it was before it was rewritten without generators, kept word for
word (less its speech) as the reference ``test_show_items.py`` compares ``ShowScore.items``
with: the game shows these items for every hand it counts, so they must not change."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterator

from cribpi.rules import Card, Rules, ScoreItem, Suit, rank_points_table
from cribpi.rules.cards import Rank

_NOBS = tuple(Card(Rank.JACK, s) for s in Suit)
_BY_INDEX = operator.attrgetter("index")
_BY_RANK = operator.attrgetter("rank")
_PAIR_NAMES = {2: "pair", 3: "pair royal", 4: "double pair royal"}


def reference_items(hand: tuple[Card, ...], starter: Card, crib: bool, rules: Rules) -> tuple[ScoreItem, ...]:
    return tuple(_itemise(hand, starter, crib, rules))


def _flush_points(cards: int, with_starter: bool, crib: bool, rules: Rules) -> int:
    if with_starter:
        return cards + 1
    return 0 if crib and not rules.crib_four_flush else cards


def _itemise(hand: tuple[Card, ...], starter: Card, crib: bool, rules: Rules) -> Iterator[ScoreItem]:
    held = tuple(sorted(hand, key=_BY_INDEX))
    cards = held + (starter,)
    by_rank = _by_rank(cards)
    pairs = list(_pairs(by_rank))
    runs = list(_runs(by_rank))
    # The table knows the points; what pairs and runs do not make, fifteens do (two each).
    fifteen_points = rank_points_table()[sum(c.rank_bit for c in cards)] - sum(i.points for i in (*pairs, *runs))
    yield from _fifteens(cards, fifteen_points // 2)
    yield from pairs
    yield from runs
    suit = hand[0].suit
    if all(card.suit is suit for card in hand):
        flush = _flush_points(len(hand), suit is starter.suit, crib, rules)
        if flush:
            yield ScoreItem("flush", cards if flush > len(hand) else held, flush)
    jack = _NOBS[starter.suit]
    if jack in hand:
        yield ScoreItem("nobs", (jack,), 1)


def _fifteens(cards: tuple[Card, ...], wanted: int) -> Iterator[ScoreItem]:
    if wanted <= 0:
        return
    values = [card.value for card in cards]
    for k in range(2, len(cards) + 1):
        for combo_values, combo in zip(itertools.combinations(values, k), itertools.combinations(cards, k)):
            if sum(combo_values) == 15:
                yield ScoreItem("fifteen", combo, 2)
                wanted -= 1
                if not wanted:
                    return


def _by_rank(cards: tuple[Card, ...]) -> dict[int, list[Card]]:
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards, key=_BY_RANK):
        by_rank.setdefault(card.rank, []).append(card)
    return by_rank


def _pairs(by_rank: dict[int, list[Card]]) -> Iterator[ScoreItem]:
    for same in by_rank.values():
        if len(same) >= 2:
            yield ScoreItem(_PAIR_NAMES[len(same)], tuple(same), len(same) * (len(same) - 1))


def _runs(by_rank: dict[int, list[Card]]) -> Iterator[ScoreItem]:
    stretch: list[int] = []
    best: list[int] = []
    for rank in by_rank:
        stretch = stretch + [rank] if stretch and rank == stretch[-1] + 1 else [rank]
        if len(stretch) > len(best):
            best = stretch
    if len(best) >= 3:
        for run in itertools.product(*(by_rank[r] for r in best)):
            yield ScoreItem("run", run, len(best))
