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
