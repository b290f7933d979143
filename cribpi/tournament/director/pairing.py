"""Seating a round: players in pairs at the event's tables, at random, Swiss-style (on the
standings, each beside the next player they have not met yet), or the playoff matches waiting
in the bracket. An odd player out sits out."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cribpi.exc import ConfigError

__all__ = ["seat_random", "seat_swiss", "seat_pairs", "METHODS"]

METHODS = ("random", "swiss", "bracket")


def _seat(order: Sequence[str], tables: Sequence[str]) -> dict[str, list[str]]:
    return seat_pairs([list(order[i:i + 2]) for i in range(0, len(order) - 1, 2)], tables)


def seat_pairs(pairs: Sequence[list[str]], tables: Sequence[str]) -> dict[str, list[str]]:
    """Each pair at the next table, in order."""
    if len(pairs) > len(tables):
        raise ConfigError(f"{len(pairs)} games need {len(pairs)} tables; the event has {len(tables)}")
    return dict(zip(tables, map(list, pairs)))


def seat_random(players: Sequence[str], tables: Sequence[str], rng: random.Random) -> dict[str, list[str]]:
    order = list(players)
    rng.shuffle(order)
    return _seat(order, tables)


def seat_swiss(ranked: Sequence[str], tables: Sequence[str], met: set[frozenset[str]]) -> dict[str, list[str]]:
    """Top down: each unseated player meets the best-ranked one below not yet met (or, if they
    have met everyone left, the next one)."""
    left, order = list(ranked), []
    while len(left) > 1:
        first = left.pop(0)
        other = next((p for p in left if frozenset((first, p)) not in met), left[0])
        left.remove(other)
        order += [first, other]
    return _seat(order, tables)
