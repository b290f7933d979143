"""Scoring the show: a hand (or the crib) with the starter.

Fifteens, pairs and runs depend only on the multiset of ranks, of which five cards have
just 6,175; their points ship precomputed in a table keyed by the sum of each card's ``rank_bit``.
Suits enter only through the flush and his nobs. Items are built lazily: reading ``.total``
costs one table look-up and a few comparisons.

>>> s = score_hand(parse_cards("5H 5C 5S JD"), Card.parse("5D"))
>>> s.total
29
>>> score_hand(parse_cards("7C 8D 8H KS"), Card.parse("9C")).explain()
'fifteen two, fifteen four, and a pair is six, and a run of three is nine, and a run of three is twelve'
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Mapping, Sequence

from cribpi.exc import RulesError
from cribpi.rules.cards import SHOW_BITS, SHOW_SUITS, Card, Rank, Suit, parse_cards  # noqa: F401  (doctest)
from cribpi.rules.items import ScoreItem
from cribpi.rules.presets import ACC, Rules
from cribpi.rules.speech import spoken_items

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing (3 ms) just to be False
if TYPE_CHECKING:
    from typing import Final

__all__ = ["ScoreItem", "ShowScore", "score_hand", "rank_multiset_points", "rank_points_table"]


#: Points per 4- and 5-card rank multiset, keyed by the sum of the cards' ``rank_bit``;
#: empty until :func:`_table` first fills it, so importing the rules builds nothing.
_TABLE: Final[dict[int, int]] = {}


def _table() -> dict[int, int]:
    if not _TABLE:
        _TABLE.update(_unpack_table())
    return _TABLE


def _unpack_table() -> dict[int, int]:
    """The points ship precomputed (``tools/gen_show_table.py``); only the keys are rebuilt here,
    in the generator's order: about 1.5 ms, where counting the fifteens took 80."""
    from cribpi.rules._show_table import POINTS_HEX

    bits = [1 << 3 * (r - 1) for r in range(1, 14)]
    keys = itertools.chain(map(sum, itertools.combinations_with_replacement(bits, 4)),
                           map(sum, itertools.combinations_with_replacement(bits, 5)))
    table = dict(zip(keys, bytes.fromhex("".join(POINTS_HEX)), strict=True))
    for bit in bits:
        del table[5 * bit]  # five cards of one rank cannot be dealt
    return table


_NOBS: Final = tuple(Card(Rank.JACK, s) for s in Suit)
_RANK_KEY: Final = (1 << SHOW_SUITS) - 1
#: Set in a sum of show codes when some card's count is two or more: a card given twice.
_TWICE: Final = sum(6 << SHOW_BITS + 3 * index for index in range(52))
_EACH_SUIT: Final = sum(1 << SHOW_SUITS + 3 * suit for suit in Suit)
#: A suit's count reaches four only in a flush (three cards in five-card start it at one).
_FLUSH: Final = 4 * _EACH_SUIT


def rank_multiset_points(cards: Sequence[Card]) -> int:
    """Fifteens, pairs and runs of 4 or 5 cards, from the rank table."""
    return _table()[sum(c.rank_bit for c in cards)]


def rank_points_table() -> Mapping[int, int]:
    """The whole rank table (fifteens + pairs + runs by rank-multiset key: 1,820 of four
    cards, 6,175 of five),
    for callers that look up many multisets, such as the discard analysis. Read only."""
    return _table()


class ShowScore:
    """The count of one hand or crib. ``total`` is computed at once, ``items`` on demand.

    Made only by :func:`score_hand`, which fills the fields itself: it has no ``__init__``,
    because a Python ``__init__`` frame would cost a third of a bare table lookup.
    """

    __slots__ = ("total", "hand", "starter", "crib", "rules", "_items")

    total: int
    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    rules: Rules
    _items: tuple[ScoreItem, ...] | None

    @property
    def items(self) -> tuple[ScoreItem, ...]:
        """Every scoring combination, in the order players count them."""
        if self._items is None:
            self._items = _itemise(self.hand, self.starter, self.crib, self.rules)
            assert sum(i.points for i in self._items) == self.total, "itemised count disagrees"
        return self._items

    def explain(self) -> str:
        """The count as players say it: "fifteen two, fifteen four, and a pair is six"."""
        return spoken_items(self.items)

    def as_dict(self) -> dict[str, object]:
        return {
            "hand": [str(c) for c in self.hand],
            "starter": str(self.starter),
            "crib": self.crib,
            "rules": self.rules.name,
            "total": self.total,
            "items": [i.as_dict() for i in self.items],
            "explain": self.explain(),
        }

    def __int__(self) -> int:
        return self.total

    def __repr__(self) -> str:
        kind = "crib" if self.crib else "hand"
        return f"<ShowScore {kind} {' '.join(map(str, self.hand))} | {self.starter}: {self.total}>"


