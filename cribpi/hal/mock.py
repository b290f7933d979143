"""The mock backend for tests: the real Pi code on gpiozero's ``MockFactory`` and luma's
``dummy`` device, with a fake clock, plus helpers that press buttons the way a finger does.
Each part can be opened on its own (:func:`mock_inputs`, :class:`MemoryPegboard`,
:func:`mock_display`); :func:`open_mock` gives all of them with the helpers.

>>> from cribpi.hal.actions import ActionQueue
>>> board = open_mock()
>>> actions = ActionQueue(); board.inputs.start(actions)
>>> board.press("rank", "5"); board.press("suit", "H"); board.feed_card("JS")
>>> actions.drain()
[Action.parse('rank 5'), Action.parse('suit H'), Action.parse('card JS')]
>>> board.close(); actions.close()

Faults are injected here too, for the daemon's tests: :meth:`MemoryPegboard.unplug` (the
controller gone: ``show`` raises and ``problem`` says so), :meth:`MockParts.fail_display` (an
I2C error from the OLED), :meth:`MockParts.hold_down` (a button stuck down), and
:class:`KeyScript` feeds actions from a file or FIFO to a
``cribpi run --backend mock`` process.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PIL import Image

from cribpi.exc import ConfigError, CribpiError, HardwareError
from cribpi.hal.actions import Action
from cribpi.hal.base import DISPLAY_SIZE, CombinedInputs, Deliver, Parts, check_open
from cribpi.hal.buttons import ButtonTiming, ManualClock, PinBinding
from cribpi.hal.pi import GpioInputs, OledDisplay
from cribpi.hal.sim import SimInputs, action_from_words
from cribpi.views.board import BoardModel
from cribpi.views.leds import LedFrame, LedSettings, render_board

__all__ = ["MockParts", "MemoryPegboard", "open_mock", "mock_display", "MOCK_PINS", "PinDriver", "KeyScript", "FaultyDevice",
           "UNPLUGGED"]

log = logging.getLogger(__name__)

UNPLUGGED = "unplugged (USB)"


def _mock_pins() -> dict[int, PinBinding]:
    texts = [f"rank {r}" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    texts += [f"suit {s}" for s in "CDHS"] + ["go", "ok", "undo", "menu"]
    texts += ["peg 0 1", "peg 1 1", "muggins 0", "muggins 1"]
    return {pin: PinBinding.for_press(Action.parse(text)) for pin, text in zip(range(2, 28), texts)}


#: How many of the boards shown the mock pegboard keeps (the tests look at a few hundred at most).
BOARDS_KEPT = 4096

#: Every key on its own pin (GPIO2 upwards): the 13 ranks, 4 suits, game keys, peg, muggins.
MOCK_PINS = _mock_pins()


class MemoryPegboard:
    """Keeps the boards shown, oldest first, in ``boards`` (as the controller would get them):
    the last :data:`BOARDS_KEPT`, so a table left running on the mock for days does not grow
    (``shown`` counts them all); ``frame`` draws the last one in pixels for tests that look at
    LEDs."""

    def __init__(self, settings: LedSettings | None = None) -> None:
        self.settings = settings or LedSettings()
        self.boards: deque[BoardModel] = deque(maxlen=BOARDS_KEPT)
        self.shown = 0
        self._closed = False
        self.problem: str | None = None  # the hal convention: why the part is not working now

    def unplug(self, why: str = UNPLUGGED) -> None:
        """From now on ``show`` raises, as the controller's link does when its cable is pulled."""
        self.problem = why

    def replug(self) -> None:
        self.problem = None

    def show(self, board: BoardModel) -> None:
        check_open(self._closed, "pegboard")
        if self.problem is not None:
            raise HardwareError(f"pegboard: {self.problem}")
        self.boards.append(board)
        self.shown += 1

    @property
    def board(self) -> BoardModel | None:
        return self.boards[-1] if self.boards else None

    @property
    def frame(self) -> LedFrame | None:
        return render_board(self.boards[-1], self.settings) if self.boards else None

    def close(self) -> None:
        self._closed = True


class PinDriver:
    """Presses buttons on ``MockFactory`` pins like a finger: down, hold, up, with bounces."""

    def __init__(self, factory: Any, pins: Mapping[int, PinBinding], clock: ManualClock,
                 timing: ButtonTiming) -> None:
        self.factory = factory
        self.pins = pins
        self.clock = clock
        self.timing = timing

    def pin_for(self, action: Action) -> int:
        for pin, binding in self.pins.items():
            if action in (binding.press, binding.hold):
                return pin
        bound = ", ".join(str(b.press) for b in self.pins.values())
        raise ConfigError(f"no pin is bound to {action}: bound are {bound}")

    def press(self, action: Action, bounces: int = 0) -> None:
        """Press and release the pin of ``action``; held long enough for a hold action."""
        pin = self.factory.pin(self.pin_for(action))
        binding = self.pins[self.pin_for(action)]
        held = self.timing.long_press_s if action == binding.hold and action != binding.press else 0.0
        for _ in range(bounces):
            pin.drive_low()
            self.clock.advance(self.timing.debounce_s / 4)
            pin.drive_high()
            self.clock.advance(self.timing.debounce_s / 4)
        pin.drive_low()
        self.clock.advance(self.timing.debounce_s * 2 + held)
        pin.drive_high()
        self.clock.advance(self.timing.debounce_s * 2)

    def hold_down(self, action: Action) -> None:
        """Press and leave the button down (a jammed key); :meth:`let_go` releases it."""
        self.factory.pin(self.pin_for(action)).drive_low()
        self.clock.advance(self.timing.debounce_s * 2)

    def let_go(self, action: Action) -> None:
        self.factory.pin(self.pin_for(action)).drive_high()
        self.clock.advance(self.timing.debounce_s * 2)


