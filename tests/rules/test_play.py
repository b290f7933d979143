"""The play (pegging): per-card points from RULES.md and the seeds' worked sequences.

Cases are written card@count:points, as in RULES.md. Go and last card are the game's job
(it knows who can still play), so only the points each laid card makes are checked here.
"""

from __future__ import annotations

import json

import pytest

from cribpi.exc import RulesError
from cribpi.rules import MAX_COUNT, Card, Rank, Suit, count_total, parse_cards, playable, score_play


def lay(ranks: str) -> list[Card]:
    """Cards for bare ranks ("4 2 3 10 K"), each repeat of a rank in the next suit."""
    used: dict[Rank, int] = {}
    cards = []
    for token in ranks.split():
        rank = Rank.parse(token)
        cards.append(Card(rank, Suit(used.get(rank, 0))))
        used[rank] = used.get(rank, 0) + 1
    return cards


def pegging(ranks: str) -> list[tuple[int, int]]:
    """(count, points) after each card, the count never restarting."""
    cards = lay(ranks)
    return [(score_play(cards[: i + 1]).running, score_play(cards[: i + 1]).total) for i in range(len(cards))]


def last(ranks: str) -> tuple[int, int]:
    return pegging(ranks)[-1]


# -- RULES.md worked cases ------------------------------------------------------------------

def test_four_two_three_five_six() -> None:
    assert pegging("4 2 3 5 6") == [(4, 0), (6, 0), (9, 3), (14, 4), (20, 5)]


def test_seven_eight_nine_seven_is_thirty_one_and_a_run() -> None:
    assert pegging("7 8 9 7") == [(7, 0), (15, 2), (24, 3), (31, 5)]
    score = score_play(lay("7 8 9 7"))
    assert [i.kind for i in score.items] == ["thirty-one", "run"]
    assert score.explain() == "thirty-one is two, and a run of three is five"


def test_five_five_five_is_fifteen_and_pair_royal() -> None:
    assert last("5 5 5") == (15, 8)
    assert score_play(lay("5 5 5")).explain() == "fifteen two, and a pair royal is eight"


def test_six_four_five_is_fifteen_and_a_run() -> None:
    assert last("6 4 5") == (15, 5)


def test_ace_to_five_is_fifteen_and_a_run_of_five() -> None:
    assert last("A 2 3 4 5") == (15, 7)


def test_three_four_five_five_pairs_but_no_run() -> None:
    assert pegging("3 4 5 5") == [(3, 0), (7, 0), (12, 3), (17, 2)]
    assert [i.kind for i in score_play(lay("3 4 5 5")).items] == ["pair"]


def test_king_queen_pegs_nothing() -> None:
    assert pegging("K Q") == [(10, 0), (20, 0)]


def test_run_broken_by_a_card_between_000() -> None:
    # 000: 4-2-3-4-3: the first 3 scores 3, the second 4 scores 3 (2-3-4), the final 3 nothing
    assert pegging("4 2 3 4 3") == [(4, 0), (6, 0), (9, 3), (13, 3), (16, 0)]


def test_four_two_three_five_three_003() -> None:
    # 003: the 3 scores 3, the 5 scores 4, the second 3 no run
    assert pegging("4 2 3 5 3") == [(4, 0), (6, 0), (9, 3), (14, 4), (17, 0)]


def test_hoyle_runs_in_any_order_002() -> None:
    assert last("7 6 8") == (21, 3)
    assert pegging("5 2 4 3") == [(5, 0), (7, 0), (11, 0), (14, 4)]


def test_pairs_royal_and_double_pair_royal() -> None:
    assert pegging("3 3 3 3") == [(3, 0), (6, 2), (9, 6), (12, 12)]
    assert [i.kind for i in score_play(lay("3 3 3 3")).items] == ["double pair royal"]
    assert last("3 3 4 3") == (13, 0)  # a card between breaks the pair


def test_ace_is_low_in_the_play() -> None:
    assert last("Q K A") == (21, 0)
    assert last("J Q K") == (30, 3)


# -- 000's two-player examples -------------------------------------------------------------

