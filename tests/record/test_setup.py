"""A game started from a position: the Setup event in the engine, the journal's JSON form, and
the ``[Setup "..."]`` tag of a record (written, read back, refused)."""

from __future__ import annotations

from typing import Any

import pytest

from cribpi.exc import RecordError, RulesError
from cribpi.game import Event, Game, Mode, NewGame, Peg, Phase, event_from_dict
from cribpi.game.events import Setup
from cribpi.record import export_record, parse_record
from cribpi.rules import ACC, FIVE_CARD


def game(*events: Event, names: tuple[str, ...] = ("Ann", "Ben"), **options: Any) -> Game:
    return Game([NewGame(names, **options), *events])


def test_a_setup_starts_the_game_at_the_scores_with_the_dealer() -> None:
    state = game(Setup((85, 102), dealer=1)).state
    assert state.scores == state.rear == (85, 102)
    assert (state.phase, state.deal.number, state.deal.dealer) == (Phase.STARTER, 1, 1)
    assert state.deal.scores_at_start == (85, 102) and state.first_dealer == 1


def test_games_won_give_the_game_number_and_count_in_the_match() -> None:
    g = game(Setup((0, 0), dealer=0, won=(1, 0)), mode=Mode.BOARD, match_games=3)
    assert (g.state.game_number, g.state.games_won()) == (2, (1, 0))
    g.apply(Peg(0, 121))
    assert g.state.phase is Phase.MATCH_OVER and g.state.games_won() == (2, 0)
    # the earlier game's points and spread are not known: only this game's count
    assert g.state.match_summary()["game_points"] == [g.state.games[-1].result.game_points, 0]


def test_partners_give_a_score_per_team() -> None:
    state = game(Setup((60, 70), dealer=3), names=("A", "B", "C", "D"),
                 rules=ACC.replace(players=4, partnerships=True)).state
    assert state.scores == (60, 70) and state.deal.dealer == 3


def test_five_card_pone_still_pegs_three_at_the_first_deal() -> None:
    state = game(Setup((10, 20), dealer=0), rules=FIVE_CARD).state
    assert state.scores == (10, 23)


@pytest.mark.parametrize("setup, message", [
    (Setup((121, 0), dealer=0), r"setup scores \[121, 0\]: give 2 whole numbers 0-120"),
    (Setup((-1, 0), dealer=0), r"0-120"),
    (Setup((1, 2, 3), dealer=0), r"give 2 whole numbers"),
    (Setup((True, 0), dealer=0), r"whole numbers"),
    (Setup((0, 0), dealer=2), r"seat 2 does not exist"),
    (Setup((0, 0), dealer=0, won=(1, 0)), r"setup won \[1, 0\]: give 2 whole numbers 0-0"),
    (Setup((0, 0), dealer=0, won=(0, 0, 0)), r"setup won"),
])
def test_a_setup_that_cannot_be_is_refused(setup: Setup, message: str) -> None:
    g = game()
    with pytest.raises(RulesError, match=message):
        g.apply(setup)
    assert g.state.scores == (0, 0) and len(g.events) == 1


def test_a_setup_only_starts_a_game() -> None:
    with pytest.raises(RulesError, match="setup is not possible now"):
        game(Setup((0, 0), dealer=0), Setup((5, 5), dealer=0))
    with pytest.raises(RulesError, match="not possible now"):
        Game([NewGame(("Ann", "Ben"), first_dealer=0), Setup((5, 5), dealer=0)])


def test_the_journal_form_round_trips() -> None:
    event = Setup((85, 102), dealer=1, won=(1, 0))
    assert event_from_dict(event.to_dict()) == event
    assert event.to_dict() == {"type": "setup", "scores": [85, 102], "dealer": 1, "won": [1, 0]}


RECORD = ('[Players "Ann" "Ben"]\n[Rules "acc"]\n[Mode "count"]\n[Match "3"]\n'
          '[Setup "85 102; dealer Ben; won 1 0"]\n\nDeal 1: Ben deals\nStarter: 5H\nPlay: 5C 5D\n')


def test_the_tag_is_written_and_read_back_exactly() -> None:
    record = parse_record(RECORD)
    assert record.events[1] == Setup((85, 102), dealer=1, won=(1, 0))
    assert record.text() == RECORD
    events = [NewGame(("Ann", "Ben")), Setup((3, 0), dealer=0)]
    assert export_record(events).splitlines()[-2:] == ["", "Deal 1: Ann deals"]
    assert '[Setup "3 0; dealer Ann"]' in export_record(events)
    assert parse_record(export_record(events)).events == events


@pytest.mark.parametrize("tag, message", [
    ('[Setup "85; dealer Ann"]', r"line 5: the setup is refused: setup scores \[85\]: give 2 whole numbers"),
    ('[Setup "85 102"]', r"line 5: '85 102': expected the scores in seat order, then the dealer"),
    ('[Setup "85 102; dealer Cat"]', r"the dealer one of Ann, Ben"),
    ('[Setup "85 x; dealer Ann"]', r"expected the scores in seat order"),
    ('[Setup "85 102; dealer Ann; lost 1"]', r"expected the scores in seat order"),
    ('[Setup "85 130; dealer Ann"]', r"line 5: the setup is refused: setup scores \[85, 130\]"),
    ('[Setup "85 102; dealer Ann; won 2 0"]', r"setup won \[2, 0\]: give 2 whole numbers 0-1"),
    ('[Setup "85 102; dealer Ann"]\n[Dealer "Ann"]', r"the setup names the dealer: leave out the \[Dealer\] tag"),
])
def test_a_bad_setup_tag_names_its_line(tag: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(f'[Players "Ann" "Ben"]\n[Rules "acc"]\n[Mode "count"]\n[Match "3"]\n{tag}\n')
