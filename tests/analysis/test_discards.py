"""The discard analysis API: shape, ordering, properties, review, errors and speed."""

from __future__ import annotations

import doctest
import itertools
import subprocess
import sys
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cribpi.analysis
import cribpi.analysis.discards
import cribpi.analysis.tables
from cribpi.analysis import DiscardOption, analyse_discards, review_discard
from cribpi.analysis.tables import multiset_weights
from cribpi.exc import CribpiError, RulesError
from cribpi.rules import (
    ACC,
    ACC_TOURNAMENT,
    DECK,
    FIVE_CARD,
    Card,
    Rules,
    format_cards,
    parse_cards,
    rank_multiset_points,
    rank_points_table,
)

THREE = ACC.replace(players=3)
FOUR = ACC.replace(players=4)
VARIANTS = [ACC, ACC.replace(crib_four_flush=True), THREE, FOUR, FIVE_CARD]

hands_of_six = st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True)
hands_of_five = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
suit_permutations = st.permutations(range(4))


def analyse(text: str, **kwargs: object) -> list[DiscardOption]:
    return analyse_discards(parse_cards(text), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("module", [cribpi.analysis, cribpi.analysis.discards, cribpi.analysis.tables])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0


# -- shape -------------------------------------------------------------------------------

@pytest.mark.parametrize(("rules", "count", "throw", "keep"), [
    (ACC, 15, 2, 4), (THREE, 5, 1, 4), (FOUR, 5, 1, 4), (FIVE_CARD, 10, 2, 3),
])
def test_one_option_per_discard(rules: Rules, count: int, throw: int, keep: int) -> None:
    dealt = DECK[: rules.cards_dealt]
    options = analyse_discards(dealt, dealer=True, rules=rules)
    assert len(options) == count
    assert len({frozenset(o.discard) for o in options}) == count
    for o in options:
        assert len(o.discard) == throw and len(o.keep) == keep
        assert sorted(o.discard + o.keep) == sorted(dealt)
        assert o.starters == 52 - len(dealt)


def test_famous_hand() -> None:
    """Keeping 5-5-5-J: the jack's suit cut as a 5 (one starter) makes 29."""
    options = {format_cards(o.discard): o for o in analyse("5H 5C 5S JD 9C KD", dealer=False)}
    keep = options["9C KD"]
    assert keep.hand_max == 29 and keep.hand_distribution[29] == 1
    assert keep.hand_min == 14
    assert keep.hand_ev_exact == Fraction(759, 46)
    assert isinstance(keep.hand_ev, float) and keep.hand_ev == 759 / 46


def test_best_first_and_ties_keep_combination_order() -> None:
    dealt = parse_cards("5H 5C 5S JD 9C KD")
    options = analyse_discards(dealt, dealer=True)
    order: dict[tuple[Card, ...], int] = {combo: i for i, combo in enumerate(itertools.combinations(dealt, 2))}
    for a, b in zip(options, options[1:]):
        assert a.total_ev_exact >= b.total_ev_exact
        if a.total_ev_exact == b.total_ev_exact:
            assert order[a.discard] < order[b.discard]
    # 5H K and 5C K and 5S K tie exactly, and appear in the order dealt
    tied = [format_cards(o.discard) for o in options if o.total_ev_exact == options[5].total_ev_exact]
    assert tied == ["5H KD", "5C KD", "5S KD"]


def test_as_dict_keys() -> None:
    entry = analyse("5H 5C 5S JD 9C KD", dealer=True)[0].as_dict()
    assert set(entry) == {"discard", "keep", "hand_ev", "crib_ev", "total_ev", "hand_min", "hand_max"}
    assert entry["discard"] == ["JD", "9C"]


def test_hand_probabilities_add_up_to_one() -> None:
    option = analyse("2S 3S 4S 6S 8S TS", dealer=False)[0]
    assert sum(option.hand_probabilities().values()) == 1


# -- properties --------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(hands_of_six, st.sampled_from(VARIANTS[:2]))
def test_distribution_counts_every_starter_and_bounds_the_mean(cards: list[Card], rules: Rules) -> None:
    for o in analyse_discards(cards, dealer=True, rules=rules):
        assert sum(o.hand_distribution.values()) == 46
        assert o.hand_min == min(o.hand_distribution) and o.hand_max == max(o.hand_distribution)
        assert o.hand_min <= o.hand_ev_exact <= o.hand_max
        assert 0 <= o.crib_ev_exact <= 29
        assert 19 not in o.hand_distribution


@settings(max_examples=40, deadline=None)
@given(hands_of_six)
def test_dealer_and_pone_share_hand_and_crib_but_not_total(cards: list[Card]) -> None:
    dealer = {frozenset(o.discard): o for o in analyse_discards(cards, dealer=True)}
    pone = {frozenset(o.discard): o for o in analyse_discards(cards, dealer=False)}
    for key, d in dealer.items():
        p = pone[key]
        assert (d.hand_ev_exact, d.crib_ev_exact) == (p.hand_ev_exact, p.crib_ev_exact)
        assert d.total_ev_exact == d.hand_ev_exact + d.crib_ev_exact
        assert p.total_ev_exact == p.hand_ev_exact - p.crib_ev_exact


@settings(max_examples=40, deadline=None)
@given(hands_of_six)
def test_dealer_best_gives_the_crib_at_least_what_pone_best_does(cards: list[Card]) -> None:
    """If D maximises hand + crib and P maximises hand - crib, adding the two optimality
    inequalities gives crib(D) >= crib(P): the dealer never feeds the crib less."""
    best_dealer = analyse_discards(cards, dealer=True)[0]
    best_pone = analyse_discards(cards, dealer=False)[0]
    assert best_dealer.crib_ev_exact >= best_pone.crib_ev_exact
    assert best_dealer.hand_ev_exact + best_dealer.crib_ev_exact >= best_pone.hand_ev_exact + best_pone.crib_ev_exact


@settings(max_examples=30, deadline=None)
@given(hands_of_six | hands_of_five, suit_permutations, st.sampled_from(VARIANTS), st.booleans())
def test_renaming_suits_changes_nothing(cards: list[Card], perm: list[int], rules: Rules, dealer: bool) -> None:
    cards = cards[: rules.cards_dealt]
    if len(cards) != rules.cards_dealt:
        rules = THREE
    renamed = [Card(c.rank, perm[c.suit]) for c in cards]
    before = analyse_discards(cards, dealer=dealer, rules=rules)
    after = analyse_discards(renamed, dealer=dealer, rules=rules)
    rename = {c: r for c, r in zip(cards, renamed)}
    assert [tuple(rename[c] for c in o.discard) for o in before] == [o.discard for o in after]
    assert [(o.hand_ev_exact, o.crib_ev_exact, dict(o.hand_distribution)) for o in before] == [
        (o.hand_ev_exact, o.crib_ev_exact, dict(o.hand_distribution)) for o in after
    ]


@settings(max_examples=20, deadline=None)
@given(hands_of_six, st.randoms(use_true_random=False))
def test_order_of_the_cards_changes_only_tie_order(cards: list[Card], rnd: object) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    first = {frozenset(o.discard): o.total_ev_exact for o in analyse_discards(cards, dealer=True)}
    second = {frozenset(o.discard): o.total_ev_exact for o in analyse_discards(shuffled, dealer=True)}
    assert first == second


# -- tables ------------------------------------------------------------------------------

def test_the_analysis_looks_up_the_rules_own_table() -> None:
    dealt = set(parse_cards("5H 5C 5S JD 9C KD"))
    pool = cribpi.analysis.discards._Pool.of(tuple(c for c in DECK if c not in dealt))
    assert cribpi.analysis.discards._CribCounter(pool, ACC).table is rank_points_table()


def test_rank_table_agrees_with_the_rules_core() -> None:
    table = rank_points_table()
    assert len(table) == 1820 + 6175
    for cards in itertools.islice(itertools.combinations(DECK[::3], 5), 0, None, 97):
        assert table[sum(c.rank_bit for c in cards)] == rank_multiset_points(cards)


@pytest.mark.parametrize("size", [3, 4])
def test_multiset_weights_count_every_draw(size: int) -> None:
    counts = [4] * 13
    counts[4] = 1  # three fives are in the hand
    counts[10] = 3
    assert sum(w for _, w in multiset_weights(counts, size)) == comb(sum(counts), size)


# -- review ------------------------------------------------------------------------------

def test_review_of_the_best_discard() -> None:
    dealt = parse_cards("5H 5C 5S JD 9C KD")
    review = review_discard(dealt, parse_cards("KD 9C"), dealer=False)
    assert review is not None
    assert review.is_best and review.rank == 1 and review.loss == 0
    assert set(review.made.discard) == set(parse_cards("9C KD"))
    assert review.best is review.options[0]


def test_review_of_a_poor_discard() -> None:
    dealt = parse_cards("5H 5C 5S JD 9C KD")
    review = review_discard(dealt, parse_cards("5H 5C"), dealer=False)
    assert review is not None
    assert not review.is_best
    assert review.loss_exact == review.best.total_ev_exact - review.made.total_ev_exact > 0
    assert review.loss == pytest.approx(float(review.loss_exact))
    assert review.rank == 1 + sum(o.total_ev_exact > review.made.total_ev_exact for o in review.options)


def test_review_ties_with_the_best_rank_first() -> None:
    dealt = parse_cards("AC AD 7H 8S JC QD")  # the two aces are interchangeable apart from suit
    options = analyse_discards(dealt, dealer=True)
    tied = [o for o in options if o.total_ev_exact == options[0].total_ev_exact]
    for option in tied:
        review = review_discard(dealt, option.discard, dealer=True)
        assert review is not None and review.rank == 1 and review.is_best


def test_review_is_off_under_tournament_rules() -> None:
    dealt = parse_cards("5H 5C 5S JD 9C KD")
    assert review_discard(dealt, parse_cards("9C KD"), dealer=True, rules=ACC_TOURNAMENT) is None


def test_review_still_checks_its_input_under_tournament_rules() -> None:
    with pytest.raises(RulesError, match="was not dealt"):
        review_discard(parse_cards("5H 5C 5S JD 9C KD"), parse_cards("9C 9D"), dealer=True, rules=ACC_TOURNAMENT)


@pytest.mark.parametrize(("discard", "message"), [
    ("9C 9D", "9D was not dealt"),
    ("9C", "lays away 2 card"),
    ("9C KD 5H", "lays away 2 card"),
    ("9C 9C", "9C appears twice"),
])
def test_review_rejects_a_discard_that_could_not_be_made(discard: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        review_discard(parse_cards("5H 5C 5S JD 9C KD"), parse_cards(discard), dealer=True)


# -- errors ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "rules", "message"), [
    ("5H 5C 5S JD 9C", ACC, "2-player cribbage deals 6 cards, not 5"),
    ("5H 5C 5S JD 9C KD", THREE, "3-player cribbage deals 5 cards, not 6"),
    ("5H 5C 5S JD 9C KD", FIVE_CARD, "five-card cribbage deals 5 cards, not 6"),
    ("5H 5C 5S JD 9C 5C", ACC, "5C appears twice"),
])
def test_bad_hands_are_refused(text: str, rules: Rules, message: str) -> None:
    with pytest.raises(RulesError, match=message) as info:
        analyse_discards(parse_cards(text), dealer=True, rules=rules)
    assert isinstance(info.value, CribpiError) and isinstance(info.value, ValueError)


