"""One contract for every backend that can run here: mock, sim, and pi on injected doubles
(gpiozero's MockFactory, luma's dummy device, a fake clock). ``CRIBPI_TEST_HW=1`` adds the
real Pi (display and pegboard checks; the button checks need a finger and are skipped).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from PIL import Image

from cribpi.exc import HardwareError, ViewError
from cribpi.hal import Action, ActionQueue, Backend, Display, InputSource, Pegboard, open_backend
from cribpi.hal.buttons import ManualClock
from cribpi.hal.mock import MOCK_PINS, PinDriver
from cribpi.hal.sim import action_from_words
from cribpi.views.leds import render_board
from cribpi.views.model import BoardModel, PlayScreen, TrackModel
from cribpi.views.oled import render_screen


@dataclass
class Rig:
    backend: Backend
    press: Callable[..., None] | None  # None: no way to press a button from a test
    feed_card: Callable[[str], None] | None


def mock_rig() -> Rig:
    backend = open_backend("mock")
    return Rig(backend, backend.press, backend.feed_card)


def sim_rig() -> Rig:
    backend = open_backend("sim")
    return Rig(backend, backend.inputs.press, backend.inputs.feed_card)


def pi_rig() -> Rig:
    from gpiozero.pins.mock import MockFactory
    from luma.core.device import dummy

    from cribpi.config import Config

    factory, clock = MockFactory(), ManualClock()
    config = Config(pins=MOCK_PINS)
    backend = open_backend("pi", config, pin_factory=factory, device=dummy(mode="1"), clock=clock)
    driver = PinDriver(factory, config.pins, clock, config.timing)
    return Rig(backend, lambda kind, *args: driver.press(action_from_words(kind, *args)), None)


def hardware_rig() -> Rig:
    from cribpi.config import load_config

    config = load_config(os.environ.get("CRIBPI_TEST_CONFIG"))
    return Rig(open_backend("pi", config), None, None)


RIGS: dict[str, Any] = {"mock": mock_rig, "sim": sim_rig, "pi-on-mocks": pi_rig}
HW = pytest.mark.skipif(os.environ.get("CRIBPI_TEST_HW") != "1", reason="CRIBPI_TEST_HW=1 runs on a real Pi")
PARAMS = [pytest.param(name) for name in RIGS] + [pytest.param("hardware", marks=HW)]
RIGS["hardware"] = hardware_rig


@pytest.fixture(params=PARAMS)
def rig(request):
    rig = RIGS[request.param]()
    yield rig
    rig.backend.close()


@pytest.fixture
def actions():
    with ActionQueue() as queue:
        yield queue


def needs_press(rig: Rig) -> None:
    if rig.press is None:
        pytest.skip("pressing buttons needs a finger on this backend")


def test_parts_follow_the_interfaces(rig):
    assert isinstance(rig.backend.inputs, InputSource)
    assert isinstance(rig.backend.pegboard, Pegboard)
    assert isinstance(rig.backend.display, Display)


def test_a_press_arrives_once(rig, actions):
    needs_press(rig)
    rig.backend.inputs.start(actions)
    rig.press("ok")
    assert actions.drain() == [Action.parse("ok")]
    assert actions.drain() == []


def test_a_card_is_a_rank_then_a_suit(rig, actions):
    needs_press(rig)
    rig.backend.inputs.start(actions)
    rig.press("rank", "5")
    rig.press("suit", "H")
    assert actions.drain() == [Action.parse("rank 5"), Action.parse("suit H")]


def test_undo_short_and_long(rig, actions):
    needs_press(rig)
    rig.backend.inputs.start(actions)
    rig.press("undo")
    rig.press("undo_long")
    assert actions.drain() == [Action.parse("undo"), Action.parse("undo_long")]


def test_peg_and_muggins(rig, actions):
    needs_press(rig)
    rig.backend.inputs.start(actions)
    rig.press("peg", 1, 1)
    rig.press("muggins", 0)
    assert actions.drain() == [Action.peg(1, 1), Action.muggins(0)]


def test_card_reader_cards(rig, actions):
    if rig.feed_card is None:
        pytest.skip("no card reader on this backend")
    rig.backend.inputs.start(actions)
    rig.feed_card("10H")
    assert actions.drain() == [Action.parse("card TH")]


def test_nothing_arrives_after_close(rig, actions):
    needs_press(rig)
    rig.backend.inputs.start(actions)
    rig.backend.inputs.close()
    try:
        rig.press("ok")
    except Exception:  # a closed pin may refuse: either way nothing arrives
        pass
    assert actions.drain() == []


def test_pegboard_takes_frames(rig):
    board = BoardModel((TrackModel(12, 6, (255, 0, 0)), TrackModel(4, 0, (0, 0, 255))))
    rig.backend.pegboard.show(render_board(board))
    rig.backend.pegboard.close()
    with pytest.raises(HardwareError, match="closed"):
        rig.backend.pegboard.show(render_board(board))


def test_display_shows_screens(rig):
    rig.backend.display.show(render_screen(PlayScreen(15, "Alice")))
    rig.backend.display.contrast(128)


@pytest.mark.parametrize("image", [Image.new("1", (64, 32)), Image.new("RGB", (128, 64))])
def test_display_refuses_other_images(rig, image):
    with pytest.raises(ViewError, match="128x64"):
        rig.backend.display.show(image)


def test_display_refuses_bad_contrast(rig):
    with pytest.raises(ViewError, match="contrast 256"):
        rig.backend.display.contrast(256)


def test_close_twice_is_fine(rig):
    rig.backend.close()
    rig.backend.close()
