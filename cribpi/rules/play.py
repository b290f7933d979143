"""Scoring the play (pegging): the points for the last card laid.

``count`` is the list of cards laid since the count last restarted from zero.

>>> score_play(parse_cards("4H 2C 3D")).total
3
>>> score_play(parse_cards("7C 8D 9H 7S")).explain()
'thirty-one is two, and a run of three is five'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cribpi.exc import RulesError
from cribpi.rules.cards import Card, format_cards, parse_cards  # noqa: F401  (doctest)
from cribpi.rules.presets import ACC, Rules
from cribpi.rules.items import ScoreItem
from cribpi.rules.speech import spoken_items

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing (3 ms) just to be False
if TYPE_CHECKING:
    from typing import Final

__all__ = ["PlayScore", "score_play", "playable", "count_total", "MAX_COUNT"]

MAX_COUNT: Final = 31
_SAME_RANK: Final = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


class PlayScore:
    """The points the last card of a count scores, with the reasons, and the count after it
    (``running``: what is said aloud)."""

    __slots__ = ("count", "items", "total", "running")

    def __init__(self, count: tuple[Card, ...], items: tuple[ScoreItem, ...], running: int) -> None:
        self.count = count
        self.items = items
        total = 0
        for item in items:
            total += item.points
        self.total = total
        self.running = running

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

    One backward pass from the last card: the cards of its rank at the end make the pair,
    and the last ``k`` cards are a run while their ranks are distinct and span ``k``; a rank
    seen twice ends the search for a run, as every longer stretch holds both cards too.
    """
    cards = tuple(count)
    if not cards or not isinstance(last := cards[-1], Card):
        raise RulesError(_invalid(cards))
    rank = low = high = last.rank
    running = last.value
    laid = last.bit  # a bit per card, to catch a card laid twice
    ranks = 1 << rank  # a bit per rank, while the end can still be a run (0 once it cannot)
    same = k = 1
    run = 0
    for card in cards[-2::-1]:
        if not isinstance(card, Card) or laid & (bit := card.bit):
            raise RulesError(_invalid(cards))
        laid |= bit
        running += card.value
        r = card.rank
        if same == k and r == rank:
            same += 1
        k += 1
        if ranks:
            if ranks & (rank_bit := 1 << r):
                ranks = 0
                continue
            ranks |= rank_bit
            if r < low:
                low = r
            elif r > high:
                high = r
            if high - low == k - 1 and k >= 3:
                run = k
    if running > MAX_COUNT:
        raise RulesError(_invalid(cards))
    if running == 15:
        items: tuple[ScoreItem, ...] = (ScoreItem("fifteen", cards, 2),)
    elif running == MAX_COUNT:
        items = (ScoreItem("thirty-one", cards, 2),)
    else:
        items = ()
    if same >= 2:
        kind, points = _SAME_RANK[same]
        items += (ScoreItem(kind, cards[-same:], points),)
    if run:
        items += (ScoreItem("run", cards[-run:], run),)
    return PlayScore(cards, items, running)


def _invalid(cards: tuple[Card, ...]) -> str:
    """What is wrong with a count, checked in the order a player would see it (off the fast path)."""
    if not cards:
        return "score_play needs at least one card in the count"
    if not all(isinstance(c, Card) for c in cards):
        return f"score_play takes Card objects, not {cards!r}"
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        return f"{dup} is laid twice in one count: every card must be different"
    running = 0
    for card in cards:
        running += card.value
        if running > MAX_COUNT:
            return (f"{card} takes the count from {running - card.value} to {running}, past 31: "
                    f"only cards worth {MAX_COUNT - running + card.value} or less may be laid")
    raise AssertionError(f"{format_cards(cards)} is a valid count")


def playable(hand: Iterable[Card], count: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` that may be laid on ``count`` without passing 31."""
    room = MAX_COUNT - count_total(count)
    return [c for c in hand if c.value <= room]
