"""The perft of cribbage: every (4-card hand, starter) combination against the published table.

tests/reference/hand_distribution.json holds the distribution of show scores over all
52C4 x 48 = 12,994,800 combinations (S. Lumetta, "Amusing cribbage facts"; Wikipedia,
"Cribbage statistics"). On a mismatch the message lists every score whose count differs,
so the bug localises itself.

cribpi's own ``score_hand`` scores the combinations, one per shape (``hand_shapes.py``): the
652,353 shapes are the combinations with the suits' names forgotten, and every combination of
a shape is the same cards under other suit names, which no count of the show looks at. So each
shape's total, counted as many times as the shape has combinations (24, 12 or 4), is exactly
the histogram of all 12,994,800 scored one by one, in 1/20 of the calls.
``test_a_combination_scores_as_its_shape`` checks that premise on random combinations against
the representative actually scored, and ``test_properties`` checks on random hands that
renaming the suits or reordering the hand changes no total.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hand_shapes import combinations_of, hand_distribution, representative, shape_of, shapes

from cribpi.rules import DECK, Card, Rank, ShowScore, Suit, score_hand

REFERENCE = Path(__file__).resolve().parent.parent / "reference" / "hand_distribution.json"


def load_reference() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return data


def distribution_diff(got: list[int], want: Mapping[str, int]) -> str:
    rows = []
    for total in range(max(len(got), 30)):
        have = got[total] if total < len(got) else 0
        expected = want.get(str(total), 0)
        if have != expected:
            label = str(total) if total < 30 else "not 0-29"
            rows.append(f"  score {label:>3}: got {have:>9,}  published {expected:>9,}  diff {have - expected:+,}")
    return "hand-score distribution differs from the published table:\n" + "\n".join(rows)


@pytest.fixture(scope="module")
def enumeration() -> tuple[list[int], int]:
    counts, crib_zero, counted = hand_distribution()
    assert counted == 12_994_800, "the shapes do not stand for every combination once"
    return counts, crib_zero


def test_reference_file_is_consistent() -> None:
    data = load_reference()
    assert "Lumetta" in " ".join(data["source"]) and "Cribbage statistics" in " ".join(data["source"])
    counts = {int(k): v for k, v in data["hand"]["counts"].items()}
    assert sum(counts.values()) == data["combinations"] == 12_994_800
    assert sum(k * v for k, v in counts.items()) == data["hand"]["points_total"] == 61_974_180
    assert all(counts[t] == 0 for t in (19, 25, 26, 27))


@pytest.mark.slow
def test_hand_distribution_matches_the_published_table(enumeration: tuple[list[int], int]) -> None:
    got, _ = enumeration
    want = load_reference()["hand"]["counts"]
    assert got == [want.get(str(t), 0) for t in range(30)], distribution_diff(got, want)


@pytest.mark.slow
def test_mean_hand_score(enumeration: tuple[list[int], int]) -> None:
    got, _ = enumeration
    data = load_reference()
    points = sum(total * n for total, n in enumerate(got))
    assert sum(got) == data["combinations"]
    assert points == data["hand"]["points_total"]
    assert Fraction(points, sum(got)) == Fraction(61_974_180, 12_994_800)
    assert round(points / sum(got), 6) == data["hand"]["mean"]


@pytest.mark.slow
def test_zero_point_cribs(enumeration: tuple[list[int], int]) -> None:
    _, crib_zero = enumeration
    assert crib_zero == load_reference()["crib"]["zero"]


def test_diff_message_names_each_differing_score() -> None:
    want = {"0": 10, "4": 5}
    message = distribution_diff([10, 0, 0, 0, 4, 1] + [0] * 24, want)
    assert "score   4: got         4  published         5  diff -1" in message
    assert "score   5: got         1  published         0  diff +1" in message
    assert "score   0" not in message


def random_combinations(n: int, seed: int) -> list[tuple[tuple[Card, ...], Card]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        *hand, starter = rng.sample(DECK, 5)
        out.append((tuple(sorted(hand, key=lambda card: card.index)), starter))
    return out


def test_a_combination_scores_as_its_shape() -> None:
    """The premise of counting by shape, on random combinations: each scores (as a hand and as
    a crib) what the representative of its shape scores, the representative has that shape,
    and the shape stands for as many combinations as renaming the suits makes of it."""
    for hand, starter in random_combinations(2000, seed=29):
        shape = shape_of(hand, starter)
        scored = representative(shape)
        assert shape_of(*scored) == shape, (hand, starter, scored)
        for crib in (False, True):
            assert score_hand(hand, starter, crib=crib).total == score_hand(*scored, crib=crib).total, (hand, starter, scored)
        renamed = {(frozenset(Card(c.rank, suits[c.suit]) for c in hand), Card(starter.rank, suits[starter.suit]))
                   for suits in itertools.permutations(Suit)}
        assert len(renamed) == combinations_of(shape), (hand, starter)


def test_the_shapes_are_every_combination_once() -> None:
    every = list(shapes())
    assert len(every) == len({shape for shape, _ in every}) == 652_353
    assert sum(ways for _, ways in every) == 12_994_800
    assert all(ways == combinations_of(shape) for shape, ways in every)


def nobs_lost_on_hearts(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> ShowScore:
    """cribpi's scorer with a bug for one suit: a jack of hearts held is no nobs."""
    score = score_hand(hand, starter, crib=crib)
    if starter.suit is Suit.HEARTS and Card(Rank.JACK, Suit.HEARTS) in hand:
        score.total -= 1
    return score


@pytest.mark.slow
def test_a_scorer_wrong_in_one_suit_does_not_match() -> None:
    """The representatives use every suit in every role: a scorer wrong for hearts only gives
    another histogram (with one naming for all, the starter never a heart, it would match), and
    the message names the scores that moved: combinations whose one point was his nobs now
    score nothing."""
    got, _, counted = hand_distribution(nobs_lost_on_hearts)
    want = [load_reference()["hand"]["counts"].get(str(t), 0) for t in range(30)]
    assert counted == sum(got) == 12_994_800
    assert got[0] > want[0] and got[1] < want[1]
    assert sum(t * n for t, n in enumerate(got)) < sum(t * n for t, n in enumerate(want))
    message = distribution_diff(got, load_reference()["hand"]["counts"])
    assert f"score   0: got {got[0]:>9,}  published {want[0]:>9,}  diff +{got[0] - want[0]:,}" in message
    assert f"score   1: got {got[1]:>9,}  published {want[1]:>9,}  diff {got[1] - want[1]:,}" in message
