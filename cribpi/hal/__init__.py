"""The hardware layer: small interfaces and interchangeable backends.

Backends (``open_backend(name)``): ``pi`` (gpiozero buttons, luma.oled display), ``controller``
(a placeholder until the serial protocol exists), ``sim`` (in memory, drawn by the terminal
simulator) and ``mock`` (tests: the Pi code on gpiozero's MockFactory and luma's dummy).
The choice: the ``name`` argument, else ``$CRIBPI_BACKEND``, else the configuration's
``backend``, else ``pi`` on a Raspberry Pi and ``sim`` anywhere else.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cribpi.exc import ConfigError
from cribpi.hal.actions import Action, ActionQueue, Kind
from cribpi.hal.base import Backend, Display, InputSource, Pegboard

if TYPE_CHECKING:
    from cribpi.config import Config

__all__ = [
    "Action", "ActionQueue", "Kind", "Backend", "Display", "InputSource", "Pegboard",
    "BACKENDS", "open_backend", "choose_backend", "is_raspberry_pi", "open_pi",
]

BACKENDS = ("pi", "controller", "sim", "mock")
MODEL_FILES = ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model")


def is_raspberry_pi(model_files: Iterable[str | Path] = MODEL_FILES) -> bool:
    """True when the device tree names a Raspberry Pi."""
    for name in model_files:
        try:
            if "Raspberry Pi" in Path(name).read_text(errors="replace"):
                return True
        except OSError:
            continue
    return False


def choose_backend(name: str | None = None, config: Config | None = None,
                   model_files: Iterable[str | Path] = MODEL_FILES) -> str:
    chosen = name or os.environ.get("CRIBPI_BACKEND") or (config.backend if config else None)
    if not chosen:
        return "pi" if is_raspberry_pi(model_files) else "sim"
    if chosen not in BACKENDS:
        raise ConfigError(f"backend {chosen!r} is not one of {', '.join(BACKENDS)}")
    return chosen


def open_pi(config: Config | None = None, *, pin_factory: Any = None, device: Any = None,
            device_factory: Any = None, clock: Any = None) -> Backend:
    """The Pi backend from ``config``; the keyword arguments inject test doubles."""
    from cribpi.config import Config
    from cribpi.hal.base import CombinedInputs
    from cribpi.hal.pi import GpioInputs, HeadlessPegboard, OledDisplay
    from cribpi.hal.serial_cards import SerialCardReader

    config = config or Config()
    sources: list[InputSource] = []
    try:
        sources.append(GpioInputs(config.pins, timing=config.timing, pin_factory=pin_factory, clock=clock))
        if config.card_reader_port:
            sources.append(SerialCardReader(config.card_reader_port))
        oled = config.oled
        display = OledDisplay(driver=oled.driver, port=oled.port, address=oled.address,
                              rotate=oled.rotate, device=device, device_factory=device_factory)
    except BaseException:
        CombinedInputs(sources).close()
        raise
    display.contrast(oled.contrast)
    return Backend("pi", CombinedInputs(sources), HeadlessPegboard(), display)


def open_backend(name: str | None = None, config: Config | None = None, **inject: Any) -> Backend:
    """Open the backend chosen by ``name``, ``$CRIBPI_BACKEND``, the config or the machine.

    ``inject`` passes test doubles to the ``pi`` backend (``pin_factory``, ``device``,
    ``device_factory``, ``clock``) and to ``mock`` (``pins``, ``timing``, ``pin_factory``).
    """
    chosen = choose_backend(name, config)
    if chosen == "pi":
        return open_pi(config, **inject)
    if chosen == "controller":
        from cribpi.hal.controller import open_controller

        return open_controller(config.controller_port if config else None)
    if chosen == "mock":
        from cribpi.hal.mock import open_mock

        return open_mock(**inject)
    from cribpi.hal.sim import open_sim

    return open_sim()
