"""The mock backend for tests: the real Pi code on gpiozero's ``MockFactory`` and luma's
``dummy`` device, with a fake clock, plus helpers that press buttons the way a finger does.

>>> from cribpi.hal.actions import ActionQueue
>>> board = open_mock()
>>> actions = ActionQueue(); board.inputs.start(actions)
>>> board.press("rank", "5"); board.press("suit", "H"); board.feed_card("JS")
>>> actions.drain()
[Action.parse('rank 5'), Action.parse('suit H'), Action.parse('card JS')]
>>> board.close(); actions.close()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from cribpi.exc import ConfigError
from cribpi.hal.actions import Action
from cribpi.hal.base import Backend, CombinedInputs, check_open
from cribpi.hal.buttons import ButtonTiming, ManualClock, PinBinding
from cribpi.hal.pi import GpioInputs, OledDisplay
from cribpi.hal.sim import SimInputs, action_from_words
from cribpi.views.leds import LedFrame

__all__ = ["MockBackend", "MemoryPegboard", "open_mock", "MOCK_PINS", "PinDriver"]


def _mock_pins() -> dict[int, PinBinding]:
    texts = [f"rank {r}" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    texts += [f"suit {s}" for s in "CDHS"] + ["go", "ok", "undo", "menu"]
    texts += ["peg 0 1", "peg 1 1", "muggins 0", "muggins 1"]
    return {pin: PinBinding.for_press(Action.parse(text)) for pin, text in zip(range(2, 28), texts)}


#: Every key on its own pin (GPIO2 upwards): the 13 ranks, 4 suits, game keys, peg, muggins.
MOCK_PINS = _mock_pins()


class MemoryPegboard:
    """Keeps every frame shown, oldest first, in ``frames``."""

    def __init__(self) -> None:
        self.frames: list[LedFrame] = []
        self._closed = False

    def show(self, frame: LedFrame) -> None:
        check_open(self._closed, "pegboard")
        self.frames.append(frame)

    @property
    def frame(self) -> LedFrame | None:
        return self.frames[-1] if self.frames else None

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


class MockBackend(Backend):
    """A backend plus ``press``, ``feed_card``, ``frames`` and ``images``."""

    driver: PinDriver
    cards: SimInputs

    def press(self, kind: str, *args: object) -> None:
        """``press("ok")``, ``press("rank", "5")``, ``press("undo_long")`` (held down)."""
        self.driver.press(action_from_words(kind, *args))

    def feed_card(self, card: str) -> None:
        """A whole card from the card reader."""
        self.cards.push(Action.of_card(card))

    @property
    def frames(self) -> list[LedFrame]:
        return self.pegboard.frames  # type: ignore[attr-defined, no-any-return]

    @property
    def image(self) -> Image.Image | None:
        """The last image the (dummy) display got, as mode ``'1'``."""
        image = self.display.device.image  # type: ignore[attr-defined]
        return None if image is None else image.convert("1")

    @property
    def clock(self) -> ManualClock:
        return self.driver.clock


def open_mock(pins: Mapping[int, PinBinding] | None = None, timing: ButtonTiming | None = None,
              pin_factory: Any = None) -> MockBackend:
    from gpiozero.pins.mock import MockFactory
    from luma.core.device import dummy

    pins = dict(MOCK_PINS if pins is None else pins)
    timing = timing or ButtonTiming()
    factory = pin_factory or MockFactory()
    clock = ManualClock()
    buttons = GpioInputs(pins, timing=timing, pin_factory=factory, clock=clock)
    cards = SimInputs()
    backend = MockBackend("mock", CombinedInputs([buttons, cards]), MemoryPegboard(),
                          OledDisplay(device=dummy(mode="1")))
    backend.driver = PinDriver(factory, pins, clock, timing)
    backend.cards = cards
    return backend