def score_hand(hand: Sequence[Card], starter: Card, *, crib: bool = False, rules: Rules = ACC) -> ShowScore:
    """Score a hand (or, with ``crib=True``, the crib) with the starter.

    The hand has ``rules.cards_held`` cards (4; 3 in five-card cribbage); a crib always has 4.
    """
    hand = tuple(hand)
    expected = 4 if crib or not rules.five_card else 3  # rules.cards_held, without a property call
    if len(hand) != expected:
        what = "a crib" if crib else "a hand"
        raise RulesError(f"{what} needs {expected} cards, not {len(hand)}: {_fmt(hand)}")
    # One sum of the cards' packed ``show_code`` gives the rank key, the hand's suit counts and
    # a count per card (two or more: a card given twice). Four cards are summed without a
    # loop: in CPython 3.11 the loop costs a third of a bare table lookup.
    try:
        if expected == 4:
            a, b, c, d = hand
            held = a.show_code + b.show_code + c.show_code + d.show_code
        else:  # three cards in five-card cribbage: each suit's count starts at one
            held = _EACH_SUIT
            for card in hand:
                held += card.show_code
        code = held + starter.show_code
        nobs = held & starter.nobs_code
    except (AttributeError, TypeError):
        raise RulesError(f"score_hand takes Card objects, not {_fmt(hand)} | {starter!r}") from None
    if code & _TWICE:
        raise RulesError(_duplicate_message(hand, starter))
    try:
        total = _TABLE[code & _RANK_KEY]
    except KeyError:  # the first show scored in this process: unpack the table
        total = _table()[code & _RANK_KEY]
    if nobs:
        total += 1
    if held & _FLUSH:
        total += _flush_points(expected, hand[0].suit is starter.suit, crib, rules)
    score = ShowScore()
    score.total = total
    score.hand = hand
    score.starter = starter
    score.crib = crib
    score.rules = rules
    score._items = None
    return score


def _flush_points(cards: int, with_starter: bool, crib: bool, rules: Rules) -> int:
    """A flush of ``cards`` held cards: one more with the starter's suit; a crib needs all five
    unless the rules allow four."""
    if with_starter:
        return cards + 1
    return 0 if crib and not rules.crib_four_flush else cards


def _fmt(cards: Sequence[object]) -> str:
    return " ".join(str(c) for c in cards) or "(none)"


def _duplicate_message(hand: tuple[Card, ...], starter: Card) -> str:
    seen: set[Card] = set()
    for card in (*hand, starter):
        if card in seen:
            where = "is the starter and also in the hand" if card is starter else "appears twice"
            return f"{card} {where}: every card must be different"
        seen.add(card)
    return "duplicate card"


# -- itemising: for people, and for the game, which shows every count's reasons ---------
# Plain loops into lists, no generators: the game itemises every hand and crib it counts.

def _itemise(hand: tuple[Card, ...], starter: Card, crib: bool, rules: Rules) -> tuple[ScoreItem, ...]:
    held = tuple(sorted(hand, key=_BY_INDEX))
    cards = held + (starter,)
    groups, run = _by_rank(cards)
    items = _pairs(groups) + _runs(run)
    # The table knows the points; what pairs and runs do not make, fifteens do (two each).
    fifteen_points = _table()[sum(map(_RANK_BIT, cards))]
    for item in items:
        fifteen_points -= item.points
    items[:0] = _fifteens(cards, fifteen_points // 2)
    suit = hand[0].suit
    for card in hand:
        if card.suit is not suit:
            break
    else:
        flush = _flush_points(len(hand), suit is starter.suit, crib, rules)
        if flush:
            items.append(ScoreItem("flush", cards if flush > len(hand) else held, flush))
    jack = _NOBS[starter.suit]
    if jack in hand:
        items.append(ScoreItem("nobs", (jack,), 1))
    return tuple(items)


#: Sort keys: a card's index orders by rank, then suit (as ``Card.__lt__`` does, but in C).
_BY_INDEX: Final = operator.attrgetter("index")
_BY_RANK: Final = operator.attrgetter("rank")
_RANK_BIT: Final = operator.attrgetter("rank_bit")


def _fifteens(cards: tuple[Card, ...], wanted: int) -> list[ScoreItem]:
    """The first ``wanted`` combinations worth fifteen, smallest first (all of them when
    ``wanted`` is at least their number)."""
    found: list[ScoreItem] = []
    if wanted <= 0:
        return found
    values = [card.value for card in cards]
    combinations = itertools.combinations
    for k in range(2, len(cards) + 1):
        for total, combo in zip(map(sum, combinations(values, k)), combinations(cards, k)):
            if total == 15:
                found.append(ScoreItem("fifteen", combo, 2))
                if len(found) == wanted:
                    return found
    return found


def _by_rank(cards: tuple[Card, ...]) -> tuple[list[list[Card]], list[list[Card]]]:
    """The cards grouped by rank, ranks ascending, each rank's cards in their order in
    ``cards``; and the groups of the longest stretch of consecutive ranks (the first, if two
    are as long), found in the same pass."""
    groups: list[list[Card]] = []
    rank = start = best_start = best_length = 0
    for card in sorted(cards, key=_BY_RANK):
        if card.rank == rank:
            groups[-1].append(card)
            continue
        if card.rank != rank + 1:
            start = len(groups)
        rank = card.rank
        groups.append([card])
        if len(groups) - start > best_length:
            best_start, best_length = start, len(groups) - start
    return groups, groups[best_start:best_start + best_length]


_PAIR_NAMES: Final = {2: "pair", 3: "pair royal", 4: "double pair royal"}


def _pairs(groups: list[list[Card]]) -> list[ScoreItem]:
    return [ScoreItem(_PAIR_NAMES[len(same)], tuple(same), len(same) * (len(same) - 1))
            for same in groups if len(same) >= 2]


def _runs(stretch: list[list[Card]]) -> list[ScoreItem]:
    """Every run of a stretch of consecutive ranks, one card of each rank (five cards hold at
    most one stretch of three or more)."""
    if len(stretch) < 3:
        return []
    return [ScoreItem("run", run, len(stretch)) for run in itertools.product(*stretch)]
