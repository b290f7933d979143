"""The analysis is exact: it agrees, as fractions, with brute force over every deal.

Full-deck crib checks deal every opponent discard and starter (45,540 crib counts per
discard with two players, 713,460 with three); the whole-hand and three-player ones are
marked slow. Reduced checks give ``unseen=`` a small pool rich in one suit and in jacks,
so that every discard of every rule variant is brute-forced in a moment.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from analysis_brute import crib_ev, hand_counts, mismatches
from cribpi.analysis import DiscardOption, analyse_discards, crib_unknowns
from cribpi.rules import ACC, DECK, FIVE_CARD, Card, Rules, format_cards, parse_cards

FOUR_FLUSH = ACC.replace(crib_four_flush=True)
THREE = ACC.replace(players=3)
FOUR = ACC.replace(players=4)
FOUR_PARTNERS = ACC.replace(players=4, partnerships=True)

HANDS_OF_SIX = [
    "5H 5C 5S JD 9C KD",  # the 29 hand's neighbourhood: a jack to throw or keep
    "JH QH 5H 4C 6D 9S",  # a suited pair with a jack in it (crib flush and nobs)
    "2S 3S 4S 6S 8S TS",  # all one suit: every discard suited, hand flushes
    "AC 2D 3H 4S 7C KC",
]


def by_discard(options: list[DiscardOption]) -> dict[str, DiscardOption]:
    return {format_cards(o.discard): o for o in options}


def unseen_of(hand: list[Card]) -> list[Card]:
    return [c for c in DECK if c not in hand]


@pytest.mark.parametrize("text", HANDS_OF_SIX)
def test_hand_distribution_matches_brute_force_for_every_discard(text: str) -> None:
    hand = parse_cards(text)
    pool = unseen_of(hand)
    options = by_discard(analyse_discards(hand, dealer=True))
    expected = {k: dict(sorted(hand_counts(o.keep, pool, ACC).items())) for k, o in options.items()}
    actual: dict[str, object] = {k: dict(o.hand_distribution) for k, o in options.items()}
    assert actual == expected, "\n" + mismatches(dict(expected), actual)
    for o in options.values():
        assert o.hand_ev_exact == Fraction(sum(s * n for s, n in expected[format_cards(o.discard)].items()), 46)


@pytest.mark.parametrize(
    ("text", "discard", "rules"),
    [
        ("5H 5C 5S JD 9C KD", "JD 9C", ACC),  # our jack in the crib
        ("JH QH 5H 4C 6D 9S", "JH QH", ACC),  # suited with a jack: flush and nobs
        ("JH QH 5H 4C 6D 9S", "JH QH", FOUR_FLUSH),  # the old four-card crib flush
        ("2S 3S 4S 6S 8S TS", "2S 3S", ACC),
    ],
)
def test_crib_ev_matches_brute_force_over_the_full_deck(text: str, discard: str, rules: Rules) -> None:
    hand = parse_cards(text)
    thrown = tuple(parse_cards(discard))
    option = by_discard(analyse_discards(hand, dealer=True, rules=rules))[discard]
    assert option.crib_ev_exact == crib_ev(thrown, unseen_of(hand), 2, rules)
    assert option.total_ev_exact == option.hand_ev_exact + option.crib_ev_exact


def test_five_card_cribbage_crib_ev_matches_brute_force() -> None:
    hand = parse_cards("JH 5H 6C 9H QD")
    option = by_discard(analyse_discards(hand, dealer=False, rules=FIVE_CARD))["JH 9H"]
    assert option.crib_ev_exact == crib_ev(parse_cards("JH 9H"), unseen_of(hand), 2, FIVE_CARD)
    assert option.keep == tuple(parse_cards("5H 6C QD"))


@pytest.mark.slow
@pytest.mark.parametrize("text", HANDS_OF_SIX)
def test_every_discard_of_a_hand_matches_brute_force(text: str) -> None:
    hand = parse_cards(text)
    pool = unseen_of(hand)
    options = by_discard(analyse_discards(hand, dealer=True))
    expected: dict[str, object] = {k: crib_ev(o.discard, pool, 2, ACC) for k, o in options.items()}
    actual: dict[str, object] = {k: o.crib_ev_exact for k, o in options.items()}
    assert actual == expected, "\n" + mismatches(expected, actual)


@pytest.mark.slow
def test_three_players_crib_ev_matches_brute_force_over_the_full_deck() -> None:
    hand = parse_cards("JS 5S 4S 6D KH")
    option = by_discard(analyse_discards(hand, dealer=True, rules=THREE))["JS"]
    assert option.crib_ev_exact == crib_ev(parse_cards("JS"), unseen_of(hand), 3, THREE)


# -- reduced pools: every discard, every variant ---------------------------------------------

SMALL_POOL = parse_cards("JH JC JS 2H 3H 4H 7H 8H TH QH KC 5D 9S AS")


def dealt_for(rules: Rules) -> list[Card]:
    return parse_cards("5H 6H JD QC 9H AH" if rules.cards_dealt == 6 else "5H 6H JD QC AH")


@pytest.mark.parametrize(
    "rules", [ACC, FOUR_FLUSH, THREE, FOUR, FOUR_PARTNERS, FIVE_CARD], ids=lambda r: f"{r.name}-{r.players}p-ff{int(r.crib_four_flush)}"
)
def test_every_discard_matches_brute_force_on_a_small_pool(rules: Rules) -> None:
    hand = dealt_for(rules)
    options = by_discard(analyse_discards(hand, dealer=False, rules=rules, unseen=SMALL_POOL))
    assert len(options) == len(list(itertools.combinations(hand, rules.discards_each)))
    k = crib_unknowns(rules)
    expected: dict[str, object] = {}
    actual: dict[str, object] = {}
    for key, o in options.items():
        expected[key] = (dict(sorted(hand_counts(o.keep, SMALL_POOL, rules).items())), crib_ev(o.discard, SMALL_POOL, k, rules))
        actual[key] = (dict(o.hand_distribution), o.crib_ev_exact)
    assert actual == expected, "\n" + mismatches(expected, actual)


def test_small_pool_variants_really_differ() -> None:
    """The reduced checks would be weak if the variants gave the same numbers."""
    hand = dealt_for(ACC)
    plain = by_discard(analyse_discards(hand, dealer=True, unseen=SMALL_POOL))["5H 6H"]
    four = by_discard(analyse_discards(hand, dealer=True, rules=FOUR_FLUSH, unseen=SMALL_POOL))["5H 6H"]
    assert four.crib_ev_exact > plain.crib_ev_exact
