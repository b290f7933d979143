"""The simulator's doctests (key entry, colours, the terminal drawing) run with the suite."""

import doctest

import pytest

import cribpi.hal.term
import cribpi.sim.keys
import cribpi.sim.layout
import cribpi.sim.terminal
from cribpi.sim.terminal import nearest_colour


@pytest.mark.parametrize("module", [cribpi.sim.keys, cribpi.sim.layout, cribpi.sim.terminal, cribpi.hal.term])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_eight_colour_terminals_get_the_nearest_basic_colour():
    assert [nearest_colour(c, 8) for c in ((255, 0, 0), (0, 0, 255), (101, 101, 101), (114, 0, 0), (0, 0, 0))] == [
        1, 4, 7, 1, 0]
    assert nearest_colour((0, 0, 0), 256) == 16 and nearest_colour((255, 255, 255), 256) == 231
