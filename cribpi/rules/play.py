"""Scoring the play (pegging): the points for the last card laid.

``count`` is the list of cards laid since the count last restarted from zero.

>>> score_play(parse_cards("4H 2C 3D")).total
3
>>> score_play(parse_cards("7C 8D 9H 7S")).explain()
'thirty-one is two, and a run of three is five'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from cribpi.exc import RulesError
from cribpi.rules.cards import Card, parse_cards  # noqa: F401  (doctest)
from cribpi.rules.presets import ACC, Rules
from cribpi.rules.items import ScoreItem
from cribpi.rules.speech import spoken_items

__all__ = ["PlayScore", "score_play", "playable", "count_total", "MAX_COUNT"]

MAX_COUNT: Final = 31
_SAME_RANK: Final = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


class PlayScore:
    """The points the last card of a count scores, with the reasons."""

    __slots__ = ("count", "items", "total")

    def __init__(self, count: tuple[Card, ...], items: tuple[ScoreItem, ...]) -> None:
        self.count = count
        self.items = items
        self.total = sum(i.points for i in items)

    @property
    def running(self) -> int:
        """The count after the last card (what is said aloud)."""
        return count_total(self.count)

    def explain(self) -> str:
        return spoken_items(self.items)

    def as_dict(self) -> dict[str, object]:
        return {
            "count": [str(c) for c in self.count],
            "running": self.running,
            "total": self.total,
            "items": [i.as_dict() for i in self.items],
            "explain": self.explain(),
        }

    def __repr__(self) -> str:
        return f"<PlayScore {' '.join(map(str, self.count))} ({self.running}): {self.total}>"


def count_total(count: Iterable[Card]) -> int:
    return sum(c.value for c in count)


def score_play(count: Sequence[Card], *, rules: Rules = ACC) -> PlayScore:
    """Points for the last card of ``count``: fifteen, thirty-one, pairs and runs.

    Go and last card are scored by the game, which knows who can still play.
    """
    cards = tuple(count)
    _check_count(cards)
    items: list[ScoreItem] = []
    running = count_total(cards)
    if running == 15:
        items.append(ScoreItem("fifteen", cards, 2))
    elif running == MAX_COUNT:
        items.append(ScoreItem("thirty-one", cards, 2))
    same = _same_rank_tail(cards)
    if same >= 2:
        kind, points = _SAME_RANK[same]
        items.append(ScoreItem(kind, cards[-same:], points))
    run = _run_tail(cards)
    if run:
        items.append(ScoreItem("run", cards[-run:], run))
    return PlayScore(cards, tuple(items))


def _check_count(cards: tuple[Card, ...]) -> None:
    if not cards:
        raise RulesError("score_play needs at least one card in the count")
    if not all(isinstance(c, Card) for c in cards):
        raise RulesError(f"score_play takes Card objects, not {cards!r}")
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise RulesError(f"{dup} is laid twice in one count: every card must be different")
    running = 0
    for card in cards:
        running += card.value
        if running > MAX_COUNT:
            raise RulesError(
                f"{card} takes the count from {running - card.value} to {running}, past 31: "
                f"only cards worth {MAX_COUNT - running + card.value} or less may be laid"
            )


def _same_rank_tail(cards: tuple[Card, ...]) -> int:
    rank = cards[-1].rank
    n = 0
    for card in reversed(cards):
        if card.rank != rank:
            break
        n += 1
    return n


def _run_tail(cards: tuple[Card, ...]) -> int:
    """The longest k >= 3 such that the last k cards are k consecutive ranks, else 0."""
    for k in range(len(cards), 2, -1):
        ranks = sorted(c.rank for c in cards[-k:])
        if all(b == a + 1 for a, b in zip(ranks, ranks[1:])):
            return k
    return 0


def playable(hand: Iterable[Card], count: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` that may be laid on ``count`` without passing 31."""
    room = MAX_COUNT - count_total(count)
    return [c for c in hand if c.value <= room]