def test_non_cards_are_refused() -> None:
    with pytest.raises(RulesError, match="Card objects"):
        analyse_discards(["5H", "5C", "5S", "JD", "9C", "KD"], dealer=True)  # type: ignore[list-item]


def test_unseen_must_not_hold_a_card_in_hand() -> None:
    with pytest.raises(RulesError, match="5H is in the hand"):
        analyse("5H 5C 5S JD 9C KD", dealer=True, unseen=parse_cards("5H 2C 3C 4C"))
    with pytest.raises(RulesError, match="need 3"):
        analyse("5H 5C 5S JD 9C KD", dealer=True, unseen=parse_cards("2C 3C"))


def test_the_analysis_stands_on_the_rules_core_alone() -> None:
    """Pure: importing it pulls in no hardware, app or store module (nor anything off stdlib)."""
    code = (
        "import sys, cribpi.analysis; "
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('cribpi'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    allowed = ("cribpi.analysis", "cribpi.rules", "cribpi.exc")
    assert all(m == "cribpi" or m.startswith(allowed) for m in out.split()), out
    third_party = ("numpy", "gpiozero", "luma", "serial", "PIL")
    leaked = subprocess.run(
        [sys.executable, "-c", f"import sys, cribpi.analysis; print([m for m in {third_party!r} if m in sys.modules])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert leaked == "[]"
