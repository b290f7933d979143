"""A card entered for the wrong seat, moved to the seat that laid it: the play scored again."""

from __future__ import annotations

import json

import pytest
from game_script import C, Script, cards

from cribpi.exc import RulesError
from cribpi.game import AlertKind, Game, HandCards, Lay, MoveCard, NewGame, Penalty, Phase, Starter, Undo
from cribpi.game.events import event_from_dict
from cribpi.record import export_record, parse_record
from cribpi.rules import ACC
from cribpi.store.snapshot import decode_state, encode_state

ANN, BOB = 0, 1  # Bob deals, Ann leads


def forgotten_go(*before: Penalty) -> Script:
    """At 22 Bob said go but nobody entered it; Ann's 9H, entered next, was credited to Bob,
    who took the two for thirty-one."""
    s = Script(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB), *before)
    s(Starter(C("2S")), Lay(ANN, C("TC")), Lay(BOB, C("QD")), Lay(ANN, C("2C")), Lay(BOB, C("9H")))
    assert s.state.deal.turn == ANN  # the table thinks Bob laid the 31, so Ann leads the next count
    return s


def test_a_card_moved_to_the_seat_that_laid_it_moves_its_points_too():
    s = forgotten_go()
    assert s.state.scores == (0, 2)
    before = s.state
    effects = s.game.apply(MoveCard(C("9H"), ANN))
    deal = s.state.deal
    assert s.state.scores == (2, 0)  # thirty-one for two is Ann's
    assert deal.cards_of(ANN) == cards("TC 2C 9H") and deal.cards_of(BOB) == cards("QD")
    assert deal.gone_at == ((BOB, 22),)  # the go nobody entered is in the play now
    assert deal.turn == BOB  # after Ann's 31, Bob leads the next count
    alert = next(e for e in effects if getattr(e, "kind", None) is AlertKind.MOVED)
    assert "9H moved from Bob to Ann" in alert.text and "Ann 0->2, Bob 2->0" in alert.text
    assert (alert.seat, alert.other) == (ANN, BOB)
    assert [e.kind for e in effects if hasattr(e, "kind")] == [AlertKind.MOVED]  # the old scores are not told again
    s.game.apply(Undo(1))
    assert s.state == before


def test_the_play_after_the_moved_card_is_credited_again_by_turn():
    s = forgotten_go()
    s(Lay(ANN, C("5D")), Lay(BOB, C("5H")))  # entered by turn after the wrong 9H: Bob "pairs" it
    assert s.state.scores == (0, 4)
    effects = s.game.apply(MoveCard(C("9H"), ANN))
    # really Bob led 5D after Ann's 31 and Ann paired it: each later card goes to the turn again
    assert s.state.scores == (4, 0)
    assert s.state.deal.cards_of(BOB) == cards("QD 5D") and s.state.deal.cards_of(ANN) == cards("TC 2C 9H 5H")
    # and Bob's go at 22 (the one nobody entered) was said holding 5D: a renege, told now
    renege = [e for e in effects if getattr(e, "kind", None) is AlertKind.RENEGE]
    assert len(renege) == 1 and "Bob said go at 22 holding 5D" in renege[0].text


def test_moves_build_on_each_other_and_a_card_can_go_back():
    s = forgotten_go()
    s.game.apply(MoveCard(C("9H"), ANN))
    s.game.apply(MoveCard(C("9H"), BOB))  # it was Bob's after all
    assert s.state.scores == (0, 2) and s.state.deal.gone_at == ()
    assert s.state.deal.moved == ((C("9H"), BOB),)


def test_a_move_the_play_cannot_have_had_is_refused_and_changes_nothing():
    s = forgotten_go()
    before = s.state
    with pytest.raises(RulesError, match=r"Bob's go is refused .*every card fits.*undo back to the card"):
        s.game.apply(MoveCard(C("QD"), ANN))  # at 10 Ann could not have said go
    with pytest.raises(RulesError, match="5C was not laid in this deal's play: .*TC QD 2C 9H"):
        s.game.apply(MoveCard(C("5C"), ANN))
    with pytest.raises(RulesError, match="already Bob \\(seat 2\\)'s card"):
        s.game.apply(MoveCard(C("9H"), BOB))
    with pytest.raises(RulesError, match="seat 4 does not exist"):
        s.game.apply(MoveCard(C("9H"), 4))
    assert s.state == before


def test_a_hand_entered_with_the_wrong_card_refuses_the_move_until_it_is_undone():
    s = forgotten_go()
    s(Lay(ANN, C("5D")), Lay(BOB, C("5H")), Lay(ANN, C("KS")), Lay(BOB, C("AH")))  # Ann "laid" four: the play ends
    assert s.state.phase is Phase.SHOW
    s(HandCards(ANN, cards("TC 2C 5D KS")))
    with pytest.raises(RulesError, match="cannot be scored again .*HandCards|hand.*refused"):
        s.game.apply(MoveCard(C("9H"), ANN))
    s.game.apply(Undo(1))
    s.game.apply(MoveCard(C("9H"), ANN))  # in the show, before a hand is counted
    assert s.state.phase is Phase.SHOW and s.state.deal.cards_of(ANN) == cards("TC 2C 9H 5H")
    # the hands laid whole are counted again, with the right cards: the crib is next
    assert s.game.expected().actions == ("crib",) and dict(s.state.deal.hand_totals)[ANN] == 4  # 9H 5H TC 2C


def test_a_move_round_trips_through_json_and_a_replay():
    s = forgotten_go()
    s.game.apply(MoveCard(C("9H"), ANN))
    event = MoveCard(C("9H"), ANN)
    assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event
    assert Game(list(s.game.events)).state == s.state
    assert decode_state(encode_state(s.state)) == s.state  # a snapshot keeps what a move replays


def test_a_move_that_wins_the_game_ends_it_there():
    s = forgotten_go(Penalty(ANN, 119, "set-up"))
    s.game.apply(MoveCard(C("9H"), ANN))
    assert s.state.phase is Phase.MATCH_OVER and s.state.scores[ANN] == 121  # a one-game match
    with pytest.raises(RulesError, match="at the end of the match"):
        s.game.apply(MoveCard(C("9H"), BOB))


def test_a_move_round_trips_through_a_record():
    s = forgotten_go()
    s(Lay(ANN, C("5D")))
    s.game.apply(MoveCard(C("9H"), ANN))
    s(Lay(ANN, C("5H")))
    text = export_record(s.game.events)
    assert "Move 9H Ann" in text.splitlines()
    assert parse_record(text).events == list(s.game.events)
