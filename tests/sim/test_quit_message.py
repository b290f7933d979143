"""The simulator's quit message: the command that goes on with the game has a line of its own,
so it is copied whole (a long CRIBPI_DB path once broke across two lines, among other words),
and a finished game is not said to be gone on with."""

import dataclasses
from pathlib import Path
from types import SimpleNamespace

import pytest

from cribpi.game import Game, NewGame, Phase
from cribpi.rules import ACC
from cribpi.sim.terminal import Terminal

LONG = Path("/home/someone/cribbage/journals/kept-for-the-club-tournament-of-the-spring/my-games.db")
COMMAND = f"CRIBPI_DB={LONG} bash .ci/play"


def farewell(phase: Phase, resume: str | None = COMMAND, journal: Path | None = LONG) -> list[str]:
    state = dataclasses.replace(Game([NewGame(("Ann", "Bob"), ACC)]).state, phase=phase)
    table = SimpleNamespace(app=SimpleNamespace(ui=SimpleNamespace(state=state)), journal=journal, resume=resume)
    return Terminal.farewell(table).split("\n")  # type: ignore[arg-type]


def test_the_command_has_a_line_of_its_own():
    lines = farewell(Phase.PLAY)
    assert lines == [f"cribpi: the game is kept in {LONG}", "To go on with it, run:", COMMAND]
    assert len(COMMAND) > 80  # a terminal wraps it, but never among other words


@pytest.mark.parametrize("phase,then", [(Phase.GAME_OVER, "To play the next game of the match, run:"),
                                        (Phase.MATCH_OVER, "To play a new game, run:")])
def test_a_finished_game_is_not_gone_on_with(phase, then):
    lines = farewell(phase)
    assert lines == [f"cribpi: the finished game is kept in {LONG}", then, COMMAND]
    assert "go on with it" not in "\n".join(lines)


def test_without_a_command_it_says_to_run_the_same_one():
    assert farewell(Phase.SHOW, resume=None, journal=None) == [
        "cribpi: the game is kept.", "To go on with it, run the same command again."]
