"""The hardware interfaces: a few methods each. Backends implement them; the app uses them.

* :class:`InputSource` delivers :class:`~cribpi.hal.actions.Action` values to a callback,
  possibly from another thread: pass an :class:`~cribpi.hal.actions.ActionQueue` as the
  callback and select on its ``fileno()``.
* :class:`Pegboard` shows a :class:`~cribpi.views.board.BoardModel` (pegs, marks,
  animations). The controller sends it to the firmware; pixel backends draw it.
* :class:`Display` has a ``size`` and shows a one-bit image of that size from
  :func:`cribpi.views.oled.render_screen`.

:class:`Parts` holds one table's parts; :mod:`cribpi.wiring` builds each from its own backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from PIL import Image

from cribpi.exc import HardwareError, ViewError
from cribpi.hal.actions import Action
from cribpi.hal.speaker.base import Speaker
from cribpi.views.board import BoardModel

__all__ = [
    "Deliver", "InputSource", "Pegboard", "Display", "Parts", "CombinedInputs",
    "check_image", "check_contrast", "check_size", "DISPLAY_SIZE", "DISPLAY_SIZES", "PAGES",
]

Deliver = Callable[[Action], None]
DISPLAY_SIZE = (128, 64)
DISPLAY_SIZES = ((128, 64), (128, 32), (256, 64))
#: What a display shows: the table's own screen, or the scores for onlookers.
PAGES = ("table", "scores")


@runtime_checkable
class InputSource(Protocol):
    def start(self, deliver: Deliver) -> None:
        """Begin delivering actions; ``deliver`` may be called from any thread."""

    def close(self) -> None:
        """Stop delivering and release the inputs. Safe to call twice."""


@runtime_checkable
class Pegboard(Protocol):
    def show(self, board: BoardModel) -> None:
        """Show ``board``. Called again with the same board while it animates."""

    def close(self) -> None: ...


@runtime_checkable
class Display(Protocol):
    size: tuple[int, int]

    def show(self, image: Image.Image) -> None:
        """Show an image of mode ``'1'`` and of this display's ``size``."""

    def contrast(self, level: int) -> None:
        """Set the contrast, 0-255."""

    def close(self) -> None: ...


def check_image(image: Image.Image, size: tuple[int, int] = DISPLAY_SIZE) -> None:
    if image.size != size or image.mode != "1":
        raise ViewError(
            f"the display shows {size[0]}x{size[1]} images of mode '1', not "
            f"{image.size[0]}x{image.size[1]} mode {image.mode!r}"
        )


def check_size(size: tuple[int, int]) -> tuple[int, int]:
    if tuple(size) not in DISPLAY_SIZES:
        sizes = ", ".join(f"{w}x{h}" for w, h in DISPLAY_SIZES)
        raise ViewError(f"display size {size!r} is not one of {sizes}")
    return (int(size[0]), int(size[1]))


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


def _close_all(parts: Iterable[InputSource | Pegboard | Display | Speaker]) -> None:
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
class Parts:
    """One table's parts, each from its own backend: the inputs (all sources seen as one), the
    pegboard, the displays with the page each shows, and the speaker if there is one.
    ``close()`` closes them all; usable as a context manager. ``backends`` names where each
    part came from (for logs)."""

    inputs: InputSource
    pegboard: Pegboard
    displays: tuple[Display, ...]
    pages: tuple[str, ...] = ()
    backends: tuple[tuple[str, str], ...] = ()
    speaker: Speaker | None = None

    def __post_init__(self) -> None:
        self.pages = self.pages or ("table",) * len(self.displays)
        if len(self.pages) != len(self.displays) or not set(self.pages) <= set(PAGES):
            raise HardwareError(f"pages {self.pages!r} do not match the {len(self.displays)} display(s): "
                                f"one of {', '.join(PAGES)} each")

    @property
    def display(self) -> Display:
        """The first display: the table's own screen."""
        return self.displays[0]

    def close(self) -> None:
        _close_all((self.inputs, self.pegboard, *self.displays, *((self.speaker,) if self.speaker else ())))

    def __enter__(self) -> Parts:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
