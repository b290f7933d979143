"""The post-deal discard review: off by default, refused by tournament rules."""

import pytest

from cribpi.analysis import analyse_discards
from cribpi.exc import RulesError
from cribpi.game import Crib, Discard, Mode, NewGame, Starter
from cribpi.game.review import review_seat, reviewable_seats
from cribpi.rules import ACC, ACC_TOURNAMENT

from game_script import C, Script, cards, play_out

PONE, DEALER = 0, 1
HANDS = {PONE: cards("9H 6C 4C 5C"), DEALER: cards("5D 5H 5S JD")}


def _deal(review=True, rules=ACC):
    s = Script(NewGame(("Pone", "Dealer"), rules, Mode.COUNT, first_dealer=DEALER, review=review))
    s(Starter(C("2S")), Discard(PONE, cards("KC QD")))
    play_out(s, HANDS)
    s(Crib(cards("KC QD 8S 7D")), Discard(DEALER, cards("8S 7D")))
    return s


def test_review_compares_the_discard_made_with_the_best():
    s = _deal()
    assert reviewable_seats(s.state) == [PONE, DEALER]
    review = review_seat(s.state, PONE)
    expected = analyse_discards(HANDS[PONE] + cards("KC QD"), dealer=False)
    assert review.best == expected[0]
    assert review.loss == pytest.approx(expected[0].total_ev - review.made.total_ev)
    assert set(review.made.discard) == set(cards("KC QD"))


def test_review_is_off_by_default():
    s = _deal(review=False)
    assert reviewable_seats(s.state) == [] and review_seat(s.state, PONE) is None


def test_tournament_rules_refuse_the_review():
    with pytest.raises(RulesError, match="coaching"):
        Script(NewGame(("A", "B"), ACC_TOURNAMENT, Mode.COUNT, first_dealer=1, review=True))


def test_a_discard_must_be_in_the_crib():
    s = Script(NewGame(("Pone", "Dealer"), ACC, Mode.COUNT, first_dealer=DEALER, review=True))
    s(Starter(C("2S")), Crib(cards("KC QD 8S 7D")))
    with pytest.raises(RulesError, match="not in the crib"):
        s.game.apply(Discard(PONE, cards("KC AS")))
