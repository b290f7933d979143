"""The simulator backend: everything in memory. The terminal simulator draws the latest frame
and image (with :mod:`cribpi.hal.term`) and turns key presses into :meth:`SimInputs.press`.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

from cribpi.hal.actions import Action
from cribpi.hal.base import Backend, Deliver, check_contrast, check_image, check_open
from cribpi.views.leds import LedFrame

__all__ = ["SimInputs", "SimPegboard", "SimDisplay", "open_sim", "action_from_words"]

Listener = Callable[[], None]


def action_from_words(kind: str, *args: object) -> Action:
    """``("rank", "5")`` -> ``Action.parse("rank 5")``: the helpers' calling style."""
    return Action.parse(" ".join([kind, *map(str, args)]))


class SimInputs:
    """Actions pushed in by the simulator (or a test); delivered on the caller's thread."""

    def __init__(self) -> None:
        self._deliver: Deliver | None = None

    def start(self, deliver: Deliver) -> None:
        self._deliver = deliver

    def push(self, action: Action) -> None:
        if self._deliver is not None:
            self._deliver(action)

    def press(self, kind: str, *args: object) -> None:
        """``press("ok")``, ``press("rank", "5")``, ``press("peg", 0, 2)``."""
        self.push(action_from_words(kind, *args))

    def feed_card(self, card: str) -> None:
        self.push(Action.of_card(card))

    def close(self) -> None:
        self._deliver = None


class _Watched:
    def __init__(self) -> None:
        self.listeners: list[Listener] = []
        self._closed = False

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` after every ``show`` (the simulator redraws)."""
        self.listeners.append(listener)

    def _changed(self) -> None:
        for listener in self.listeners:
            listener()

    def close(self) -> None:
        self._closed = True


class SimPegboard(_Watched):
    def __init__(self) -> None:
        super().__init__()
        self.frame: LedFrame | None = None

    def show(self, frame: LedFrame) -> None:
        check_open(self._closed, "pegboard")
        self.frame = frame
        self._changed()


class SimDisplay(_Watched):
    def __init__(self) -> None:
        super().__init__()
        self.image: Image.Image | None = None
        self.level = 255

    def show(self, image: Image.Image) -> None:
        check_open(self._closed, "display")
        check_image(image)
        self.image = image.copy()
        self._changed()

    def contrast(self, level: int) -> None:
        check_open(self._closed, "display")
        check_contrast(level)
        self.level = level


def open_sim() -> Backend:
    return Backend("sim", SimInputs(), SimPegboard(), SimDisplay())
