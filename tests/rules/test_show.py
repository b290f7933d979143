"""The show: every worked example in RULES.md and the five rule texts it was specified from.

Seeds: 000 modern two-player summary, 001 boxed-game leaflet, 002 Hoyle (BSD games),
003 English club guide, 004 board maker's leaflet. Suits are chosen so that no flush or
nobs creeps in unless the example is about them; "starter adds nothing" means a starter
that makes no fifteen, pair or run with the cards.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from cribpi.exc import RulesError
from cribpi.rules import (
    ACC,
    FIVE_CARD,
    HOYLE,
    Card,
    ShowScore,
    format_cards,
    parse_cards,
    rank_multiset_points,
    score_hand,
)


def show(hand: str, starter: str, **kwargs: object) -> ShowScore:
    return score_hand(parse_cards(hand), Card.parse(starter), **kwargs)  # type: ignore[arg-type]


def points_by_kind(score: ShowScore) -> Counter[str]:
    kinds: Counter[str] = Counter()
    for item in score.items:
        kinds[item.kind] += item.points
    return kinds


def count_of(score: ShowScore, kind: str) -> int:
    return sum(1 for item in score.items if item.kind == kind)


# -- the 29 hand (RULES.md, 002 Hoyle, 003) ----------------------------------------------

def test_29_hand_with_the_five_of_the_jacks_suit_as_starter() -> None:
    score = show("5H 5C 5S JD", "5D")
    assert score.total == 29
    kinds = points_by_kind(score)
    # 002: four fifteens with the jack, four from three fives (16), double pair royal 12, nobs 1
    assert kinds == {"fifteen": 16, "double pair royal": 12, "nobs": 1}
    assert count_of(score, "fifteen") == 8
    assert score.explain().endswith("and a double pair royal is twenty-eight, and one for his nobs is twenty-nine")


def test_29_hand_in_every_suit() -> None:
    for jack in ("JC", "JD", "JH", "JS"):
        suit = jack[1]
        fives = [f"5{s}" for s in "CDHS" if s != suit]
        assert show(f"{' '.join(fives)} {jack}", f"5{suit}").total == 29


def test_28_when_the_jack_does_not_match_the_starter() -> None:
    score = show("5C 5D 5S JC", "5H")
    assert score.total == 28
    assert "nobs" not in points_by_kind(score)


def test_jack_starter_with_three_fives_and_the_fourth_in_hand_is_28_minus_nothing() -> None:
    # a jack turned up is his heels (pegged by the dealer), never his nobs
    score = show("5C 5D 5S 5H", "JC")
    assert score.total == 28
    assert "nobs" not in points_by_kind(score)


# -- fifteens, pairs and runs -------------------------------------------------------------

def test_king_jack_five_five_is_ten_000() -> None:
    # 000: four fifteens (K and J each with either five) and the pair: 10
    score = show("KH JC 5S 5D", "2H")
    assert score.total == 10
    assert points_by_kind(score) == {"fifteen": 8, "pair": 2}
    assert score.explain() == "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten"


def test_king_jack_five_with_the_other_five_as_starter_is_ten() -> None:
    assert show("KH JC 5S", "5D", rules=FIVE_CARD).total == 10  # three held in five-card
    assert show("KH JC 5S AD", "5D").total == 10


def test_six_seven_seven_eight_000() -> None:
    # 000: two runs of three, two fifteens and a pair: 12 (no starter given; K adds nothing)
    score = show("6H 7C 7S 8D", "KC")
    assert score.total == 12
    assert points_by_kind(score) == {"fifteen": 4, "pair": 2, "run": 6}
    assert count_of(score, "run") == 2 and count_of(score, "fifteen") == 2


def test_seven_eight_eight_king_with_nine_starter_000_003() -> None:
    score = show("7C 8D 8H KS", "9C")
    assert score.total == 12
    assert score.explain() == (
        "fifteen two, fifteen four, and a pair is six, and a run of three is nine, "
        "and a run of three is twelve"
    )
    # "each of your 8s forming part of a fifteen, a pair and a run"
    for eight in parse_cards("8D 8H"):
        kinds = {item.kind for item in score.items if eight in item.cards}
        assert kinds == {"fifteen", "pair", "run"}


def test_seven_seven_eight_eight_has_four_fifteens_001() -> None:
    score = show("7C 7D 8H 8S", "KC")
    assert count_of(score, "fifteen") == 4
    assert points_by_kind(score) == {"fifteen": 8, "pair": 4}
    assert score.total == 12


def test_double_run_of_four_001() -> None:
    # 001: 5,6,7,8,8 = 10 (8 for the double run, 2 for the pair); 7+8 twice adds 4 fifteens
    score = show("5C 6D 7H 8S", "8C")
    kinds = points_by_kind(score)
    assert kinds["run"] + kinds["pair"] == 10
    assert kinds["fifteen"] == 4
    assert score.total == 14


def test_double_run_of_three_002() -> None:
    # 002: a double run of three (4-3-3-2) counts 8 exclusive of fifteens; with a K
    # starter, K-3-2 makes fifteen twice
    score = show("4C 3D 3H 2S", "KC")
    kinds = points_by_kind(score)
    assert kinds["run"] + kinds["pair"] == 8
    assert kinds["fifteen"] == 4
    assert score.total == 12


@pytest.mark.parametrize(
    ("hand", "starter", "fifteens"),
    [("4C 4D 4H 5S", "6C", 6), ("KC KD KH QS", "JC", 0), ("6C 4D 4H 5S", "4S", 6)],
)
def test_triple_run_is_15_exclusive_of_fifteens_001_002(hand: str, starter: str, fifteens: int) -> None:
    # 001: 4,4,4,5,6 = three runs of three and three pairs, 15; 002: K-K-K-Q-J, 15
    score = show(hand, starter)
    kinds = points_by_kind(score)
    assert kinds["run"] + kinds["pair royal"] == 15
    assert count_of(score, "run") == 3
    assert kinds["fifteen"] == fifteens
    assert score.total == 15 + fifteens


@pytest.mark.parametrize(("hand", "starter"), [("6C 6D 7H 7S", "8C"), ("8C 8D 7H 6S", "6C")])
def test_quadruple_run_is_16_exclusive_of_fifteens_001_002(hand: str, starter: str) -> None:
    # 001: 6,6,7,7,8 = four runs of three plus two pairs, 16; 002: 8-8-7-6-6, 16
    score = show(hand, starter)
    kinds = points_by_kind(score)
    assert kinds["run"] + kinds["pair"] == 16
    assert count_of(score, "run") == 4 and count_of(score, "pair") == 2
    assert kinds["fifteen"] == 4  # 7+8, twice
    assert score.total == 20


def test_hoyle_nine_six_five_four_four_is_14_002() -> None:
    # "Fifteen 2, fifteen 4, fifteen 6 and double run makes 14"
    score = show("9C 6D 5H 4S", "4C")
    assert score.total == 14
    kinds = points_by_kind(score)
    assert kinds["fifteen"] == 6 and kinds["run"] + kinds["pair"] == 8


def test_king_jack_ten_five_is_three_fifteens_003() -> None:
    score = show("KC JD TH 5S", "2C")
    assert score.total == 6
    assert points_by_kind(score) == {"fifteen": 6}
    assert score.explain() == "fifteen two, fifteen four, fifteen six"


def test_four_five_five_six_is_12_003() -> None:
    score = show("4C 5D 5H 6S", "2C")
    assert score.total == 12
    assert points_by_kind(score) == {"fifteen": 4, "pair": 2, "run": 6}


def test_run_of_four_counts_four_not_two_runs_of_three_000_003() -> None:
    score = show("9C TD JH QS", "2C")
    assert score.total == 4
    assert [(i.kind, i.points, len(i.cards)) for i in score.items] == [("run", 4, 4)]
    assert score.explain() == "a run of four is four"


def test_run_of_five() -> None:
    score = show("AC 2D 3H 4S", "5C")
    kinds = points_by_kind(score)
    assert kinds["run"] == 5 and count_of(score, "run") == 1
    assert kinds["fifteen"] == 2  # all five: 1+2+3+4+5
    assert score.total == 7


def test_king_and_queen_are_not_a_pair_and_ace_is_low() -> None:
    assert show("KC QD 9H 8S", "AC").total == 0  # K and Q both count 10 but do not pair
    assert show("KC KD 9H 8S", "AC").total == 2
    # Q-K-A is not a run
    assert show("QC KD AH 7S", "9D").total == 0
    assert show("QC KD JH 7S", "9D").total == 3


def test_nothing_to_count() -> None:
    score = show("QC TD 2H 4S", "6C")
    assert score.total == 0
    assert score.items == ()
    assert score.explain() == "nothing to count"


# -- flushes ----------------------------------------------------------------------------

def test_four_card_hand_flush_is_4_and_5_with_the_starter() -> None:
    assert show("2H 4H 6H 8H", "KS").total == 4
    assert show("2H 4H 6H 8H", "KH").total == 5
    flush = show("2H 4H 6H 8H", "KH").items[-1]
    assert flush.kind == "flush" and len(flush.cards) == 5


def test_three_hand_cards_and_the_starter_do_not_make_a_flush_000_003() -> None:
    assert show("2H 4H 6H 8S", "KH").total == 0


def test_crib_flush_needs_all_five_cards() -> None:
    assert show("2H 4H 6H 8H", "KS", crib=True).total == 0
    assert show("2H 4H 6H 8H", "KH", crib=True).total == 5
    assert show("2H 4H 6H 8S", "KH", crib=True).total == 0


def test_crib_four_flush_option_allows_the_old_rule() -> None:
    old = ACC.replace(crib_four_flush=True)
    assert show("2H 4H 6H 8H", "KS", crib=True, rules=old).total == 4
    assert show("2H 4H 6H 8H", "KH", crib=True, rules=old).total == 5
    assert show("2H 4H 6H 8H", "KS", rules=old).total == 4  # the hand is unaffected


def test_hoyle_preset_scores_the_show_like_acc() -> None:
    # 002: "No count for four-flush in crib"
    assert show("2H 4H 6H 8H", "KS", crib=True, rules=HOYLE).total == 0
    assert show("5H 5C 5S JD", "5D", rules=HOYLE).total == 29


def test_five_card_variant_hand_flush_is_3_plus_1_with_the_starter() -> None:
    assert show("2H 4H 6H", "KS", rules=FIVE_CARD).total == 3
    assert show("2H 4H 6H", "KH", rules=FIVE_CARD).total == 4
    assert show("2H 4H 6S", "KH", rules=FIVE_CARD).total == 0
    # the crib still has four cards and needs all five for a flush
    assert show("2H 4H 6H 8H", "KS", crib=True, rules=FIVE_CARD).total == 0
    assert show("2H 4H 6H 8H", "KH", crib=True, rules=FIVE_CARD).total == 5


def test_five_card_variant_fifteens_pairs_runs() -> None:
    # J with each five, and the three fives: 4 fifteens; pair royal; nobs
    assert show("5H 5C JD", "5D", rules=FIVE_CARD).total == 8 + 6 + 1
    assert show("6H 7C 8D", "KS", rules=FIVE_CARD).total == 3 + 2  # run and 7+8
    assert show("4C 4D 4H", "4S", rules=FIVE_CARD).total == 12


# -- his nobs -------------------------------------------------------------------------------

def test_nobs_is_the_jack_of_the_starters_suit_in_hand_or_crib() -> None:
    assert show("JH 2C 4D 9S", "KH").total == 2 + 1  # 2+4+9 = 15 and nobs
    assert show("JH 2C 4D 9S", "KS").total == 2
    assert show("JH 2C 4D 9S", "KH", crib=True).total == 3
    nobs = show("JH 2C 4D 9S", "KH").items[-1]
    assert (nobs.kind, format_cards(nobs.cards), nobs.points) == ("nobs", "JH", 1)
    assert show("JH 2C 4D 9S", "KH").explain() == "fifteen two, and one for his nobs is three"


def test_a_jack_starter_is_not_nobs() -> None:
    assert show("KH 2C 4D 9S", "JH").total == 2


# -- 003's "interesting play" ------------------------------------------------------------------

def test_interesting_play_dealer_hand_24_003() -> None:
    # dealer keeps 5, 6, 4, 4; the cut is a 6
    score = show("5D 6C 4H 4S", "6D")
    assert score.total == 24
    assert points_by_kind(score) == {"fifteen": 8, "pair": 4, "run": 12}


def test_interesting_play_crib_24_003() -> None:
    # crib: the dealer's 7 and 8 and the non-dealer's 7 and 8, with the 6 cut
    score = show("7C 8D 7H 8S", "6S", crib=True)
    assert score.total == 24
    assert points_by_kind(score) == {"fifteen": 8, "pair": 4, "run": 12}


def test_interesting_play_non_dealer_scores_nothing_003() -> None:
    assert show("QC TD 2H 4S", "6C").total == 0


# -- results as data -----------------------------------------------------------------------

EXAMPLES = [
    ("5H 5C 5S JD", "5D", False),
    ("7C 8D 8H KS", "9C", False),
    ("6C 6D 7H 7S", "8C", False),
    ("2H 4H 6H 8H", "KH", True),
    ("JH 2C 4D 9S", "KH", False),
    ("QC TD 2H 4S", "6C", False),
    ("7C 8D 7H 8S", "6S", True),
]


@pytest.mark.parametrize(("hand", "starter", "crib"), EXAMPLES)
def test_items_sum_to_the_total_and_use_only_the_five_cards(hand: str, starter: str, crib: bool) -> None:
    score = show(hand, starter, crib=crib)
    assert sum(item.points for item in score.items) == score.total
    five = set(parse_cards(hand)) | {Card.parse(starter)}
    for item in score.items:
        assert set(item.cards) <= five
        assert item.kind in {"fifteen", "pair", "pair royal", "double pair royal", "run", "flush", "nobs"}
        if item.kind == "fifteen":
            assert sum(c.value for c in item.cards) == 15 and item.points == 2
        if item.kind == "run":
            assert item.points == len(item.cards) >= 3


@pytest.mark.parametrize(("hand", "starter", "crib"), EXAMPLES)
def test_items_come_in_the_order_players_count_them(hand: str, starter: str, crib: bool) -> None:
    order = ["fifteen", "pair", "pair royal", "double pair royal", "run", "flush", "nobs"]
    kinds = [item.kind for item in show(hand, starter, crib=crib).items]
    group = {"pair royal": "pair", "double pair royal": "pair"}
    ranks = [order.index(group.get(k, k)) for k in kinds]
    assert ranks == sorted(ranks)


@pytest.mark.parametrize(("hand", "starter", "crib"), EXAMPLES)
def test_as_dict_is_json_and_agrees(hand: str, starter: str, crib: bool) -> None:
    score = show(hand, starter, crib=crib)
    data = json.loads(json.dumps(score.as_dict()))
    assert data["total"] == score.total == int(score)
    assert data["hand"] == hand.split() and data["starter"] == starter
    assert data["crib"] is crib and data["rules"] == "acc"
    assert sum(item["points"] for item in data["items"]) == score.total
    assert data["explain"] == score.explain()


def test_items_are_lazy_and_cached() -> None:
    score = show("7C 8D 8H KS", "9C")
    assert score._items is None  # reading .total never itemises
    assert score.items is score.items


def test_repr_and_str() -> None:
    score = show("7C 8D 8H KS", "9C", crib=True)
    assert repr(score) == "<ShowScore crib 7C 8D 8H KS | 9C: 12>"
    assert str(score.items[0]) == "fifteen 7C 8D = 2"


def test_rank_multiset_points_ignores_suits() -> None:
    assert rank_multiset_points(parse_cards("5H 5C 5S JD 5D")) == 28
    assert rank_multiset_points(parse_cards("2H 4H 6H 8H KH")) == 0
    assert rank_multiset_points(parse_cards("7C 8D 8H KS 9C")) == 12
    assert rank_multiset_points(parse_cards("JH 2C 4D 9S KH")) == 2  # no nobs: no suits
    assert rank_multiset_points(parse_cards("6H 7C 8D")[:2] + parse_cards("7S 8C")) == 12


# -- bad input --------------------------------------------------------------------------------

def test_duplicate_card_in_hand() -> None:
    with pytest.raises(RulesError, match="5H appears twice"):
        show("5H 5H 6C 7D", "KC")


def test_starter_also_in_the_hand() -> None:
    with pytest.raises(RulesError, match="5H is the starter and also in the hand"):
        show("5H 6C 7D 8S", "5H")


@pytest.mark.parametrize("hand", ["5H 6C 7D", "5H 6C 7D 8S 9H", ""])
def test_wrong_number_of_cards(hand: str) -> None:
    n = len(hand.split())
    with pytest.raises(RulesError, match=f"a hand needs 4 cards, not {n}"):
        show(hand, "KC")
    with pytest.raises(RulesError, match=f"a crib needs 4 cards, not {n}"):
        show(hand, "KC", crib=True)


def test_five_card_variant_hand_needs_three_cards() -> None:
    with pytest.raises(RulesError, match="a hand needs 3 cards, not 4"):
        show("5H 6C 7D 8S", "KC", rules=FIVE_CARD)


def test_non_cards_are_refused_with_rules_error() -> None:
    with pytest.raises(RulesError, match="Card objects"):
        score_hand(["5H", "6C", "7D", "8S"], Card.parse("KC"))  # type: ignore[list-item]
    with pytest.raises(RulesError, match="Card objects"):
        score_hand(parse_cards("5H 6C 7D 8S"), "KC")  # type: ignore[arg-type]


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        show("5H 5H 6C 7D", "KC")
