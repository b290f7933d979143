"""Muggins switched on or off for the game being played (``MugginsSet``): journalled, undone,
replayed, and only from the next claim on."""

from __future__ import annotations

import pytest

from cribpi.exc import RulesError
from cribpi.game import (
    AlertKind, Claim, Game, Lay, Mode, Muggins, MugginsSet, NewGame, Reason, Starter, Undo, event_from_dict,
    replay,
)
from cribpi.rules import Card, MugginsScope, get_rules


def claim_game(rules: str = "acc", mode: Mode = Mode.CLAIM) -> Game:
    """Bob deals; the starter 2S is down and Ann is to lay."""
    return Game([NewGame(("Ann", "Bob"), get_rules(rules), mode, first_dealer=1), Starter(Card.parse("2S"))])


def lay(game: Game, seat: int, card: str) -> None:
    game.apply(Lay(seat, Card.parse(card)))


def test_the_switch_applies_undoes_and_replays_from_the_journal():
    game = claim_game()
    assert game.state.rules.muggins is MugginsScope.OFF
    game.apply(MugginsSet(True))
    assert game.state.rules.muggins is MugginsScope.ACC
    game.apply(Undo(1))
    assert game.state.rules.muggins is MugginsScope.OFF
    game.apply(MugginsSet(True))
    journal = [event_from_dict(event.to_dict()) for event in game.journal]
    assert journal[-1] == MugginsSet(True) and MugginsSet(True).to_dict() == {"type": "muggins_set", "on": True}
    assert replay(journal) == game.state
    game.apply(MugginsSet(False))
    assert game.state.rules.muggins is MugginsScope.OFF


def test_a_claim_after_the_switch_is_open_to_muggins_and_one_before_is_not():
    game = claim_game()
    lay(game, 0, "5C")
    lay(game, 1, "TD")  # fifteen: 2 for Bob
    effects = game.apply(Claim(1, 1))  # muggins off: an under-claim nobody may take
    assert [e.kind for e in effects if hasattr(e, "kind")] == [AlertKind.UNDERCLAIM]
    game.apply(MugginsSet(True))
    with pytest.raises(RulesError, match="nothing is open to muggins"):
        game.apply(Muggins(0, 1))  # not opened after the switch
    lay(game, 0, "6H")
    lay(game, 1, "6S")  # a pair: 2 for Bob
    effects = game.apply(Claim(1, 1))
    assert [e.kind for e in effects if hasattr(e, "kind")] == [AlertKind.MUGGINS]
    before = game.state.scores[0]
    game.apply(Muggins(0, 1))
    assert game.state.scores[0] == before + 1 and game.state.deal.pegged[-1] == (0, 1, Reason.MUGGINS)


def test_switched_off_the_windows_still_open_close_out_loud():
    game = claim_game()
    game.apply(MugginsSet(True))
    lay(game, 0, "5C")
    lay(game, 1, "TD")
    game.apply(Claim(1, 1))
    effects = game.apply(MugginsSet(False))
    closed = [e for e in effects if getattr(e, "kind", None) is AlertKind.MUGGINS_CLOSED]
    assert len(closed) == 1 and "muggins was switched off" in closed[0].text
    with pytest.raises(RulesError, match="muggins is not played"):
        game.apply(Muggins(0, 1))


@pytest.mark.parametrize(("rules", "mode", "words"), [
    ("acc", Mode.COUNT, "claim mode only: in count mode the table pegs every score itself"),
    ("acc", Mode.BOARD, "claim mode only: in board mode the players peg by hand"),
    ("acc-tournament", Mode.CLAIM, "the acc-tournament rules fix muggins on for the whole game"),
])
def test_refused_where_it_cannot_apply_saying_why(rules, mode, words):
    game = claim_game(rules, mode) if mode is not Mode.BOARD else \
        Game([NewGame(("Ann", "Bob"), get_rules(rules), mode, first_dealer=1)])
    with pytest.raises(RulesError, match=words):
        game.apply(MugginsSet(mode is not Mode.CLAIM))
    with pytest.raises(RulesError, match="already off"):
        claim_game().apply(MugginsSet(False))


def test_a_card_moved_after_the_switch_scores_the_play_again_with_the_switch_in_place():
    from cribpi.game import MoveCard

    game = claim_game()
    lay(game, 0, "5C")
    lay(game, 1, "TD")
    game.apply(MugginsSet(True))
    lay(game, 0, "KH")
    lay(game, 1, "6S")  # 31 for Bob, as entered
    game.apply(MoveCard(Card.parse("6S"), 0))  # Bob said go at 25; Ann laid the 6S for 31
    assert game.state.rules.muggins is MugginsScope.ACC  # the play scored again from the starter keeps it
    assert game.state.deal.played[-1] == (0, Card.parse("6S"))
