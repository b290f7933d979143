"""The play scorer as it was before the one-pass rewrite, kept word for word (less its
doctests and speech) as the reference the property test compares ``score_play`` with."""

from __future__ import annotations

from cribpi.exc import RulesError
from cribpi.rules import MAX_COUNT, Card, ScoreItem

_SAME_RANK = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


def count_total(count: tuple[Card, ...]) -> int:
    return sum(c.value for c in count)


def reference_score_play(count: tuple[Card, ...]) -> tuple[ScoreItem, ...]:
    """The items the old ``score_play`` gave for the last card of ``count``."""
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
    return tuple(items)


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
