"""ACC standings and the playoff bracket, from confirmed results only.

Game points: a win 2, a skunk 3, a double skunk 3 (nothing extra), a loss 0. Rank by game
points, then games won, then spread (points for minus against). The top quarter qualifies
(``ceil(entrants / 4)``); the bracket is the next power of two, the missing places being byes
for the top seeds. Standings change by one result at a time (:meth:`Standings.add`), never by
recounting the event.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ACC_POINTS", "Line", "Standings", "Match", "cut", "seed_order", "bracket"]

ACC_POINTS = {"win": 2, "skunk": 3, "double_skunk": 3, "lurch": 2}  # a lurch (Hoyle) is a plain win under ACC


@dataclass
class Line:
    name: str
    games: int = 0
    won: int = 0
    points: int = 0
    spread: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "won": self.won, "points": self.points, "spread": self.spread}


@dataclass(frozen=True)
class Outcome:
    """A confirmed game between sides, as the standings count it: the winning side's entrants
    (one, or both partners of a partnership whose partners entered one by one) and every
    losing side's."""

    winners: tuple[str, ...]
    losers: tuple[str, ...]
    kind: str
    margin: int
    sides: int = 2


class Standings:
    def __init__(self, players: Sequence[str] = ()) -> None:
        self.lines: dict[str, Line] = {}
        for name in players:
            self.register(name)

    def register(self, name: str) -> None:
        self.lines.setdefault(name, Line(name))

    def add(self, outcome: Outcome, sign: int = 1) -> None:
        """Count a result (``sign=-1`` takes one back: a correction is a take-back and an add).
        The spread stays zero-sum: each winner gains the margin over each losing side."""
        for name in outcome.winners:
            win = self.lines[name]
            win.games += sign
            win.won += sign
            win.points += sign * ACC_POINTS[outcome.kind]
            win.spread += sign * outcome.margin * (outcome.sides - 1)
        for name in outcome.losers:
            line = self.lines[name]
            line.games += sign
            line.spread -= sign * outcome.margin

    def ranked(self) -> list[Line]:
        return sorted(self.lines.values(), key=lambda x: (-x.points, -x.won, -x.spread, x.name))


def cut(entrants: int) -> int:
    """How many qualify for the playoffs: the top quarter, rounded up."""
    return math.ceil(entrants / 4)


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order, so 1 meets 2 only in the final: 1 v 8, 4 v 5, 2 v 7, 3 v 6 for 8."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2 + 1
        order = [x for seed in order for x in (seed, n - seed)]
    return order


@dataclass
class Match:
    a: str | None  # None: not decided yet
    b: str | None
    best_of: int
    wins: list[int] = field(default_factory=lambda: [0, 0])
    bye: bool = False  # a top seed's free pass: ``a`` goes through

    @property
    def winner(self) -> str | None:
        if self.bye:
            return self.a
        need = self.best_of // 2 + 1
        if self.wins[0] >= need:
            return self.a
        if self.wins[1] >= need:
            return self.b
        return None

    def as_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "best_of": self.best_of, "wins": list(self.wins), "bye": self.bye,
                "winner": self.winner}


def bracket(seeds: Sequence[str], games: Mapping[frozenset[str], Counter[str]], *, best_of: int = 3,
            final_best_of: int = 5) -> list[list[Match]]:
    """The single-elimination bracket of ``seeds`` (best first), its rounds filled from the
    playoff games won between each pair (``games[{a, b}][winner]``). Byes go to the top seeds."""
    if len(seeds) < 2:
        return []
    size = 1 << (len(seeds) - 1).bit_length()
    order = seed_order(size)
    entrants: list[str | None] = [seeds[s - 1] if s <= len(seeds) else None for s in order]
    rounds: list[list[Match]] = []
    while len(entrants) > 1:
        final = len(entrants) == 2
        matches = []
        for a, b in zip(entrants[::2], entrants[1::2]):
            match = Match(a, b, final_best_of if final else best_of, bye=not rounds and b is None)
            if a is not None and b is not None:
                won = games.get(frozenset((a, b)), Counter())
                match.wins = [won[a], won[b]]
            matches.append(match)
        rounds.append(matches)
        entrants = [m.winner for m in matches]
    return rounds
