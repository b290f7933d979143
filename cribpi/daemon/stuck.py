"""A button stuck down (a key jammed, a shorted wire) is reported once and ignored until it is
released: held longer than ``STUCK_S`` (no player holds a key that long), it becomes a problem
the displays show, and its actions (a repeating hold) are dropped until the pin is let go.

The levels are read with gpiozero's own API from the pin factory the buttons use: the factory
hands back the pin objects the buttons already hold, so reading ``state`` reserves nothing.
Buttons missing at start are watched the same way once they join, through the factory they
then hold (the daemon's guard starts their watch as they open).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from cribpi.daemon.missing import MissingInputs
from cribpi.hal import Action, InputSource, Parts
from cribpi.hal.base import Deliver
from cribpi.hal.buttons import PinBinding
from cribpi.hal.pi import GpioInputs

__all__ = ["StuckButtons", "FilteredInputs", "button_pins", "gpio_buttons", "STUCK_S"]

log = logging.getLogger(__name__)

STUCK_S = 10.0


def button_pins(pins: Mapping[int, PinBinding], parts: Parts) -> tuple[Mapping[int, PinBinding], Any] | None:
    """The table's GPIO buttons and their pin factory; None when no input comes from GPIO, or
    when the buttons are missing (their stand-in's are watched once they join, by the guard)."""
    buttons = gpio_buttons(parts.inputs)
    if buttons is not None:  # the buttons' own pins and factory
        return buttons
    driver = getattr(parts, "driver", None)  # the mock backend: its own MockFactory
    if driver is not None:
        return driver.pins, driver.factory
    if "pi" in dict(parts.backends).get("inputs", "").split("+") and not _stand_ins(parts.inputs):
        from gpiozero import Device

        factory = Device.pin_factory  # set by the buttons when they were opened with the default
        return (pins, factory) if factory is not None else None
    return None


def gpio_buttons(inputs: object) -> tuple[Mapping[int, PinBinding], Any] | None:
    """The pins and pin factory of the GPIO buttons among ``inputs`` (a source, or sources
    combined, as deep as they go); None when there are none."""
    if isinstance(inputs, GpioInputs):
        return inputs.pins, inputs.pin_factory
    for source in getattr(inputs, "sources", ()):
        found = gpio_buttons(source)
        if found is not None:
            return found
    return None


def _stand_ins(inputs: object) -> bool:
    """Some of ``inputs`` are stand-ins for parts missing at start."""
    return isinstance(inputs, MissingInputs) or any(_stand_ins(s) for s in getattr(inputs, "sources", ()))


class StuckButtons:
    """Watches the buttons' levels (active low) from the loop's timer."""

    def __init__(self, pins: Mapping[int, PinBinding], factory: Any, clock: Callable[[], float],
                 stuck_s: float = STUCK_S) -> None:
        self.pins = dict(pins)
        self.factory = factory
        self.clock = clock
        self.stuck_s = stuck_s
        self.name = "buttons"
        self.down_since: dict[int, float] = {}
        self.stuck: frozenset[int] = frozenset()  # replaced, never changed: input threads read it

    @property
    def problem(self) -> str | None:
        if not self.stuck:
            return None
        keys = ", ".join(f"{self.pins[p].press} (GPIO{p})" for p in sorted(self.stuck))
        return f"button {keys} stuck down: ignored until released"

    def check(self) -> bool:
        now = self.clock()
        for pin, binding in self.pins.items():
            if self.factory.pin(pin).state:  # high: up (pulled up, the button pulls it low)
                self.down_since.pop(pin, None)
                if pin in self.stuck:
                    self.stuck -= {pin}
                    log.warning("button %s (GPIO%d) released", binding.press, pin)
                continue
            since = self.down_since.setdefault(pin, now)
            if pin not in self.stuck and now - since >= self.stuck_s:
                self.stuck |= {pin}
                log.error("button %s (GPIO%d) stuck down for %.0f s: ignored until released",
                          binding.press, pin, now - since)
        return False

    def ignored(self, action: Action) -> bool:
        """True for an action of a stuck button (called from the input threads)."""
        return any(action in (self.pins[p].press, self.pins[p].hold) for p in self.stuck)


class FilteredInputs:
    """The table's inputs without the actions ``ignored`` drops."""

    def __init__(self, inputs: InputSource, ignored: Callable[[Action], bool]) -> None:
        self.inputs = inputs
        self.ignored = ignored

    def start(self, deliver: Deliver) -> None:
        def filtered(action: Action) -> None:
            if not self.ignored(action):
                deliver(action)

        self.inputs.start(filtered)

    def close(self) -> None:
        self.inputs.close()
