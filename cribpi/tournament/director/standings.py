"""ACC standings and the playoff bracket, from confirmed results only.

Game points: a win 2, a skunk 3, a double skunk 3 (nothing extra), a loss 0. Rank by the
ACC's tie-breakers in order (its Cross-checking Guidelines, item 7): game points, games won,
net spread (points for minus against), plus points (the margins of the games won), then
head-to-head in the qualifying games among the players still level (:meth:`Standings.ranking`
says when it applies). Players still level share a rank; their last tie-breaker, a one-game
playoff, is the director's. The top quarter qualifies (``ceil(entrants / 4)``); the bracket is
the next power of two, the missing places being byes for the top seeds. Standings change by
one result at a time (:meth:`Standings.add`), never by recounting the event.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, groupby
from typing import Any

__all__ = ["ACC_POINTS", "Level", "Line", "Match", "Standings", "bracket", "cut", "seed_order"]

ACC_POINTS = {"win": 2, "skunk": 3, "double_skunk": 3, "lurch": 2}  # a lurch (Hoyle) is a plain win under ACC


@dataclass
class Line:
    name: str
    games: int = 0
    won: int = 0
    points: int = 0
    spread: int = 0
    plus: int = 0  # the plus-spread column: the margins of the games won (spread = plus - minus)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "won": self.won, "points": self.points, "spread": self.spread,
                "plus": self.plus}

    @property
    def totals(self) -> tuple[int, int, int, int]:
        """The first four tie-breakers: game points, games won, net spread, plus points."""
        return self.points, self.won, self.spread, self.plus


# What ranks a player who has played: the four totals, then the head-to-head balance among the
# players level on them (0 where head-to-head does not apply). Equal: the same rank.
Level = tuple[int, int, int, int, int]


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
        # (winner, loser) -> qualifying games the winner won against the loser (its side against theirs)
        self.beat: Counter[tuple[str, str]] = Counter()
        for name in players:
            self.register(name)

    def register(self, name: str) -> None:
        self.lines.setdefault(name, Line(name))

    def add(self, outcome: Outcome, sign: int = 1) -> None:
        """Count a result (``sign=-1`` takes one back: a correction is a take-back and an add).
        The spread stays zero-sum: each winner gains the margin over each losing side, and the
        same in plus points (a partner, the side's). Head-to-head: each winner beat each loser."""
        gained = outcome.margin * (outcome.sides - 1)
        for name in outcome.winners:
            win = self.lines[name]
            win.games += sign
            win.won += sign
            win.points += sign * ACC_POINTS[outcome.kind]
            win.spread += sign * gained
            win.plus += sign * gained
            for loser in outcome.losers:
                self.beat[name, loser] += sign
                if not self.beat[name, loser]:
                    del self.beat[name, loser]
        for name in outcome.losers:
            line = self.lines[name]
            line.games += sign
            line.spread -= sign * outcome.margin

    def met(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` have a qualifying game against each other (on opposite sides,
        one of them winning)."""
        return bool(self.beat[a, b] or self.beat[b, a])

    def head_to_head(self, names: Sequence[str]) -> dict[str, int] | None:
        """Each of ``names``' balance in the qualifying games among them (games won against the
        others minus games lost to them), or None when head-to-head is not available: some two
        of them have never met. For two players: who won more of their games against each other."""
        if any(not self.met(a, b) for a, b in combinations(names, 2)):
            return None
        return {a: sum(self.beat[a, b] - self.beat[b, a] for b in names if b != a) for a in names}

    def ranking(self) -> list[tuple[Line, Level]]:
        """The players who have played, best first, each with what ranks them (equal: the same
        rank). Game points, games won, net spread, plus points; then, among the players level on
        all four, head-to-head when every one of them has met every other in qualifying: their
        balance in those games (won minus lost against the others in the group; for two, who won
        more of their games against each other). Where a group has a pair who never met,
        head-to-head is unavailable and the whole group stays level; players with the same
        balance stay level too (no further round among them). Within a level group: by name."""
        played = sorted((x for x in self.lines.values() if x.games),
                        key=lambda x: (-x.points, -x.won, -x.spread, -x.plus, x.name))
        out: list[tuple[Line, Level]] = []
        for totals, group in groupby(played, key=lambda x: x.totals):
            lines = list(group)
            balance = self.head_to_head([x.name for x in lines]) if len(lines) > 1 else None
            if balance is None:
                out += [(x, (*totals, 0)) for x in lines]
            else:
                out += [(x, (*totals, balance[x.name])) for x in sorted(lines, key=lambda x: (-balance[x.name], x.name))]
        return out

    def ranked(self) -> list[Line]:
        """Every player, best first (:meth:`ranking`), then those who have played no game, by name."""
        return [line for line, _ in self.ranking()] + sorted((x for x in self.lines.values() if not x.games),
                                                             key=lambda x: x.name)


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
