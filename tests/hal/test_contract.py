"""One contract per part, run over every backend that can run here: the real mock and sim
parts, and the Pi's code on injected doubles (gpiozero's MockFactory, luma's dummy device, a
fake clock). ``CRIBPI_TEST_HW=1`` adds the real Pi's display and buttons (the button checks
need a finger and are skipped).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageDraw

from cribpi.config import Config, DisplayConfig, OledConfig, PartsConfig
from cribpi.exc import HardwareError, ViewError
from cribpi.hal import Action, ActionQueue, Display, InputSource, Pegboard
from cribpi.hal.buttons import ManualClock
from cribpi.hal.layout import load_layout
from cribpi.hal.mock import MOCK_PINS, MemoryPegboard, PinDriver, mock_display, open_mock
from cribpi.hal.pi import HeadlessPegboard
from cribpi.hal.sim import SimDisplay, SimInputs, SimPegboard, action_from_words
from cribpi.hal.strip import PixelPegboard
from cribpi.views.board import Animation, BoardModel, TrackModel
from cribpi.views.leds import LedSettings, render_board
from cribpi.wiring import Inject, open_parts

HW = pytest.mark.skipif(os.environ.get("CRIBPI_TEST_HW") != "1", reason="CRIBPI_TEST_HW=1 runs on a real Pi")
LAYOUT = load_layout(os.path.join(os.path.dirname(__file__), "../../hardware/layouts/two-track-serpentine.toml"))


# --- inputs -------------------------------------------------------------------------------


@dataclass
class InputRig:
    source: InputSource
    press: Callable[..., None] | None  # None: no way to press a button from a test
    feed_card: Callable[[str], None] | None
    close: Callable[[], None]
    # the logical actions the delivered ones make at the table (a keypad's PEG/MUGGINS entry)
    keyed: Callable[[list[Action]], list[Action]] = list


def table_keyed(actions: list[Action]) -> list[Action]:
    """The peg and muggins actions the app's key entry makes of a keypad's keys: each bare
    PEG or MUGGINS key opens an entry on a claim-mode table with muggins; what the entry hands
    the table is recorded."""
    import random

    from cribpi.app import TableSettings, TableUI
    from cribpi.game import Mode

    ui = TableUI(TableSettings(mode=Mode.CLAIM, muggins=True), rng=random.Random(1))
    ui.handle(Action.parse("ok"))  # cut at random: the deal is on
    ui.screens.clear()
    made: list[Action] = []
    ui._command = lambda action: made.append(action) or ()  # type: ignore[method-assign]
    for action in actions:
        if action.is_key:
            ui.pegkeys.close()  # each press of the contract is an entry of its own
        ui.handle(action)
        assert not ui.screens, ui.screens  # no key was refused
    return made


def mock_inputs() -> InputRig:
    parts = open_mock()
    return InputRig(parts.inputs, parts.press, parts.feed_card, parts.close)


def sim_inputs() -> InputRig:
    source = SimInputs()
    return InputRig(source, source.press, source.feed_card, source.close)


def wired_pi_inputs() -> InputRig:
    """The Pi's buttons as the wiring opens them from a configuration, on MockFactory."""
    from gpiozero.pins.mock import MockFactory

    factory, clock = MockFactory(), ManualClock()
    config = Config(pins=MOCK_PINS, parts=PartsConfig(inputs=("pi",), pegboard="sim", displays=(DisplayConfig("sim"),)))
    parts = open_parts(config, inject=Inject(pin_factory=factory, clock=clock))
    driver = PinDriver(factory, config.pins, clock, config.timing)
    return InputRig(parts.inputs, lambda kind, *args: driver.press(action_from_words(kind, *args)), None, parts.close)


def hardware_inputs() -> InputRig:
    from cribpi.config import load_config

    parts = open_parts(load_config(os.environ.get("CRIBPI_TEST_CONFIG")), "pi")
    return InputRig(parts.inputs, None, None, parts.close)


