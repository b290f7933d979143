"""``latest_score``: the deal's latest score with its reasons, as the play now stands."""

from __future__ import annotations

import random

from game_script import C, Script

from cribpi.game import Go, Lay, MoveCard, NewGame, Pegged, Starter, Undo, apply, legal_cards
from cribpi.game.moves import latest_score
from cribpi.rules import ACC

ANN, BOB = 0, 1  # Bob deals, Ann leads


def last_pegged(effects: list) -> Pegged | None:
    return next((e for e in reversed(effects) if isinstance(e, Pegged)), None)


def test_a_moved_card_s_score_is_the_one_a_deal_laid_that_way_pegs():
    s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), Starter(C("2S")))
    s(Lay(ANN, C("KC")), Lay(BOB, C("KD")), Lay(ANN, C("5S")), Lay(BOB, C("5H")))
    assert latest_score(s.state, apply) == last_pegged(s.effects)  # Bob's pair, as pegged
    s.game.apply(MoveCard(C("5H"), ANN))
    fresh = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), Starter(C("2S")))
    fresh(Lay(ANN, C("KC")), Lay(BOB, C("KD")), Lay(ANN, C("5S")), Go(BOB), Lay(ANN, C("5H")))
    moved = latest_score(s.state, apply)
    assert moved == last_pegged(fresh.effects)
    assert moved is not None and moved.seat == ANN and moved.explain == "a pair is two"


def test_nothing_before_the_starter_or_before_a_score():
    s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB))
    assert latest_score(s.state, apply) is None  # no deal yet
    s(Starter(C("2S")), Lay(ANN, C("KC")))
    assert latest_score(s.state, apply) is None  # a king led scores nothing


def test_at_every_step_of_random_plays_it_is_the_last_score_pegged_and_after_an_undo_too():
    rng = random.Random(10)
    for _ in range(40):
        s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), Starter(C("2S")))
        while s.state.deal is not None and (seat := s.state.deal.turn) is not None:
            deal = s.state.deal
            fits = legal_cards(s.state, seat) if deal.held[seat] else []
            must_lay = deal.running + 10 <= 31
            s(Lay(seat, rng.choice(fits)) if fits and (must_lay or rng.random() < 0.7) else Go(seat))
            assert latest_score(s.state, apply) == last_pegged(s.effects)
            for steps in range(1, len(s.game.events) - 1):
                undone = Script(*s.game.events[:-steps])  # what an undo of so many steps leaves
                s.game.apply(Undo(steps))
                assert latest_score(s.state, apply) == last_pegged(undone.effects)
                s.game.rollback()
