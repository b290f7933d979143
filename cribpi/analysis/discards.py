"""Exact expected values of every discard, and the post-deal review of the one made.

Expectations are exact, not sampled: every starter from the unseen cards and, for the crib,
every set of unknown crib cards with every starter left are counted, each equally likely.
Ranks (fifteens, pairs, runs) are summed over rank multisets weighted by how many ways the
unseen cards can supply them; suits (flush, nobs) are counted combinatorially.
See ``docs/analysis.md``.

>>> best = analyse_discards(parse_cards("5H 5C 5S JD 9C KD"), dealer=False)[0]
>>> format_cards(best.discard), format_cards(best.keep)
('9C KD', '5H 5C 5S JD')
>>> best.hand_min, best.hand_max, round(best.hand_ev, 3)
(14, 29, 16.5)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from cribpi.exc import RulesError
from cribpi.rules import ACC, DECK, Card, Rank, Rules, Suit, format_cards, parse_cards  # noqa: F401
from cribpi.rules import rank_points_table
from cribpi.analysis.tables import multiset_weights

__all__ = ["DiscardOption", "DiscardReview", "analyse_discards", "review_discard", "crib_unknowns"]


@dataclass(frozen=True, slots=True, repr=False)
class DiscardOption:
    """One way to lay away cards, with the exact expectations of what it leaves.

    ``hand_distribution`` maps each hand score to the number of starters (from the unseen
    cards) that give it. ``total_ev`` is hand + crib for the dealer, hand - crib for the pone.
    The float fields are the exact fractions rounded once.
    """

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    dealer: bool
    hand_ev_exact: Fraction
    crib_ev_exact: Fraction
    total_ev_exact: Fraction
    hand_ev: float
    crib_ev: float
    total_ev: float
    hand_min: int
    hand_max: int
    hand_distribution: Mapping[int, int] = field(hash=False)

    @property
    def starters(self) -> int:
        """How many starters the hand expectation is taken over (the unseen cards)."""
        return sum(self.hand_distribution.values())

    def hand_probabilities(self) -> dict[int, Fraction]:
        """Each hand score with its exact probability."""
        n = self.starters
        return {score: Fraction(count, n) for score, count in self.hand_distribution.items()}

    def as_dict(self) -> dict[str, object]:
        """The plain data ``cribpi advise --json`` prints."""
        return {
            "discard": [str(c) for c in self.discard],
            "keep": [str(c) for c in self.keep],
            "hand_ev": self.hand_ev,
            "crib_ev": self.crib_ev,
            "total_ev": self.total_ev,
            "hand_min": self.hand_min,
            "hand_max": self.hand_max,
        }

    def __repr__(self) -> str:
        return (
            f"<DiscardOption throw {format_cards(self.discard)} keep {format_cards(self.keep)}: "
            f"hand {self.hand_ev:.3f} crib {self.crib_ev:.3f} total {self.total_ev:.3f}>"
        )


@dataclass(frozen=True, slots=True)
class DiscardReview:
    """The discard actually made against the best one.

    ``rank`` is 1 plus the number of discards with a strictly higher total expectation, so a
    discard tied with the best is ranked 1 and has ``loss`` 0.
    """

    made: DiscardOption
    best: DiscardOption
    rank: int
    loss_exact: Fraction
    loss: float
    options: tuple[DiscardOption, ...]

    @property
    def is_best(self) -> bool:
        return self.loss_exact == 0


@dataclass(frozen=True, slots=True)
class _Pool:
    """The unseen cards, counted the ways the analysis needs them."""

    cards: tuple[Card, ...]
    rank_counts: tuple[int, ...]  # index rank - 1
    suit_counts: tuple[int, ...]  # index suit
    jack_suits: tuple[Suit, ...]  # suits whose jack is unseen

    @classmethod
    def of(cls, cards: tuple[Card, ...]) -> _Pool:
        ranks = [0] * 13
        suits = [0] * 4
        for card in cards:
            ranks[card.rank - 1] += 1
            suits[card.suit] += 1
        jacks = tuple(c.suit for c in cards if c.rank is Rank.JACK)
        return cls(cards, tuple(ranks), tuple(suits), jacks)


def crib_unknowns(rules: Rules) -> int:
    """Crib cards that do not come from your hand: 2 with two players (and in five-card
    cribbage), 3 with three (two players' cards and one from the pack) or four players."""
    return 4 - rules.discards_each


def analyse_discards(
    cards: Iterable[Card], *, dealer: bool, rules: Rules = ACC, unseen: Iterable[Card] | None = None
) -> list[DiscardOption]:
    """Every possible discard from a dealt hand with exact expectations, best first.

    ``cards`` is the hand as dealt: 6 cards with two players, 5 with three or four (throw 1)
    or in five-card cribbage (keep 3, throw 2). Options are sorted by exact ``total_ev``,
    highest first; equal totals keep the order of ``itertools.combinations`` over the cards
    as given. ``unseen`` (default: the 52 cards minus the hand) is where starters and the
    crib's other cards come from; pass fewer cards for a what-if, or for tests.
    """
    hand = _check_dealt(cards, rules)
    pool = _Pool.of(_unseen(hand, unseen, rules))
    crib = _CribCounter(pool, rules)
    options = [
        _option(hand, discard, pool, crib, dealer)
        for discard in itertools.combinations(range(len(hand)), rules.discards_each)
    ]
    options.sort(key=lambda o: o.total_ev_exact, reverse=True)  # stable: ties keep their order
    return options


def review_discard(
    dealt: Iterable[Card], discard: Iterable[Card], *, dealer: bool, rules: Rules = ACC
) -> DiscardReview | None:
    """How the discard made compares with the best one, or ``None`` under tournament rules.

    A review is a coaching aid, which ``rules.tournament`` forbids: the function then returns
    ``None`` (without analysing) so that a caller cannot show one by mistake.
    """
    hand = _check_dealt(dealt, rules)
    thrown = _check_discard(hand, discard, rules)
    if rules.tournament:
        return None
    options = analyse_discards(hand, dealer=dealer, rules=rules)
    made = next(o for o in options if set(o.discard) == thrown)
    best = options[0]
    loss = best.total_ev_exact - made.total_ev_exact
    rank = 1 + sum(1 for o in options if o.total_ev_exact > made.total_ev_exact)
    return DiscardReview(made, best, rank, loss, float(loss), tuple(options))


class _CribCounter:
    """Sums the crib score over every deal of the unknown crib cards and the starter."""

    def __init__(self, pool: _Pool, rules: Rules) -> None:
        self.pool = pool
        self.rules = rules
        self.k = k = crib_unknowns(rules)
        n = len(pool.cards)
        self.deals = comb(n, k) * (n - k)  # sets of k unknown crib cards, then a starter
        self.table = rank_points_table()
        # A set of k crib cards plus the starter is a (k+1)-card draw with k+1 choices of
        # starter, all with the same ranks: weigh each rank multiset by its draws.
        self.weights = multiset_weights(pool.rank_counts, k + 1)
        self.unseen_nobs = sum(pool.suit_counts[s] - 1 for s in pool.jack_suits) * comb(n - 2, k - 1)
        self._ranks_by_key: dict[int, int] = {}

    def total(self, discard: Sequence[Card]) -> int:
        """The crib score summed over all ``self.deals`` deals."""
        return self._ranks(discard) + self._flush(discard) + self._nobs(discard)

    def _ranks(self, discard: Sequence[Card]) -> int:
        key = sum(c.rank_bit for c in discard)
        total = self._ranks_by_key.get(key)
        if total is None:
            table = self.table
            draws = sum([ways * table[key + other] for other, ways in self.weights])
            total = self._ranks_by_key[key] = draws * (self.k + 1)
        return total

    def _flush(self, discard: Sequence[Card]) -> int:
        suit = discard[0].suit
        if any(c.suit is not suit for c in discard):
            return 0
        n, k, u = len(self.pool.cards), self.k, self.pool.suit_counts[suit]
        suited_sets = comb(u, k)
        total = 5 * suited_sets * (u - k)  # all five of the suit
        if self.rules.crib_four_flush:
            total += 4 * suited_sets * (n - u)  # the four crib cards only
        return total

    def _nobs(self, discard: Sequence[Card]) -> int:
        # A jack of ours scores with any starter of its suit, whatever the other crib cards.
        n, k = len(self.pool.cards), self.k
        ours = sum(self.pool.suit_counts[c.suit] for c in discard if c.rank is Rank.JACK)
        return ours * comb(n - 1, k) + self.unseen_nobs


def _option(
    hand: tuple[Card, ...], thrown: tuple[int, ...], pool: _Pool, crib: _CribCounter, dealer: bool
) -> DiscardOption:
    discard = tuple(hand[i] for i in thrown)
    keep = tuple(c for i, c in enumerate(hand) if i not in thrown)
    distribution = _hand_distribution(keep, pool, crib.table)
    hand_ev = Fraction(sum(s * n for s, n in distribution.items()), len(pool.cards))
    crib_ev = Fraction(crib.total(discard), crib.deals)
    total_ev = hand_ev + crib_ev if dealer else hand_ev - crib_ev
    return DiscardOption(
        discard, keep, dealer, hand_ev, crib_ev, total_ev,
        float(hand_ev), float(crib_ev), float(total_ev),
        min(distribution), max(distribution), dict(sorted(distribution.items())),
    )


def _hand_distribution(keep: tuple[Card, ...], pool: _Pool, table: Mapping[int, int]) -> Counter[int]:
    """Number of starters giving each hand score."""
    key = sum(c.rank_bit for c in keep)
    suit = keep[0].suit
    flush = len(keep) if all(c.suit is suit for c in keep) else 0
    nobs_suits = {c.suit for c in keep if c.rank is Rank.JACK}
    counts: Counter[int] = Counter()
    for starter in pool.cards:
        points = table[key + starter.rank_bit]
        if flush:
            points += flush + (starter.suit is suit)
        if starter.suit in nobs_suits:
            points += 1
        counts[points] += 1
    return counts


def _check_dealt(cards: Iterable[Card], rules: Rules) -> tuple[Card, ...]:
    hand = tuple(cards)
    if not all(isinstance(c, Card) for c in hand):
        raise RulesError(f"the discard analysis takes Card objects, not {hand!r}")
    if len(hand) != rules.cards_dealt:
        raise RulesError(
            f"{_deal_name(rules)} deals {rules.cards_dealt} cards, not {len(hand)}: {_fmt(hand)}"
        )
    _check_distinct(hand)
    return hand


def _check_discard(hand: tuple[Card, ...], discard: Iterable[Card], rules: Rules) -> set[Card]:
    thrown = tuple(discard)
    _check_distinct(thrown)
    stray = [c for c in thrown if c not in hand]
    if stray:
        raise RulesError(f"{_fmt(stray)} was not dealt: the discard must come from {_fmt(hand)}")
    if len(thrown) != rules.discards_each:
        raise RulesError(
            f"{_deal_name(rules)} lays away {rules.discards_each} card(s), not {len(thrown)}: {_fmt(thrown)}"
        )
    return set(thrown)


def _unseen(hand: tuple[Card, ...], unseen: Iterable[Card] | None, rules: Rules) -> tuple[Card, ...]:
    if unseen is None:
        return tuple(c for c in DECK if c not in hand)
    pool = tuple(unseen)
    if not all(isinstance(c, Card) for c in pool):
        raise RulesError(f"unseen cards must be Card objects, not {pool!r}")
    _check_distinct(pool)
    clash = [c for c in pool if c in hand]
    if clash:
        raise RulesError(f"{_fmt(clash)} is in the hand, so it cannot also be unseen")
    needed = crib_unknowns(rules) + 1
    if len(pool) < needed:
        raise RulesError(f"{len(pool)} unseen card(s) cannot fill the crib and cut a starter: need {needed}")
    return pool


def _check_distinct(cards: tuple[Card, ...]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise RulesError(f"{card} appears twice: every card must be different")
        seen.add(card)


def _deal_name(rules: Rules) -> str:
    if rules.five_card:
        return "five-card cribbage"
    return f"{rules.players}-player cribbage"


def _fmt(cards: Sequence[Card]) -> str:
    return format_cards(cards) or "(none)"