def mock_display(size: tuple[int, int] = DISPLAY_SIZE) -> OledDisplay:
    """The real OLED code on luma's ``dummy`` device (it keeps the last image), through a
    :class:`FaultyDevice` so a test can make it fail."""
    return OledDisplay(device=FaultyDevice(size))


class FaultyDevice:
    """luma's ``dummy`` device whose ``fault``, when set to an OSError, is raised by every write,
    as an OLED gone from the I2C bus does."""

    def __init__(self, size: tuple[int, int]) -> None:
        from luma.core.device import dummy

        self.inner = dummy(width=size[0], height=size[1], mode="1")
        self.width, self.height, self.mode = size[0], size[1], "1"
        self.fault: OSError | None = None

    @property
    def image(self) -> Image.Image | None:
        image: Image.Image | None = self.inner.image
        return image

    def display(self, image: Image.Image) -> None:
        if self.fault is not None:
            raise self.fault
        self.inner.display(image)

    def contrast(self, level: int) -> None:
        if self.fault is not None:
            raise self.fault
        self.inner.contrast(level)

    def cleanup(self) -> None:
        self.inner.cleanup()


class KeyScript:
    """Actions read from a file or FIFO, one a line (``ok``, ``card 5H``, ``rank 5``): how a
    test drives a ``cribpi run --backend mock`` process. A FIFO is opened again after each
    writer closes it, so a test can write in several goes; a bad line is logged and skipped."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._stop = threading.Event()

    def start(self, deliver: Deliver) -> None:
        threading.Thread(target=self._read, args=(deliver,), name=f"keys {self.path}", daemon=True).start()

    def _read(self, deliver: Deliver) -> None:
        fifo = self.path.is_fifo()
        try:
            while not self._stop.is_set():
                with self.path.open(encoding="utf-8") as lines:
                    for line in lines:
                        if line.strip() and not self._stop.is_set():
                            self._deliver(line.strip(), deliver)
                if not fifo:
                    return
        except (OSError, UnicodeDecodeError) as exc:  # gone, or not text: the table goes on
            log.error("key script %s: stopped reading: %s", self.path, exc)

    def _deliver(self, text: str, deliver: Deliver) -> None:
        try:
            deliver(Action.parse(text))
        except CribpiError as exc:
            log.warning("key script %s: skipped %r: %s", self.path, text, exc)

    def close(self) -> None:
        self._stop.set()


class MockParts(Parts):
    """Every part mocked, plus ``press``, ``feed_card``, ``boards``, ``frames`` and ``image``."""

    driver: PinDriver
    cards: SimInputs
    memory: MemoryPegboard

    def press(self, kind: str, *args: object) -> None:
        """``press("ok")``, ``press("rank", "5")``, ``press("undo_long")`` (held down)."""
        self.driver.press(action_from_words(kind, *args))

    def feed_card(self, card: str) -> None:
        """A whole card from the card reader."""
        self.cards.push(Action.of_card(card))

    def hold_down(self, kind: str, *args: object) -> None:
        """A button pressed and left down (stuck); :meth:`let_go` releases it."""
        self.driver.hold_down(action_from_words(kind, *args))

    def let_go(self, kind: str, *args: object) -> None:
        self.driver.let_go(action_from_words(kind, *args))

    def fail_display(self, fault: OSError | None) -> None:
        """The OLED raises ``fault`` on every write from now on (None: it answers again)."""
        display = self.displays[0]
        assert isinstance(display, OledDisplay) and isinstance(display.device, FaultyDevice)
        display.device.fault = fault

    @property
    def boards(self) -> list[BoardModel]:
        """The boards shown (the last :data:`BOARDS_KEPT`), oldest first."""
        return list(self.memory.boards)

    @property
    def frames(self) -> list[LedFrame]:
        """Every board shown, drawn in pixels."""
        return [render_board(board, self.memory.settings) for board in self.memory.boards]

    @property
    def image(self) -> Image.Image | None:
        """The last image the (dummy) display got, as mode ``'1'``."""
        display = self.displays[0]
        assert isinstance(display, OledDisplay)
        image = display.device.image
        return None if image is None else image.convert("1")

    @property
    def clock(self) -> ManualClock:
        return self.driver.clock


def open_mock(pins: Mapping[int, PinBinding] | None = None, timing: ButtonTiming | None = None,
              pin_factory: Any = None) -> MockParts:
    from gpiozero.pins.mock import MockFactory

    pins = dict(MOCK_PINS if pins is None else pins)
    timing = timing or ButtonTiming()
    factory = pin_factory or MockFactory()
    clock = ManualClock()
    buttons = GpioInputs(pins, timing=timing, pin_factory=factory, clock=clock)
    cards = SimInputs()
    memory = MemoryPegboard()
    parts = MockParts(CombinedInputs([buttons, cards]), memory, (mock_display(),), backends=(("all", "mock"),))
    parts.driver = PinDriver(factory, pins, clock, timing)
    parts.cards, parts.memory = cards, memory
    return parts
