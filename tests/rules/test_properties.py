"""Properties of the show and the play, checked on random cards with hypothesis.

The independent implementations here are written straight from the definitions in RULES.md
and share no code with cribpi.rules: brute force over subsets, no tables.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribpi.exc import RulesError
from cribpi.rules import ACC, DECK, FIVE_CARD, Card, Suit, score_hand, score_play

five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
four_cards = st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True)
suit_maps = st.permutations(list(Suit))


def split(cards: Sequence[Card]) -> tuple[list[Card], Card]:
    return list(cards[:-1]), cards[-1]


# -- an independent show scorer, from the definitions ------------------------------------

def pip(card: Card) -> int:
    return min(int(card.rank), 10)


def reference_show(hand: Sequence[Card], starter: Card, crib: bool, four_flush_crib: bool = False) -> int:
    cards = [*hand, starter]
    subsets = [s for k in range(2, len(cards) + 1) for s in itertools.combinations(cards, k)]
    fifteens = 2 * sum(1 for s in subsets if sum(pip(c) for c in s) == 15)
    pairs = 2 * sum(1 for a, b in itertools.combinations(cards, 2) if a.rank == b.rank)
    runs = 0
    for k in range(len(cards), 2, -1):
        found = [
            s for s in itertools.combinations(cards, k)
            if sorted(int(c.rank) for c in s) == list(range(min(int(c.rank) for c in s), min(int(c.rank) for c in s) + k))
        ]
        if found:
            runs = k * len(found)
            break
    flush = 0
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            flush = len(hand) + 1
        elif not crib or four_flush_crib:
            flush = len(hand)
    nobs = sum(1 for c in hand if int(c.rank) == 11 and c.suit == starter.suit)
    return fifteens + pairs + runs + flush + nobs


@settings(max_examples=400)
@given(five_cards, st.booleans())
def test_show_agrees_with_an_independent_scorer(cards: list[Card], crib: bool) -> None:
    hand, starter = split(cards)
    assert score_hand(hand, starter, crib=crib).total == reference_show(hand, starter, crib)


@given(five_cards)
def test_four_flush_crib_option_agrees_with_an_independent_scorer(cards: list[Card]) -> None:
    hand, starter = split(cards)
    rules = ACC.replace(crib_four_flush=True)
    assert score_hand(hand, starter, crib=True, rules=rules).total == reference_show(hand, starter, True, True)


@given(four_cards)
def test_five_card_variant_agrees_with_an_independent_scorer(cards: list[Card]) -> None:
    hand, starter = split(cards)
    assert score_hand(hand, starter, rules=FIVE_CARD).total == reference_show(hand, starter, False)


@given(five_cards, st.data())
def test_total_does_not_depend_on_the_order_of_the_hand(cards: list[Card], data: st.DataObject) -> None:
    hand, starter = split(cards)
    shuffled = data.draw(st.permutations(hand))
    for crib in (False, True):
        assert score_hand(shuffled, starter, crib=crib).total == score_hand(hand, starter, crib=crib).total


@given(five_cards, suit_maps)
def test_renaming_the_suits_changes_nothing(cards: list[Card], suits: list[Suit]) -> None:
    renamed = [Card(c.rank, suits[c.suit]) for c in cards]
    for crib in (False, True):
        before = score_hand(*split(cards), crib=crib)
        after = score_hand(*split(renamed), crib=crib)
        assert after.total == before.total
        assert sorted((i.kind, i.points) for i in after.items) == sorted((i.kind, i.points) for i in before.items)


@settings(max_examples=400)
@given(five_cards)
def test_totals_are_never_impossible(cards: list[Card]) -> None:
    for crib in (False, True):
        total = score_hand(*split(cards), crib=crib).total
        assert 0 <= total <= 29
        assert total not in (19, 25, 26, 27)


@given(five_cards)
def test_a_crib_never_scores_more_than_the_same_cards_as_a_hand(cards: list[Card]) -> None:
    hand, starter = split(cards)
    as_hand = score_hand(hand, starter).total
    as_crib = score_hand(hand, starter, crib=True).total
    assert as_crib <= as_hand
    four_flush = len({c.suit for c in hand}) == 1 and starter.suit != hand[0].suit
    assert as_hand - as_crib == (4 if four_flush else 0)


@given(five_cards, st.booleans())
def test_items_sum_to_the_total(cards: list[Card], crib: bool) -> None:
    score = score_hand(*split(cards), crib=crib)
    assert sum(item.points for item in score.items) == score.total
    assert score.as_dict()["total"] == score.total
    assert score.explain()


@settings(max_examples=400)
@given(st.lists(st.sampled_from(DECK[:8]), min_size=4, max_size=5), st.booleans(), st.booleans())
def test_a_card_given_more_than_once_is_always_refused(cards: list[Card], crib: bool, five_card: bool) -> None:
    """score_hand sums one packed code per card, with a 3-bit count per card: two to five
    copies of a card must never pass for different cards. Drawn from eight cards, so that
    repeats are common; each draw is a three- or four-card hand with the starter."""
    hand, starter = split(cards)
    rules = FIVE_CARD if five_card else ACC
    if len(hand) != (4 if crib else rules.cards_held):
        return
    first_repeat = next((c for i, c in enumerate(cards) if c in cards[:i]), None)
    if first_repeat is None:
        assert score_hand(hand, starter, crib=crib, rules=rules).total == reference_show(hand, starter, crib)
        return
    where = "is the starter and also in the hand" if first_repeat is starter else "appears twice"
    with pytest.raises(RulesError, match=f"^{first_repeat} {where}: every card must be different$"):
        score_hand(hand, starter, crib=crib, rules=rules)


# -- the play ----------------------------------------------------------------------------

@st.composite
def legal_counts(draw: st.DrawFn) -> list[Card]:
    """A count as it can arise in the play: distinct cards, never past 31."""
    cards = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=13, unique=True))
    count: list[Card] = []
    running = 0
    for card in cards:
        if running + pip(card) > 31:
            break
        count.append(card)
        running += pip(card)
    return count


def reference_play(count: Sequence[Card]) -> int:
    running = sum(pip(c) for c in count)
    points = 2 if running in (15, 31) else 0
    same = 1
    while same < len(count) and count[-same - 1].rank == count[-1].rank:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for k in range(len(count), 2, -1):
        ranks = sorted(int(c.rank) for c in count[-k:])
        if ranks == list(range(ranks[0], ranks[0] + k)):
            points += k
            break
    return points


@settings(max_examples=500)
@given(legal_counts())
def test_play_agrees_with_an_independent_scorer(count: list[Card]) -> None:
    score = score_play(count)
    assert score.total == reference_play(count)
    assert score.running == sum(pip(c) for c in count) <= 31
    assert sum(item.points for item in score.items) == score.total


@st.composite
def low_counts(draw: st.DrawFn) -> list[Card]:
    """Counts made of low cards only, so that long runs and pairs are common."""
    low = [c for c in DECK if int(c.rank) <= 7]
    cards = draw(st.lists(st.sampled_from(low), min_size=1, max_size=10, unique=True))
    count: list[Card] = []
    for card in cards:
        if sum(pip(c) for c in count) + pip(card) > 31:
            break
        count.append(card)
    return count


@settings(max_examples=500)
@given(low_counts())
def test_play_agrees_on_low_cards_too(count: list[Card]) -> None:
    assert score_play(count).total == reference_play(count)


@given(legal_counts(), suit_maps)
def test_play_ignores_suits(count: list[Card], suits: list[Suit]) -> None:
    renamed = [Card(c.rank, suits[c.suit]) for c in count]
    assert score_play(renamed).total == score_play(count).total
