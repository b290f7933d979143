"""A pegboard drawn in pixels: the simulator's tracks, or LED strips wired to this machine.

:class:`PixelPegboard` turns each :class:`~cribpi.views.board.BoardModel` into an LED frame
(:func:`cribpi.views.leds.render_board`), on its own animation clock, and, given a layout,
into the colour of every LED of every strip, which it hands to ``write``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cribpi.hal.base import check_open
from cribpi.hal.layout import Layout
from cribpi.views.board import RGB, BoardModel
from cribpi.views.leds import STEP_SECONDS, LedFrame, LedSettings, render_board

__all__ = ["PixelPegboard", "StripWriter"]

#: Receives the colour of every LED, per strip (strip number -> colours in wiring order).
StripWriter = Callable[[dict[int, list[RGB]]], None]


class PixelPegboard:
    """Draws the board model; ``frame`` (by hole) and ``strips`` (by LED) keep the last one.

    A board shown again unchanged advances its animation by the time passed since it first
    came; a new board restarts the animation from step 0.
    """

    def __init__(self, settings: LedSettings | None = None, layout: Layout | None = None,
                 write: StripWriter | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings or LedSettings()
        self.layout = layout
        self.write = write
        self.clock = clock
        self.board: BoardModel | None = None
        self.frame: LedFrame | None = None
        self.strips: dict[int, list[RGB]] = {}
        self._since = 0.0
        self._closed = False

    def show(self, board: BoardModel) -> None:
        check_open(self._closed, "pegboard")
        if board != self.board:
            self.board, self._since = board, self.clock()
        self.frame = render_board(board, self.settings, self.step)
        if self.layout is not None:
            self.strips = self.layout.place(self.frame)
            if self.write is not None:
                self.write(self.strips)

    @property
    def step(self) -> int:
        """Animation steps since the board now shown first came."""
        return max(0, int((self.clock() - self._since) / STEP_SECONDS + 1e-9))  # 0.6 / 0.2 is 2.999...

    def close(self) -> None:
        self._closed = True
