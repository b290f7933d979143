"""All 12,994,800 (4-card hand, starter) combinations, scored one shape at a time by cribpi's
own ``score_hand``: what ``test_reference.py`` checks against the published table, and what
``benchmarks/bench_rules.py`` times.

A combination's *shape* is what is left of it once the suits' names are forgotten: the
starter's rank, the set of held ranks in the starter's suit, and the sets of held ranks in the
other three suits, as a multiset (which of those suits holds which set is forgotten). Two
combinations have the same shape exactly when renaming the suits turns one into the other.
There are 652,353 shapes. A shape whose three other sets are all different is 4 x 3! = 24
combinations (4 choices of the starter's suit, 3! ways to give the sets to the others); two
sets alike make it 12, three alike 4. The counts add up to 52C4 x 48 = 12,994,800
(``hand_distribution`` checks that they do).

Why one score per shape is every combination's score: the combinations of one shape are the
same cards under other suit names, and a show counts no suit by its name. Fifteens, pairs and
runs are counted on the ranks alone; the flush asks whether the held cards share a suit and
whether the starter has it too; his nobs whether a held jack is of the starter's suit; all of
which is the same under any renaming. So scoring one combination of each shape and counting
its total as many times as the shape has combinations gives the very histogram that scoring
all 12,994,800 one by one gives, in 1/20 of the calls. That cribpi's scorer really ignores
the suits' names and the order of the hand is checked in ``test_properties.py`` on random
hands, and ``test_reference.py`` compares random combinations with their shape's
representative here.

The combination scored for a shape (its representative) does not always use the same names:
the shape's numbers pick one of the 24 ways to name its suits, so that across the shapes every
suit is the starter's suit, the flush suit and the suit of each held set. A scorer that went
wrong for one suit only (his nobs missed when the starter is a heart, say) changes the totals
of thousands of representatives and so the histogram; with one fixed naming it could hide.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence

from cribpi.rules import DECK, Card, ShowScore, score_hand

#: ``SUBSETS[k]``: every set of ``k`` ranks (0 = ace .. 12 = king), ``k`` = 0..4, in
#: ``itertools.combinations`` order; a set is named by ``k`` and its index here.
SUBSETS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(itertools.combinations(range(13), k)) for k in range(5))
_INDEX: dict[tuple[int, ...], int] = {s: i for subsets in SUBSETS for i, s in enumerate(subsets)}
#: The 24 ways to name the suits of a shape: ``NAMINGS[p][role]`` is the suit of role 0 (the
#: starter's suit) and of roles 1-3 (the other three sets, in the shape's order).
NAMINGS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(4)))
#: ``_CARDS[p][role][k][i]``: the cards of set ``SUBSETS[k][i]`` in the suit of ``role`` under
#: naming ``p``, built once so that a representative is four tuples added.
_CARDS: tuple[tuple[tuple[tuple[tuple[Card, ...], ...], ...], ...], ...] = tuple(
    tuple(tuple(tuple(tuple(DECK[4 * r + naming[role]] for r in s) for s in SUBSETS[k]) for k in range(5))
          for role in range(4))
    for naming in NAMINGS)

#: A shape: starter rank (0-12); the starter's suit's set (size, index); the other three sets
#: (size, index) each, largest first, then by index.
Shape = tuple[int, int, int, int, int, int, int, int, int]
Scorer = Callable[..., ShowScore]


def _others(n: int) -> list[tuple[int, int, int, int, int, int, int]]:
    """Every multiset of three rank sets holding ``n`` cards in all, as (size, index) x 3 and
    the number of ways to give them to three suits (6, 3 when two are alike, 1 when all are)."""
    out = []
    for a in range(n, -1, -1):
        for b in range(min(a, n - a), -1, -1):
            c = n - a - b
            if c > b:
                continue
            for i in range(len(SUBSETS[a])):
                for j in range(i if b == a else 0, len(SUBSETS[b])):
                    for k in range(j if c == b else 0, len(SUBSETS[c])):
                        out.append((a, i, b, j, c, k, _ways_to_give(a, i, b, j, c, k)))
    return out


def _ways_to_give(a: int, i: int, b: int, j: int, c: int, k: int) -> int:
    """The ways to give three rank sets, (size, index) each, in order, to three suits."""
    return (6, 3, 1)[(a == b and i == j) + (b == c and j == k)]


def combinations_of(shape: Shape) -> int:
    """How many combinations ``shape`` stands for (as :func:`shapes` gives it)."""
    return 4 * _ways_to_give(*shape[3:])


def shapes() -> Iterator[tuple[Shape, int]]:
    """Every shape once, with the number of combinations it stands for."""
    others = [_others(n) for n in range(5)]
    for r in range(13):
        for k0 in range(5):
            for i0, held in enumerate(SUBSETS[k0]):
                if r in held:  # the starter is not held too
                    continue
                for a, i, b, j, c, k, ways in others[4 - k0]:
                    yield (r, k0, i0, a, i, b, j, c, k), 4 * ways


def naming_of(shape: Shape) -> int:
    """Which of the 24 namings the shape's representative uses: any rule would do that spreads
    the suits over every role; this one is a sum of the shape's numbers."""
    return (5 * shape[0] + shape[2] + shape[4] + shape[6] + shape[8]) % 24


