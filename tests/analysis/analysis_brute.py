"""Plain brute force for the discard analysis tests: loops calling score_hand, nothing clever.

Every set of unknown crib cards (an unordered combination) and every starter left over is
dealt and scored, so the results are exact by construction and slow by design.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from cribpi.rules import Card, Rules, score_hand


def hand_counts(keep: Sequence[Card], pool: Sequence[Card], rules: Rules) -> Counter[int]:
    """Number of starters from ``pool`` giving each hand score."""
    return Counter(score_hand(keep, starter, rules=rules).total for starter in pool)


def crib_ev(discard: Sequence[Card], pool: Sequence[Card], unknown: int, rules: Rules) -> Fraction:
    """Mean crib score over every ``unknown``-card set from ``pool`` and every starter left."""
    total = deals = 0
    for others in itertools.combinations(pool, unknown):
        crib = (*discard, *others)
        for starter in pool:
            if starter in others:
                continue
            total += score_hand(crib, starter, crib=True, rules=rules).total
            deals += 1
    return Fraction(total, deals)


def mismatches(expected: dict[str, object], actual: dict[str, object]) -> str:
    """Per-discard differences, one a line, so a failure points at the discard that is wrong."""
    lines = [
        f"  {key}: brute force {expected[key]}, analysis {actual.get(key)}"
        for key in expected
        if expected[key] != actual.get(key)
    ]
    return "\n".join(lines)
