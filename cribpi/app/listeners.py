"""What the table tells its listeners, and the first listener: the parts' own view.

An :class:`Update` says what the table shows now (the screen, the onlookers' scores, the
board) and what just happened (the events applied, their effects: scores, alerts, game over).
Any callable taking an ``Update`` can subscribe to :class:`~cribpi.app.loop.TableApp`.

A part that fails or is missing (an OLED off the bus, the controller unplugged) is a *problem*:
while any is open, the displays that still work show it instead of the table's screen, so the
players know why the board went dark; the game itself is untouched and is shown again once it
clears. A key pressed while the problems are shown takes them as read (:meth:`PartsView.dismiss`):
the table's screen comes back with it, so the game can be played on the parts that work (the
controller unplugged for the evening), and the problems are shown again when a new one opens.
A *mark* (the room's broker out of reach: ``offline``) is smaller news: a glyph in a corner of
every display, the screen kept. A part still down once its problem was taken as read keeps one
(``missing``) until it joins, so the table never looks whole while it is not; the update names
those parts (``missing``) for the views that have words to spare (the simulator's status line).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cribpi.game import Effect, Event, State
from cribpi.hal import Parts
from cribpi.views.board import BoardModel
from cribpi.views.model import AlertScreen, ScreenModel
from cribpi.views.oled import render_screen

__all__ = ["Update", "Listener", "PartsView", "problem_screen", "PROBLEM_TITLE"]

PROBLEM_TITLE = "Hardware"


@dataclass(frozen=True)
class Update:
    screen: ScreenModel  # the table's own screen
    scores: ScreenModel  # the page for onlookers
    board: BoardModel
    state: State
    events: tuple[Event, ...] = ()  # applied by this action (none for a key that only moves a menu)
    effects: tuple[Effect, ...] = ()
    game_id: int | None = None
    marks: frozenset[str] = frozenset()  # status marks shown beside the screen (``offline``)
    missing: tuple[str, ...] = ()  # the parts down now, said short (``LEDs``): marked while any is


Listener = Callable[[Update], None]


def problem_screen(problems: Sequence[str]) -> AlertScreen:
    """What the displays say while parts are failing: each problem, and that nothing is lost."""
    return AlertScreen(PROBLEM_TITLE, (*problems, "the game is kept"))


class PartsView:
    """Shows each update on the pegboard and on every display (each its own page and size);
    ``problems`` (the parts' open faults) are shown in place of the screens while any is open."""

    def __init__(self, parts: Parts, problems: Callable[[], Sequence[str]] = tuple) -> None:
        self.parts = parts
        self.problems = problems
        self.read: tuple[str, ...] = ()  # problems the players dismissed with a key
        self.showing = False  # the problems are on the displays now

    def dismiss(self) -> None:
        """A key came: if the problems are on the displays, they are taken as read and the
        table's screen comes back with the next update (the key still reaches the game, as
        it always did while they were shown)."""
        if self.showing:
            self.read = tuple(self.problems())

    def __call__(self, update: Update) -> None:
        self.parts.pegboard.show(update.board)
        now = tuple(self.problems())
        self.read = tuple(p for p in self.read if p in now)  # one that cleared and comes back is news
        problems = now if set(now) - set(self.read) else ()
        self.showing = False
        # the problem screen names the parts down; the table's screen keeps a mark for them
        marks = update.marks | {"missing"} if update.missing and not problems else update.marks
        for display, page in zip(self.parts.displays, self.parts.pages):
            screen = problem_screen(problems) if problems else update.scores if page == "scores" else update.screen
            display.show(render_screen(screen, display.size, marks))
            # shown only where a display works (a guarded one says its own problem otherwise)
            self.showing = self.showing or bool(problems) and getattr(display, "problem", None) is None
