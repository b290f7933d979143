"""Rank multisets the discard analysis weighs, each list built once on first use.

Fifteens, pairs and runs depend only on the multiset of ranks. A multiset of ranks is keyed,
as in :mod:`cribpi.rules.show`, by the sum of each card's ``rank_bit`` (three bits per rank),
so the key of a crib is the key of the discard plus the key of the unknown cards; the points
of each key come from the show scorer's own table (:func:`cribpi.rules.rank_points_table`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from math import comb
from typing import Final

__all__ = ["RANK_BITS", "rank_multisets", "multiset_weights"]

#: ``RANK_BITS[i]`` is the ``rank_bit`` of every card of rank ``i + 1``.
RANK_BITS: Final = tuple(1 << 3 * i for i in range(13))

#: ``_COMB[n][m]`` is C(n, m) for the 0..4 cards of one rank.
_COMB: Final = tuple(tuple(comb(n, m) for m in range(5)) for n in range(5))

#: A multiset of ranks: its key, and (rank index, multiplicity) for each rank in it.
Multiset = tuple[int, tuple[tuple[int, int], ...]]


@functools.cache
def rank_multisets(size: int) -> tuple[Multiset, ...]:
    """Every multiset of ``size`` ranks (455 of 3, 1,820 of 4), at most four of a rank."""
    out: list[Multiset] = []
    for ranks in itertools.combinations_with_replacement(range(13), size):
        groups = tuple((r, len(list(g))) for r, g in itertools.groupby(ranks))
        if all(m <= 4 for _, m in groups):
            out.append((sum(RANK_BITS[r] for r in ranks), groups))
    return tuple(out)


def multiset_weights(rank_counts: Sequence[int], size: int) -> list[tuple[int, int]]:
    """``(key, ways)`` for each rank multiset of ``size`` cards that can be drawn from cards
    with ``rank_counts[i]`` cards of rank ``i + 1``; ``ways`` is the number of such draws.

    The ways add up to C(sum(rank_counts), size); multisets that cannot be drawn are left out.
    """
    out: list[tuple[int, int]] = []
    for key, groups in rank_multisets(size):
        ways = 1
        for r, m in groups:
            ways *= _COMB[rank_counts[r]][m]
        if ways:
            out.append((key, ways))
    return out
