"""``ShowScore.items`` against the itemiser it replaced (``show_reference.py``): the game shows
these items for every hand and crib it counts, and records and golden screens print them, so
the rewrite must give the same items, in the same order, with the same cards in each."""

from __future__ import annotations

import itertools
import random

import pytest

from cribpi.rules import ACC, DECK, PRESETS, Card, Rules, score_hand

from show_reference import reference_items

RULES = [ACC, ACC.replace(crib_four_flush=not ACC.crib_four_flush), PRESETS["five-card"]]


def _same(hand: tuple[Card, ...], starter: Card, crib: bool, rules: Rules) -> None:
    got = score_hand(hand, starter, crib=crib, rules=rules).items
    assert got == reference_items(hand, starter, crib, rules), (hand, starter, crib, rules.name)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}-{r.crib_four_flush}")
def test_random_hands_and_cribs_itemise_as_before(rules: Rules) -> None:
    rng = random.Random(rules.cards_held * 7 + rules.crib_four_flush)
    for _ in range(6000):
        crib = rng.random() < 0.3
        cards = rng.sample(DECK, (4 if crib else rules.cards_held) + 1)
        _same(tuple(cards[:-1]), cards[-1], crib, rules)


def test_flushes_itemise_as_before() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        suit = rng.choice([c.suit for c in DECK[:4]])
        cards = rng.sample([c for c in DECK if c.suit is suit], 5)
        starter = cards[-1] if rng.random() < 0.5 else rng.choice([c for c in DECK if c not in cards])
        for rules in RULES[:2]:
            _same(tuple(cards[:4]), starter, rng.random() < 0.5, rules)


def test_every_rank_multiset_with_each_card_as_the_starter_itemises_as_before() -> None:
    for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        seen = [0] * 14
        cards = []
        for r in ranks:  # the n-th card of a rank takes suit n, so nobs turn up too
            cards.append(Card(r, (seen[r] + r) % 4))
            seen[r] += 1
        for i, starter in enumerate(cards):
            _same(tuple(cards[:i] + cards[i + 1:]), starter, False, ACC)
