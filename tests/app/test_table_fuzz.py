"""Random key presses at every kind of table: the UI never breaks and never lies.

Whatever is pressed, only CribpiError is ever refused (shown, not raised), the screen and the
board always draw, and the state is always exactly the replay of the events accepted.
"""

import random

import pytest

from cribpi.app import TableSettings, TableUI
from cribpi.game import Mode, replay
from cribpi.hal import Action
from cribpi.rules import DECK
from cribpi.views import render_board, render_screen

SETUPS = [(2, False), (3, False), (4, False), (4, True)]
KEYS = ["ok"] * 6 + ["go"] * 3 + ["undo", "undo_long", "menu"]


def _random_action(rng: random.Random, seats: int) -> Action:
    roll = rng.random()
    if roll < 0.55:
        return Action.of_card(rng.choice(DECK))
    if roll < 0.65:
        return Action.peg(rng.randrange(seats), rng.randint(1, 12))
    if roll < 0.68:
        return Action.muggins(rng.randrange(seats))
    if roll < 0.70:
        return Action.rejected("card reader sent noise")
    return Action.parse(rng.choice(KEYS))


@pytest.mark.parametrize("players, pairs", SETUPS)
@pytest.mark.parametrize("mode", list(Mode))
def test_random_presses(players, pairs, mode):
    rng = random.Random(players * 10 + len(mode.value) + pairs)
    settings = TableSettings(players=players, partnerships=pairs, mode=mode, review=rng.random() < 0.5,
                             rules="acc-tournament" if mode is Mode.CLAIM else "acc")
    ui = TableUI(settings, rng=rng)
    for _ in range(700):
        seats = ui.state.seats
        before = list(ui.session.game.events)
        state = ui.state
        ui.handle(_random_action(rng, seats))
        render_screen(ui.screen())
        render_board(ui.board())
        if ui.session.game.events == before:
            assert ui.state is state or ui.session.game.events == [] or ui.state == state
        assert replay(ui.session.game.events) == ui.state