def representative(shape: Shape) -> tuple[tuple[Card, ...], Card]:
    """The (hand, starter) scored for ``shape``: the starter's suit's cards first, then the
    three other sets'."""
    r, k0, i0, a, i, b, j, c, k = shape
    p = naming_of(shape)
    cards = _CARDS[p]
    return cards[0][k0][i0] + cards[1][a][i] + cards[2][b][j] + cards[3][c][k], DECK[4 * r + NAMINGS[p][0]]


def shape_of(hand: Sequence[Card], starter: Card) -> Shape:
    """The shape of a combination (the inverse of :func:`representative` up to suit names)."""
    held = [tuple(sorted(card.rank - 1 for card in hand if card.suit == suit)) for suit in range(4)]
    own = held[starter.suit]
    others = sorted(((len(s), _INDEX[s]) for n, s in enumerate(held) if n != starter.suit),
                    key=lambda size_index: (-size_index[0], size_index[1]))
    (a, i), (b, j), (c, k) = others
    return starter.rank - 1, len(own), _INDEX[own], a, i, b, j, c, k


def hand_distribution(score: Scorer = score_hand) -> tuple[list[int], int, int]:
    """``score`` over every combination, by shape: the number of combinations with each hand
    total (index = total; one more entry, totals outside 0-29, when there are any), the number
    whose crib total is zero, and the number of combinations counted (12,994,800).

    By the rules a crib counts as a hand but for the flush: only four held cards of one suit
    can count differently, so only those shapes (15,730) are scored again with ``crib=True``
    (``test_properties`` checks that a crib never counts more, and the independent scorer
    there that it differs only in the flush).
    """
    totals: dict[int, list[int]] = {24: [], 12: [], 4: []}  # by the number of combinations a shape is
    flush_hand: dict[int, list[int]] = {24: [], 12: [], 4: []}
    flush_crib: dict[int, list[int]] = {24: [], 12: [], 4: []}
    for shape, ways in shapes():
        hand, starter = representative(shape)
        total = score(hand, starter).total
        totals[ways].append(total)
        if shape[1] == 4 or shape[3] == 4:  # all four held cards in one suit
            flush_hand[ways].append(total)
            flush_crib[ways].append(score(hand, starter, crib=True).total)
    counted = sum(ways * len(t) for ways, t in totals.items())
    counts = [sum(ways * t.count(total) for ways, t in totals.items()) for total in range(30)]
    if sum(counts) != counted:
        counts.append(counted - sum(counts))  # totals outside 0-29: surface in the diff
    crib_zero = counts[0] + sum(ways * (flush_crib[ways].count(0) - flush_hand[ways].count(0)) for ways in totals)
    return counts, crib_zero, counted
