"""The perft of cribbage: every (4-card hand, starter) combination against the published table.

tests/reference/hand_distribution.json holds the distribution of show scores over all
52C4 x 48 = 12,994,800 combinations (S. Lumetta, "Amusing cribbage facts"; Wikipedia,
"Cribbage statistics"). On a mismatch the message lists every score whose count differs,
so the bug localises itself.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cribpi.rules import DECK, score_hand

REFERENCE = Path(__file__).resolve().parent.parent / "reference" / "hand_distribution.json"


def load_reference() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return data


def enumerate_all() -> tuple[list[int], int]:
    """Counts of hand totals (index = total) and the number of zero crib totals.

    By the rules the crib is counted exactly like a hand except for the flush, so only
    four cards of one suit can count differently as a crib; those 137,280 combinations are
    scored again with ``crib=True`` (test_properties checks the "only the flush" claim).
    """
    score = score_hand
    hand_totals = bytearray()
    flush_hand_totals = bytearray()
    flush_crib_totals = bytearray()
    for a, b, c, d in itertools.combinations(range(52), 4):
        hand = (DECK[a], DECK[b], DECK[c], DECK[d])
        starters = DECK[:a] + DECK[a + 1:b] + DECK[b + 1:c] + DECK[c + 1:d] + DECK[d + 1:]
        totals = bytes([score(hand, s).total for s in starters])
        hand_totals += totals
        if hand[0].suit is hand[1].suit is hand[2].suit is hand[3].suit:
            flush_hand_totals += totals
            flush_crib_totals += bytes([score(hand, s, crib=True).total for s in starters])
    counts = [hand_totals.count(t) for t in range(30)]
    if len(hand_totals) != sum(counts):
        counts.append(len(hand_totals) - sum(counts))  # totals above 29: surfaces in the diff
    crib_zero = counts[0] - flush_hand_totals.count(0) + flush_crib_totals.count(0)
    return counts, crib_zero


def distribution_diff(got: list[int], want: Mapping[str, int]) -> str:
    rows = []
    for total in range(max(len(got), 30)):
        have = got[total] if total < len(got) else 0
        expected = want.get(str(total), 0)
        if have != expected:
            label = str(total) if total < 30 else ">29"
            rows.append(f"  score {label:>3}: got {have:>9,}  published {expected:>9,}  diff {have - expected:+,}")
    return "hand-score distribution differs from the published table:\n" + "\n".join(rows)


@pytest.fixture(scope="module")
def enumeration() -> tuple[list[int], int]:
    return enumerate_all()


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