def controller_inputs() -> InputRig:
    """The controller backend driven by the real firmware under the MicroPython VM: a press
    is a key held down on the (stub) matrix, a card a line from the reader on its (stub) UART;
    each returns once its action has arrived."""
    from tests.firmware.rig import firmware_pico, key_pins

    pico, part = firmware_pico()

    def arrived(words: str, act: Callable[[], None]) -> None:
        """Do ``act``, then wait for its action (or, once closed, give it the chance to come)."""
        deliver = part.link._deliver
        before = deliver._queue.qsize() if deliver is not None else 0
        act()
        if deliver is None or part.problem is not None:
            time.sleep(0.2)
        else:
            pico.wait_for(lambda: deliver._queue.qsize() > before, what=f"the action of {words!r}")

    def hold(name: str, seconds: float) -> None:
        pico.press(key_pins(name))
        time.sleep(seconds)
        pico.press()

    def press(kind: str, *args: Any) -> None:
        words = " ".join([kind, *map(str, args)])
        if kind in ("peg", "muggins"):  # PEG or MUGGINS, the seat's suit key, rank keys for the points
            seat, points = args[0], args[1] if len(args) > 1 else 0
            names = [kind, "CDHS"[seat], *(["T"] * (points // 10)), *([("A", *"23456789")[points % 10 - 1]] if points % 10 else [])]
            for name in names:
                arrived(f"{name} of {words}", lambda: hold(name, 0.15))
            return
        name = {"rank": lambda: "T" if args[0] in ("10", "T") else str(args[0]), "suit": lambda: str(args[0])}.get(
            kind, lambda: "undo" if kind == "undo_long" else kind)()
        arrived(words, lambda: hold(name, 1.0 if kind == "undo_long" else 0.15))

    def feed_card(card: str) -> None:
        arrived(card, lambda: pico.feed_card(card.encode() + b"\n"))

    def close() -> None:
        part.close()
        pico.close()

    pico.wait_for(lambda: part.problem is None, what="the handshake")
    return InputRig(part, press, feed_card, close, table_keyed)


INPUTS: dict[str, Callable[[], InputRig]] = {
    "mock": mock_inputs, "sim": sim_inputs, "pi-wired-on-mocks": wired_pi_inputs, "hardware": hardware_inputs,
    "controller-firmware-vm": controller_inputs,
}
MARKS = {"hardware": HW, "controller-firmware-vm": pytest.mark.firmware}


@pytest.fixture(params=[pytest.param(n, marks=MARKS.get(n, ())) for n in INPUTS])
def inputs(request):
    rig = INPUTS[request.param]()
    yield rig
    rig.close()


@pytest.fixture
def actions():
    with ActionQueue() as queue:
        yield queue


def started(rig: InputRig, actions: ActionQueue) -> InputRig:
    if rig.press is None:
        pytest.skip("pressing buttons needs a finger on this backend")
    rig.source.start(actions)
    return rig


def test_inputs_follow_the_interface(inputs):
    assert isinstance(inputs.source, InputSource)


def test_a_press_arrives_once(inputs, actions):
    started(inputs, actions).press("ok")
    assert actions.drain() == [Action.parse("ok")]
    assert actions.drain() == []


def test_a_card_is_a_rank_then_a_suit(inputs, actions):
    rig = started(inputs, actions)
    rig.press("rank", "5")
    rig.press("suit", "H")
    assert actions.drain() == [Action.parse("rank 5"), Action.parse("suit H")]


def test_undo_short_and_long(inputs, actions):
    rig = started(inputs, actions)
    rig.press("undo")
    rig.press("undo_long")
    assert actions.drain() == [Action.parse("undo"), Action.parse("undo_long")]


def test_peg_and_muggins(inputs, actions):
    rig = started(inputs, actions)
    rig.press("peg", 1, 1)
    rig.press("muggins", 0)
    assert rig.keyed(actions.drain()) == [Action.peg(1, 1), Action.muggins(0)]


def test_card_reader_cards(inputs, actions):
    if inputs.feed_card is None:
        pytest.skip("no card reader on this backend")
    inputs.source.start(actions)
    inputs.feed_card("10H")
    assert actions.drain() == [Action.parse("card TH")]


def test_nothing_arrives_after_close(inputs, actions):
    rig = started(inputs, actions)
    rig.source.close()
    try:
        rig.press("ok")
    except Exception:  # a closed pin may refuse: either way nothing arrives
        pass
    assert actions.drain() == []


def test_inputs_close_twice(inputs):
    inputs.source.close()
    inputs.source.close()


# --- pegboards ----------------------------------------------------------------------------

BOARD = BoardModel((TrackModel(12, 6, (255, 0, 0)), TrackModel(4, 0, (0, 0, 255))), brightness=1.0,
                   flash=((7, 8, 9, 10, 11, 12),))
ALERT = BoardModel(BOARD.tracks, brightness=1.0, animation=Animation.ALERT, anim_track=1)


def _memory():
    board = MemoryPegboard()
    return board, lambda: board.board


def _headless():
    board = HeadlessPegboard()
    return board, lambda: board.board


def _sim():
    board = SimPegboard(layout=LAYOUT)
    return board, lambda: board.board


def _strip():
    written: list[dict[int, list[Any]]] = []
    board = PixelPegboard(layout=LAYOUT, write=written.append)
    return board, lambda: board.board if written and written[-1] == LAYOUT.place(board.frame) else None


def _controller():
    """The controller backend and the real firmware under the MicroPython VM: ``shown`` waits
    for the last board to be ACKed and checks the firmware's strips show it."""
    from tests.firmware.rig import firmware_pico

    pico, part = firmware_pico()
    settings = LedSettings(game_counter_leds=LAYOUT.game_counters)

    def shown():
        pico.wait_for(lambda: part.link.shown is not None and part.link.shown is part.link._wanted, what="the ACKs")
        board = part.link.shown
        frames = [LAYOUT.place(render_board(board, settings, step))[0] for step in range(8)]
        pico.wait_for(lambda: pico.rgb() in frames, what="the frame on the strips")
        return board

    return part, shown, pico.close


PEGBOARDS = {"mock": _memory, "pi-headless": _headless, "sim": _sim, "strip": _strip, "controller-firmware-vm": _controller}


@pytest.fixture(params=[pytest.param(n, marks=MARKS.get(n, ())) for n in PEGBOARDS])
def pegboard(request):
    board, shown, *cleanup = PEGBOARDS[request.param]()
    yield board, shown
    board.close()
    for done in cleanup:
        done()


def test_pegboard_follows_the_interface(pegboard):
    assert isinstance(pegboard[0], Pegboard)


def test_pegboard_keeps_the_board_it_was_shown(pegboard):
    board, shown = pegboard
    board.show(BOARD)
    board.show(ALERT)
    assert shown() == ALERT


def test_pegboard_refuses_after_close(pegboard):
    board, _ = pegboard
    board.close()
    with pytest.raises(HardwareError, match="closed"):
        board.show(BOARD)
    board.close()


def test_pixel_pegboards_draw_through_the_layout():
    clock = ManualClock()
    board = SimPegboard(layout=LAYOUT, clock=clock.now)
    board.show(BOARD)
    frame = render_board(BOARD, board.settings, 0)
    assert board.frame == frame
    strip, index = LAYOUT.holes[(2, 4)]  # the layout counts tracks from 1
    assert board.strips[strip][index] == frame.hole(1, 4) == (0, 0, 255)
    strip, index = LAYOUT.holes[(1, 12)]
    assert board.strips[strip][index] == frame.hole(0, 12) == (255, 255, 255)  # flashing
    clock.advance(0.2)  # one step on: the flashing holes go dark, the pegs stay
    board.show(BOARD)
    assert board.frame == render_board(BOARD, board.settings, 1) != frame


# --- displays -----------------------------------------------------------------------------


def _picture(size: tuple[int, int]) -> Image.Image:
    image = Image.new("1", size)
    ImageDraw.Draw(image).rectangle((2, 2, size[0] - 3, size[1] // 2), outline=1)
    image.putpixel((size[0] - 1, size[1] - 1), 1)
    return image


def _sim_display(size):
    display = SimDisplay(size)
    return display, lambda: display.image


def _oled_dummy(size):
    display = mock_display(size)
    return display, lambda: display.device.image.convert("1")


def _wired_oled(size):
    from luma.core.device import dummy

    config = Config(parts=PartsConfig(inputs=("sim",), pegboard="sim",
                                      displays=(DisplayConfig("pi", oled=OledConfig(size=size)),)))
    parts = open_parts(config, inject=Inject(device_factory=lambda size, **kw: dummy(width=size[0], height=size[1])))
    display = parts.displays[0]  # written by its own thread: read back once it has written

    def shown():
        assert display.flush(5.0)
        return display.inner.device.image.convert("1")

    return display, shown


def _hardware(size):
    from cribpi.config import load_config

    display = open_parts(load_config(os.environ.get("CRIBPI_TEST_CONFIG")), "pi").displays[0]
    return display, lambda: None


DISPLAYS = {"sim": _sim_display, "oled-on-luma-dummy": _oled_dummy, "pi-wired-oled": _wired_oled,
            "hardware": _hardware}
SIZES = [(128, 64), (128, 32), (256, 64)]


@pytest.fixture(params=[pytest.param((n, s), marks=HW if n == "hardware" else ())
                        for n in DISPLAYS for s in (SIZES[:1] if n == "hardware" else SIZES)],
                ids=lambda p: f"{p[0]}-{p[1][0]}x{p[1][1]}")
def display(request):
    name, size = request.param
    display, shown = DISPLAYS[name](size)
    yield display, shown
    display.close()


def test_display_follows_the_interface(display):
    assert isinstance(display[0], Display)


def test_display_shows_the_image_it_gets(display):
    screen, shown = display
    picture = _picture(screen.size)
    screen.show(picture)
    screen.contrast(128)
    if shown() is None:
        pytest.skip("a real panel cannot be read back")
    assert shown().tobytes() == picture.tobytes()


def test_display_refuses_other_images(display):
    screen, _ = display
    width, height = screen.size
    for image in (Image.new("1", (width // 2, height)), Image.new("RGB", (width, height))):
        with pytest.raises(ViewError, match=f"{width}x{height} images of mode '1'"):
            screen.show(image)


def test_display_refuses_bad_contrast(display):
    with pytest.raises(ViewError, match="contrast 256"):
        display[0].contrast(256)


def test_display_close_twice(display):
    display[0].close()
    display[0].close()
