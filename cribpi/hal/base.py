"""The hardware interfaces: a few methods each. Backends implement them; the app uses them.

* :class:`InputSource` delivers :class:`~cribpi.hal.actions.Action` values to a callback,
  possibly from another thread: pass an :class:`~cribpi.hal.actions.ActionQueue` as the
  callback and select on its ``fileno()``.
* :class:`Pegboard` shows an LED frame from :func:`cribpi.views.leds.render_board`.
* :class:`Display` shows a 128x64 one-bit image from :func:`cribpi.views.oled.render_screen`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from PIL import Image

from cribpi.exc import HardwareError, ViewError
from cribpi.hal.actions import Action
from cribpi.views.leds import LedFrame

__all__ = [
    "Deliver", "InputSource", "Pegboard", "Display", "Backend", "CombinedInputs",
    "check_image", "check_contrast", "DISPLAY_SIZE",
]

Deliver = Callable[[Action], None]
DISPLAY_SIZE = (128, 64)


@runtime_checkable
class InputSource(Protocol):
    def start(self, deliver: Deliver) -> None:
        """Begin delivering actions; ``deliver`` may be called from any thread."""

    def close(self) -> None:
        """Stop delivering and release the inputs. Safe to call twice."""


@runtime_checkable
class Pegboard(Protocol):
    def show(self, frame: LedFrame) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class Display(Protocol):
    def show(self, image: Image.Image) -> None:
        """Show a 128x64 image of mode ``'1'``."""

    def contrast(self, level: int) -> None:
        """Set the contrast, 0-255."""

    def close(self) -> None: ...


def check_image(image: Image.Image) -> None:
    if image.size != DISPLAY_SIZE or image.mode != "1":
        raise ViewError(
            f"the display shows 128x64 images of mode '1', not {image.size[0]}x{image.size[1]} "
            f"mode {image.mode!r}"
        )


def check_contrast(level: int) -> None:
    if not isinstance(level, int) or not 0 <= level <= 255:
        raise ViewError(f"contrast {level!r} is not an integer 0-255")


def check_open(closed: bool, what: str) -> None:
    if closed:
        raise HardwareError(f"the {what} is closed")


class CombinedInputs:
    """Several input sources (buttons and a card reader) seen as one."""

    def __init__(self, sources: Iterable[InputSource]) -> None:
        self.sources = tuple(sources)

    def start(self, deliver: Deliver) -> None:
        for source in self.sources:
            source.start(deliver)

    def close(self) -> None:
        _close_all(self.sources)


def _close_all(parts: Iterable[InputSource | Pegboard | Display]) -> None:
    """Close every part even when one fails; re-raise the first failure."""
    first: BaseException | None = None
    for part in parts:
        try:
            part.close()
        except Exception as exc:  # noqa: BLE001 - the others must still close
            first = first or exc
    if first is not None:
        raise first


@dataclass
class Backend:
    """One backend's three parts. ``close()`` closes them all; usable as a context manager."""

    name: str
    inputs: InputSource
    pegboard: Pegboard
    display: Display
    extras: dict[str, object] = field(default_factory=dict)

    def close(self) -> None:
        _close_all((self.inputs, self.pegboard, self.display))

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
