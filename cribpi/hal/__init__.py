"""The hardware layer: small interfaces, and backends that each offer some of the parts.

The parts are the inputs (buttons, key matrix, card reader), the pegboard (LED tracks), the
displays, and a speaker if the table has one (:mod:`cribpi.hal.speaker`: espeak-ng, sim, mock). Backends: ``pi`` (gpiozero buttons, luma.oled display, no LEDs), ``controller``
(the Pico on USB: LED tracks and card keys), ``sim`` (in memory, drawn by the terminal
simulator) and ``mock`` (tests: the Pi code on gpiozero's MockFactory and luma's dummy).
:mod:`cribpi.wiring` chooses a backend for each part from the configuration; nothing here
reads the configuration.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from cribpi.hal.actions import Action, ActionQueue, Kind
from cribpi.hal.base import Display, InputSource, Parts, Pegboard

__all__ = [
    "Action", "ActionQueue", "Kind", "Parts", "Display", "InputSource", "Pegboard",
    "BACKENDS", "PART_BACKENDS", "is_raspberry_pi", "machine_backend",
]

BACKENDS = ("pi", "controller", "sim", "mock")
#: Which backends offer which part.
PART_BACKENDS = {
    "inputs": ("pi", "controller", "sim", "mock"),
    "pegboard": ("pi", "controller", "sim", "mock"),  # pi: no LEDs of its own (headless)
    "display": ("pi", "sim", "mock"),
}
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


def machine_backend(model_files: Iterable[str | Path] = MODEL_FILES) -> str:
    """The backend for a part nobody chose: ``pi`` on a Raspberry Pi, ``sim`` anywhere else."""
    return "pi" if is_raspberry_pi(model_files) else "sim"
