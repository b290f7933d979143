"""The simulator backend: every part in memory. The terminal simulator draws the latest
frame and image (with :mod:`cribpi.hal.term`) and turns key presses into
:meth:`SimInputs.press`. Each part can be opened on its own (``cribpi.wiring`` mixes them with
other backends' parts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from cribpi.hal.actions import Action
from cribpi.hal.base import DISPLAY_SIZE, Deliver, check_contrast, check_image, check_open, check_size
from cribpi.hal.layout import Layout
from cribpi.hal.strip import PixelPegboard
from cribpi.views.board import BoardModel
from cribpi.views.leds import LedSettings

__all__ = ["SimInputs", "SimPegboard", "SimDisplay", "action_from_words"]

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

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` after every ``show`` (the simulator redraws)."""
        self.listeners.append(listener)

    def _changed(self) -> None:
        for listener in self.listeners:
            listener()


class SimPegboard(PixelPegboard, _Watched):
    """The board drawn in memory (``frame``; ``strips`` too, through a layout if given)."""

    def __init__(self, settings: LedSettings | None = None, layout: Layout | None = None, **kwargs: Any) -> None:
        PixelPegboard.__init__(self, settings, layout, **kwargs)
        _Watched.__init__(self)

    def show(self, board: BoardModel) -> None:
        super().show(board)
        self._changed()


class SimDisplay(_Watched):
    def __init__(self, size: tuple[int, int] = DISPLAY_SIZE) -> None:
        super().__init__()
        self.size = check_size(size)
        self.image: Image.Image | None = None
        self.level = 255
        self._closed = False

    def show(self, image: Image.Image) -> None:
        check_open(self._closed, "display")
        check_image(image, self.size)
        self.image = image.copy()
        self._changed()

    def contrast(self, level: int) -> None:
        check_open(self._closed, "display")
        check_contrast(level)
        self.level = level

    def close(self) -> None:
        self._closed = True
