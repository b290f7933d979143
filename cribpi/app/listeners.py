"""What the table tells its listeners, and the first listener: the parts' own view.

An :class:`Update` says what the table shows now (the screen, the onlookers' scores, the
board) and what just happened (the events applied, their effects: scores, alerts, game over).
Any callable taking an ``Update`` can subscribe to :class:`~cribpi.app.loop.TableApp`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cribpi.game import Effect, Event, State
from cribpi.hal import Parts
from cribpi.views.board import BoardModel
from cribpi.views.model import ScreenModel
from cribpi.views.oled import render_screen

__all__ = ["Update", "Listener", "PartsView"]


@dataclass(frozen=True)
class Update:
    screen: ScreenModel  # the table's own screen
    scores: ScreenModel  # the page for onlookers
    board: BoardModel
    state: State
    events: tuple[Event, ...] = ()  # applied by this action (none for a key that only moves a menu)
    effects: tuple[Effect, ...] = ()
    game_id: int | None = None


Listener = Callable[[Update], None]


class PartsView:
    """Shows each update on the pegboard and on every display (each its own page and size)."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    def __call__(self, update: Update) -> None:
        self.parts.pegboard.show(update.board)
        for display, page in zip(self.parts.displays, self.parts.pages):
            screen = update.scores if page == "scores" else update.screen
            display.show(render_screen(screen, display.size))
