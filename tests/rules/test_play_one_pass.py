"""``score_play`` (one backward pass) against the scorer it replaced, kept in
``play_reference.py``: the same items, or the same error, for any sequence of cards."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from play_reference import reference_score_play

from cribpi.exc import RulesError
from cribpi.rules import DECK, Card, parse_cards, score_play

#: Low cards make long counts, so runs, pairs and thirty-ones come up often.
LOW = [c for c in DECK if c.rank <= 7]

counts = st.lists(st.sampled_from(LOW), min_size=1, max_size=9, unique=True)


def ending_in_one_rank(prefix: list[Card], rank: int, n: int) -> list[Card]:
    """``prefix`` then ``n`` cards of ``rank`` not already in it: pairs, pairs royal, double pairs royal."""
    return prefix + [c for c in DECK if c.rank == rank and c not in prefix][:n]


same_rank_ends = st.builds(ending_in_one_rank, st.lists(st.sampled_from(LOW), max_size=4, unique=True),
                           st.integers(1, 7), st.integers(2, 4))
any_cards = st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True)
# Not counts at all: repeated cards, past 31, empty, or things that are not cards.
junk = st.lists(st.one_of(st.sampled_from(LOW), st.sampled_from(["5H", 5, None])), max_size=9)


def outcome(call: Callable[[Any], Any], cards: list[object]) -> tuple[str, object]:
    """The items ``call`` gives for ``cards``, or its error message."""
    try:
        result = call(tuple(cards))
    except RulesError as exc:
        return ("error", str(exc))
    return ("items", result if isinstance(result, tuple) else result.items)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(counts, same_rank_ends, any_cards))
def test_the_same_items_as_the_reference(cards: list[Card]) -> None:
    assert outcome(score_play, cards) == outcome(reference_score_play, cards)


@settings(max_examples=1500, deadline=None)
@given(junk)
def test_the_same_error_as_the_reference(cards: list[object]) -> None:
    assert outcome(score_play, cards) == outcome(reference_score_play, cards)


def test_low_cards_reach_every_kind_of_score() -> None:
    """Random draws like the property's make every kind of score."""
    rng = random.Random(11)
    kinds = set()
    for _ in range(2000):
        cards = rng.sample(LOW, rng.randint(1, 9))
        if rng.random() < 0.5:
            cards = ending_in_one_rank(cards[:4], rng.randint(1, 7), rng.randint(2, 4))
        try:
            kinds |= {item.kind for item in reference_score_play(tuple(cards))}
        except RulesError:
            continue
    assert kinds == {"fifteen", "thirty-one", "pair", "pair royal", "double pair royal", "run"}


def test_a_card_laid_twice_is_named_as_the_reference_names_it() -> None:
    a, b, c = parse_cards("AH 2H 3H")
    for cards in ([a, b, a, b], [b, c, a, c, a], [a, "5H", a]):
        assert outcome(score_play, cards)[0] == "error"
        assert outcome(score_play, cards) == outcome(reference_score_play, cards)
