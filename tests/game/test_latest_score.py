"""``latest_score``: the deal's latest score with its reasons, as the play now stands."""

from __future__ import annotations

import random

from game_script import C, Script

from cribpi.game import Go, Lay, MoveCard, NewGame, Pegged, Penalty, Reason, Starter, Undo, apply, legal_cards
from cribpi.game.moves import latest_score
from cribpi.rules import ACC, FIVE_CARD
from cribpi.rules.speech import spoken_items

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


# -- scores made before the play: his heels, a penalty at the starter, five-card's three ----------


def first_lay_undone(s: Script, card: str = "KC") -> None:
    """A card laid (it scores nothing) and taken back: the undo lands in the play."""
    s.game.apply(Lay(ANN, C(card)))
    s.game.apply(Undo(1))


def test_his_heels_are_rebuilt_in_the_words_the_starter_pegged_them_with():
    s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), Starter(C("JS")))
    heels = last_pegged(s.effects)
    assert heels is not None and heels.reason is Reason.HEELS
    first_lay_undone(s)
    rebuilt = latest_score(s.state, apply)
    assert rebuilt == heels  # seat, points, items, score: all as the starter pegged them
    assert rebuilt.explain == spoken_items(heels.items) != "" and rebuilt.explain != Reason.HEELS.value


def test_a_penalty_at_the_starter_is_rebuilt_with_its_reason_from_the_events_in_force():
    s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), Penalty(BOB, 2, "exposed card"), Starter(C("2S")))
    penalty = last_pegged(s.effects)
    assert penalty is not None and penalty.explain == "exposed card"
    first_lay_undone(s)
    assert latest_score(s.state, apply, s.game.events) == penalty
    alone = latest_score(s.state, apply)  # without the events its reason is not known: only what it is
    assert alone is not None and (alone.seat, alone.points, alone.reason, alone.score) == (BOB, 2, Reason.PENALTY, 2)
    assert alone.explain == ""  # the table says "penalty" then


def test_a_penalty_that_sends_a_side_back_is_rebuilt_too():
    s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), Penalty(BOB, 4, "set-up"), Penalty(BOB, -2, "overpeg"),
               Starter(C("2S")))
    first_lay_undone(s)
    assert latest_score(s.state, apply, s.game.events) == last_pegged(s.effects)
    alone = latest_score(s.state, apply)
    assert alone is not None and (alone.points, alone.score, alone.explain) == (-2, 2, "")


def test_a_penalty_not_in_the_events_given_is_not_credited_with_their_reason():
    s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), Penalty(BOB, 2, "exposed card"), Starter(C("2S")))
    other = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), Penalty(ANN, 3, "renege"), Starter(C("2S")))
    first_lay_undone(s)
    pegged = latest_score(s.state, apply, other.game.events)
    assert pegged is not None and pegged.seat == BOB and pegged.note == ""


def test_heels_after_a_penalty_are_the_latest_score_and_the_penalty_s_reason_is_kept_before_them():
    s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), Penalty(ANN, 2, "exposed card"), Starter(C("JH")))
    first_lay_undone(s)
    assert latest_score(s.state, apply, s.game.events) == last_pegged(s.effects)
    assert last_pegged(s.effects).reason is Reason.HEELS


def test_five_card_three_to_start_is_rebuilt_as_it_was_pegged():
    s = Script(NewGame(("Ann", "Bob"), FIVE_CARD, first_dealer=BOB), Starter(C("2S")))
    three = last_pegged(s.effects)
    assert three is not None and three.reason is Reason.THREE_FOR_LAST
    first_lay_undone(s)
    assert latest_score(s.state, apply, s.game.events) == three


def test_a_score_made_in_the_play_still_comes_before_the_heels():
    s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), Starter(C("JS")))
    s(Lay(ANN, C("KC")), Lay(BOB, C("KD")), Lay(ANN, C("5S")))
    assert latest_score(s.state, apply, s.game.events) == last_pegged(s.effects)  # Bob's pair, not the heels
    assert last_pegged(s.effects).explain == "a pair is two"


def test_at_every_undo_into_random_plays_after_heels_or_penalties_it_is_the_deal_s_last_score():
    rng = random.Random(18)
    for _ in range(40):
        before = [Penalty(rng.choice((ANN, BOB)), rng.randint(1, 3), rng.choice(("exposed card", "renege")))
                  for _ in range(rng.randint(0, 2))]
        starter = rng.choice((C("JS"), C("JD"), C("2S"), C("7H")))
        s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), *before, Starter(starter))
        while s.state.deal is not None and (seat := s.state.deal.turn) is not None:
            deal = s.state.deal
            fits = legal_cards(s.state, seat) if deal.held[seat] else []
            s(Lay(seat, rng.choice(fits)) if fits and (deal.running + 10 <= 31 or rng.random() < 0.7) else Go(seat))
        played = len(s.game.events) - 2 - len(before)  # the events since the starter
        for steps in range(1, played + 1):
            undone = Script(*s.game.events[:-steps])
            s.game.apply(Undo(steps))
            assert latest_score(s.state, apply, s.game.events) == last_pegged(undone.effects)
            s.game.rollback()
