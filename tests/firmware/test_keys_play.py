"""Every mode on the reference build's keys: whole games driven only by key presses on the
matrix of the real firmware (firmware/main.py under the MicroPython unix port, behind a pty),
reaching the table through the host's controller backend, as on a Pi with a Pico on USB. The
OLED is a simulated display; the LEDs are the firmware's strips."""

from __future__ import annotations

import pytest

from tests.firmware.keyplay import KeysOnController, Player, board_game, claim_game, fixes_game, three_muggins
from tests.firmware.rig import firmware_pico


@pytest.fixture
def keys():
    pad = KeysOnController(*firmware_pico())
    yield pad
    pad.close()


def test_a_board_mode_game_on_the_firmwares_keys(keys):
    board_game(Player(keys))
    assert keys.arrived.empty()  # every key press brought one action, and nothing else came
    keys.pico.wait_for(lambda: keys.part.link.shown == keys.ui.board(), what="the last board ACKed")
    assert keys.display.image is not None


def test_a_claim_mode_game_with_muggins_on_the_firmwares_keys(keys):
    claim_game(Player(keys))
    assert keys.arrived.empty()


def test_moving_a_card_and_a_penalty_on_the_firmwares_keys(keys):
    fixes_game(Player(keys))
    assert keys.taps.count("menu") == 2 and keys.arrived.empty()


def test_a_muggins_call_among_three_players_on_the_firmwares_keys(keys):
    three_muggins(Player(keys))
    assert keys.arrived.empty()
