"""Every mode on the reference build's keys: whole games driven only by key presses on the
matrix of the real firmware (firmware/main.py under the MicroPython unix port, behind a pty),
reaching the table through the host's controller backend, as on a Pi with a Pico on USB. The
OLED is a simulated display; the LEDs are the firmware's strips."""

from __future__ import annotations

import queue
import random
import time

import pytest

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.hal import Action, Parts
from cribpi.hal.controller.keys import KeyEvents
from cribpi.hal.protocol import Line
from cribpi.hal.sim import SimDisplay
from tests.firmware.keyplay import Player, board_game, claim_game, fixes_game, three_muggins
from tests.firmware.rig import firmware_pico, key_pins

HOLD_S = 0.04  # a tap: down at least this long (the firmware debounces 20 ms), until its action has come
LET_GO_S = 0.02  # up this long after its KU, before the next tap


class KeysOnPico:
    """A table whose only input is the controller running the real firmware: each tap holds the
    key down on the (stub) matrix until its action has come through the serial link, then lets
    it go. The table shows on a simulated OLED and on the firmware's strips."""

    def __init__(self) -> None:
        self.pico, self.part = firmware_pico()
        self.arrived: queue.SimpleQueue[Action] = queue.SimpleQueue()
        self.ui = TableUI(TableSettings(), rng=random.Random(7))
        self.display = SimDisplay()
        self.app = TableApp(Parts(self.part, self.part, (self.display,)), self.ui)
        self.taps: list[str] = []
        self.pico.wait_for(lambda: self.part.link.hello is not None and self.part.problem is None,
                           what="the handshake")
        self.part.start(self.arrived.put)
        self.app.publish((), ())
        self.expect = KeyEvents()  # the action each tap must bring, as the host maps the key

    def tap(self, *names: str) -> None:
        for name in names:
            self.taps.append(name)
            wanted = [a for verb in ("KD", "KU") if (a := self.expect.action(Line(1, verb, (name,)))) is not None]
            link = self.part.link
            before = link._next_event  # the number the next event from the controller gets
            self.pico.press(key_pins(name))
            time.sleep(HOLD_S)
            self.pico.wait_for(lambda: link._next_event != before, what=f"{name}'s KD")
            down = link._next_event
            if name != "undo":  # undo acts when let go (held, it is undo_long)
                got = self._next(name)
            self.pico.press()
            if name == "undo":
                got = self._next(name)
            else:  # its KU has come: the next tap of the same key is a press of its own
                self.pico.wait_for(lambda: link._next_event != down, what=f"{name}'s KU")
            time.sleep(LET_GO_S)
            assert [got] == wanted, f"key {name!r} brought {got}, not {wanted}"
            self.app.handle(got)

    def _next(self, name: str) -> Action:
        try:
            return self.arrived.get(timeout=5)
        except queue.Empty:
            raise AssertionError(f"key {name!r} brought no action; firmware: {self.pico.stderr()}") from None

    def close(self) -> None:
        self.part.close()
        self.pico.close()


@pytest.fixture
def keys():
    pad = KeysOnPico()
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
