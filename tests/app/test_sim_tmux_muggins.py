"""Muggins switched on for the game being played, in the 80x24 terminal simulator: m, the
menu's "Muggins: off -> on", the question that says what changes, yes, and the status line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.app.test_sim_tmux import Tmux, choose, claim_session


@pytest.fixture
def claim_game(tmp_path) -> Iterator[Tmux]:
    yield from claim_session(tmp_path)


def test_muggins_switched_on_for_the_game_being_played(claim_game):
    tmux = claim_game
    tmux.send("Enter")  # a random cut: Bob deals (seed 7)
    tmux.wait_for(" · claim mode · ACC rules · starter card · Bob deals")
    tmux.send("m")
    choose(tmux, "Muggins: off -> on")
    screen = tmux.wait_for("Muggins on this game?")
    assert "From the next claim on," in screen and "taken by the opponents" in screen
    choose(tmux, "Yes: muggins on")
    tmux.wait_for("On for this game, from")
    tmux.wait_for(" · claim mode, muggins · ACC rules · starter card · Bob deals")  # the game being played