def test_000_example_1() -> None:
    # A: 10 10 9 6; B: 7 6 5 4. A 9, B 6 (fifteen two), A 6 (pair), B 5 (26); A says go,
    # B 4 (run of three; one for last is the game's). New count: A 10, B 7, A 10 (last: game's).
    first = lay("9 6 6 5 4")
    assert [(score_play(first[: i + 1]).running, score_play(first[: i + 1]).total) for i in range(5)] == [
        (9, 0), (15, 2), (21, 2), (26, 0), (30, 3)]
    second = parse_cards("TC 7C TD")
    assert [score_play(second[: i + 1]).total for i in range(3)] == [0, 0, 0]
    assert count_total(second) == 27


def test_000_example_2() -> None:
    # A: 10 8 7 5; B: 7 6 5 4. A 8, B 7 (fifteen two), A 7 (pair), B 6 (28); neither can
    # play. A's 5 then starts a new count and makes no run with the 7 and 6 before.
    a_hand, b_hand = lay("10 8 7 5"), parse_cards("7D 6C 5D 4C")
    count = [a_hand[1], b_hand[0], a_hand[2], b_hand[1]]
    assert [(score_play(count[: i + 1]).running, score_play(count[: i + 1]).total) for i in range(4)] == [
        (8, 0), (15, 2), (22, 2), (28, 0)]
    assert playable([a_hand[0], a_hand[3]], count) == []
    assert playable([b_hand[2], b_hand[3]], count) == []
    assert score_play([a_hand[3]]).total == 0


# -- 003's "interesting play" ------------------------------------------------------------------

def test_003_interesting_play_pegging() -> None:
    count = parse_cards("QC 5D TD 6C")  # non-dealer Q, dealer 5, non-dealer 10, dealer 6
    assert [(score_play(count[: i + 1]).running, score_play(count[: i + 1]).total) for i in range(4)] == [
        (10, 0), (15, 2), (25, 0), (31, 2)]
    count = parse_cards("2H 4H 4S 4D")  # new count: 2, 4, 4 (pair), 4 (pair royal)
    assert [(score_play(count[: i + 1]).running, score_play(count[: i + 1]).total) for i in range(4)] == [
        (2, 0), (6, 0), (10, 2), (14, 6)]


# -- the API ----------------------------------------------------------------------------------

def test_playscore_as_dict_is_json() -> None:
    score = score_play(lay("7 8 9 7"))
    data = json.loads(json.dumps(score.as_dict()))
    assert data == {
        "count": ["7C", "8C", "9C", "7D"], "running": 31, "total": 5,
        "items": [{"kind": "thirty-one", "cards": ["7C", "8C", "9C", "7D"], "points": 2},
                  {"kind": "run", "cards": ["8C", "9C", "7D"], "points": 3}],
        "explain": "thirty-one is two, and a run of three is five",
    }
    assert repr(score) == "<PlayScore 7C 8C 9C 7D (31): 5>"


def test_nothing_scored_explains_as_nothing() -> None:
    score = score_play(lay("K"))
    assert score.total == 0 and score.items == () and score.explain() == "nothing to count"


def test_passing_31_is_refused() -> None:
    with pytest.raises(RulesError, match="past 31") as info:
        score_play(lay("K Q J 2"))
    assert "2C" in str(info.value) and "32" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_a_card_laid_twice_is_refused() -> None:
    with pytest.raises(RulesError, match="5H is laid twice"):
        score_play(parse_cards("5H 6C 5H"))


def test_an_empty_count_is_refused() -> None:
    with pytest.raises(RulesError, match="at least one card"):
        score_play([])


def test_non_cards_are_refused() -> None:
    with pytest.raises(RulesError, match="Card objects"):
        score_play(["5H"])  # type: ignore[list-item]


def test_playable_keeps_the_cards_that_fit() -> None:
    hand = parse_cards("AC 5D TH KS")
    assert playable(hand, []) == hand
    assert playable(hand, lay("K Q")) == hand  # 20: room for 11
    assert playable(hand, lay("K Q 8")) == parse_cards("AC")  # 28: room for 3
    assert playable(hand, lay("K Q 9")) == parse_cards("AC")  # 29: room for 2
    assert playable(hand, lay("K Q J A")) == []  # exactly 31
    assert playable(hand, lay("K Q 6")) == parse_cards("AC 5D")  # 26: room for 5
    assert MAX_COUNT == 31
