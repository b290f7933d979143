"""The simulator's status line speaks the players' words, never the engine's identifiers."""

import dataclasses

import pytest

from cribpi.game import Game, NewGame, Phase
from cribpi.rules import PRESETS, get_rules
from cribpi.sim.terminal import status_line


@pytest.mark.parametrize("phase", list(Phase))
def test_every_phase_is_said_in_words(phase):
    state = dataclasses.replace(Game([NewGame(("Ann", "Bob"), get_rules("acc"))]).state, phase=phase)
    line = status_line(state)
    assert "_" not in line and "[" not in line and " · count mode · ACC rules · " in line


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rules_are_named_not_keyed(preset):
    line = status_line(Game([NewGame(("Ann", "Bob"), get_rules(preset))]).state)
    assert " rules · " in line and "acc" not in line


def test_the_line_says_muggins_is_played_in_claim_mode_and_only_then():
    from cribpi.game import Mode
    from cribpi.rules import MugginsScope

    muggins = get_rules("acc").replace(muggins=MugginsScope.ACC)
    claim = status_line(Game([NewGame(("Ann", "Bob"), muggins, Mode.CLAIM)]).state)
    assert " · claim mode, muggins · ACC rules · " in claim
    assert " · claim mode · " in status_line(Game([NewGame(("Ann", "Bob"), get_rules("acc"), Mode.CLAIM)]).state)
    assert " · count mode · " in status_line(Game([NewGame(("Ann", "Bob"), muggins, Mode.COUNT)]).state)


def test_a_claim_waited_for_is_said_with_the_seat_and_the_keys_that_make_it():
    from types import SimpleNamespace

    from cribpi.game import Claim, Lay, Mode, Starter
    from cribpi.rules import Card
    from cribpi.sim.terminal import _waiting_for

    game = Game([NewGame(("Ann", "Bob"), get_rules("acc"), Mode.CLAIM, first_dealer=1), Starter(Card.parse("2S"))])
    for seat, card in ((0, "5C"), (1, "5D"), (0, "5H"), (1, "5S"), (0, "2C"), (1, "2D"), (0, "3C"), (1, "3D")):
        game.apply(Lay(seat, Card.parse(card)))
    while game.state.deal.unclaimed:
        moment = game.state.deal.unclaimed[0]
        game.apply(Claim(moment.seat, moment.points))
    assert game.state.deal.pending is not None and game.state.deal.pending.seat == 0
    said = _waiting_for(SimpleNamespace(ui=SimpleNamespace(menu=None, state=game.state)))
    assert said == "waiting for a claim from Ann (seat 1): p 1 N Enter claims N"
