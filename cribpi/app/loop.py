"""The table UI on its parts: one loop, no threads of its own, no polling.

Actions arrive through an :class:`~cribpi.hal.ActionQueue` (gpiozero calls back from its own
threads); the loop waits on the queue's file descriptor with a selector and wakes on a timer
only while something is animating or a timer (:meth:`TableApp.every`: the watchdog's ping, a
part's retry) is due. Other threads change what is shown only through the loop: a status mark
(:meth:`TableApp.set_mark`, from a publisher's network thread) is posted to it and drawn by it.
After every action, and every animation step, each
listener gets an :class:`~cribpi.app.listeners.Update`: the parts' own view (board and
displays) is one listener; a status line or a tournament publisher is just another
``subscribe``. A listener that fails is logged and the table goes on.
"""

from __future__ import annotations

import logging
import selectors
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cribpi.app.listeners import Listener, PartsView, Update
from cribpi.app.ui import ANIM_TICK, FLASH_SECONDS, TableUI
from cribpi.game import Effect, Event, GameOver
from cribpi.hal import Action, ActionQueue, Parts
from cribpi.hal.actions import WakeQueue
from cribpi.exc import ViewError
from cribpi.views.leds import LedSettings
from cribpi.views.oled import MARKS
from cribpi.views.table import scores_screen

__all__ = ["TableApp"]

log = logging.getLogger(__name__)


@dataclass
class _Timer:
    due: float
    interval: float
    callback: Callable[[], object]


class TableApp:
    """The UI on ``parts``; ``listeners`` are told of every change (the parts' view first).
    ``problems`` gives the parts' open faults, which the displays show while there are any;
    ``missing`` the parts down, said short (``LEDs``), which every update carries."""

    def __init__(self, parts: Parts, ui: TableUI, *, led_settings: LedSettings | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 problems: Callable[[], Sequence[str]] = tuple,
                 missing: Callable[[], Sequence[str]] = tuple) -> None:
        self.parts = parts
        self.ui = ui
        self.missing = missing
        # OK pages a long screen as often as the table's own display needs (a 128x32 one
        # takes more pages than the default 128x64).
        ui.display_size = next((d.size for d, page in zip(parts.displays, parts.pages) if page == "table"),
                               ui.display_size)
        self.led_settings = led_settings or LedSettings(brightness=ui.settings.brightness)
        self.clock = clock
        self.queue = ActionQueue()
        self.anim_until = 0.0
        self.view = PartsView(parts, problems)
        self.listeners: list[Listener] = [self.view]
        self.timers: list[_Timer] = []
        self.marks: frozenset[str] = frozenset()
        self.mailbox: WakeQueue[Callable[[], None]] = WakeQueue()  # calls posted from other threads

    def subscribe(self, listener: Listener) -> None:
        """Tell ``listener`` of every change from now on."""
        self.listeners.append(listener)

    def set_mark(self, name: str) -> None:
        """Show the status mark ``name`` (see :data:`cribpi.views.oled.MARKS`) beside the
        screen until :meth:`clear_mark`. Safe from any thread: the loop draws it."""
        if name not in MARKS:
            raise ViewError(f"no status mark {name!r}: marks are {', '.join(MARKS)}")
        self.mailbox.put(lambda: self._mark(name, True))

    def clear_mark(self, name: str) -> None:
        self.mailbox.put(lambda: self._mark(name, False))

    def _mark(self, name: str, on: bool) -> None:
        marks = self.marks | {name} if on else self.marks - {name}
        if marks != self.marks:
            self.marks = marks
            self.publish((), ())

    def run_posts(self) -> int:
        """Run what other threads posted (the loop does, when its pipe wakes it); how many."""
        calls = self.mailbox.drain()
        for call in calls:
            call()
        return len(calls)

    def every(self, seconds: float, callback: Callable[[], object]) -> None:
        """Call ``callback`` from the loop every ``seconds`` (first after one interval). Being
        the loop's own work, it stops when the loop hangs: that is what the watchdog needs."""
        self.timers.append(_Timer(self.clock() + seconds, seconds, callback))

    def run_timers(self) -> None:
        """Call every timer that is due; a failing one is logged and keeps its schedule."""
        now = self.clock()
        for timer in self.timers:
            if timer.due <= now:
                timer.due = max(timer.due + timer.interval, now)
                try:
                    timer.callback()
                except Exception:  # noqa: BLE001 - a retry that fails must not stop the table
                    log.exception("timer %r failed", timer.callback)

    def start(self) -> None:
        self.parts.inputs.start(self.queue)
        self.publish((), ())

    def handle(self, action: Action) -> tuple[Effect, ...]:
        """Apply one action and tell the listeners. A key while the displays show the parts'
        problems also takes them as read: the table's screen comes back with it."""
        self.view.dismiss()
        game, seen = self.ui.session.game, len(self.ui.session.game.journal)
        effects = self.ui.handle(action)
        now = self.ui.session.game
        events = tuple(now.journal[seen:] if now is game else now.journal)
        animating = any(self.ui.flash) or self.ui.muggins_track is not None
        animating = animating or any(isinstance(e, GameOver) for e in effects)
        self.anim_until = self.clock() + FLASH_SECONDS if animating else 0.0
        self.publish(events, effects)
        return effects

    def publish(self, events: tuple[Event, ...], effects: tuple[Effect, ...]) -> None:
        """Tell every listener what the table shows now and what just happened."""
        ui = self.ui
        update = Update(
            screen=ui.screen(), scores=scores_screen(ui.state), board=ui.board(marks=self.led_settings.marks),
            state=ui.state, events=events, effects=effects, game_id=ui.session.game_id, marks=self.marks,
            missing=tuple(self.missing()),
        )
        for listener in self.listeners:
            try:
                listener(update)
            except Exception:  # noqa: BLE001 - one broken part must not stop the table
                log.exception("listener %r failed", listener)

    def tick(self) -> None:
        """End the animations once their time is up (called by the loop while animating)."""
        if self.clock() >= self.anim_until:
            self.ui.flash = ()
            self.ui.muggins_track = None
            self.anim_until = 0.0
        self.publish((), ())

    def timeout(self) -> float | None:
        """How long the loop may sleep: until the next timer, shorter while animating."""
        waits = [ANIM_TICK] if self.anim_until else []
        if self.timers:
            waits.append(max(0.0, min(t.due for t in self.timers) - self.clock()))
        return min(waits) if waits else None

    def pump(self) -> int:
        """Handle every action queued so far; returns how many."""
        actions = self.queue.drain()
        for action in actions:
            self.handle(action)
        return len(actions)

    def run(self, extra: Sequence[tuple[Any, Callable[[], object]]] = (),
            should_stop: Callable[[], bool] = lambda: False) -> None:
        """The loop: wait on the action queue (and ``extra`` file objects) with a selector."""
        with selectors.DefaultSelector() as sel:
            sel.register(self.queue, selectors.EVENT_READ, self.pump)
            sel.register(self.mailbox, selectors.EVENT_READ, self.run_posts)
            for fileobj, callback in extra:
                sel.register(fileobj, selectors.EVENT_READ, callback)
            while not should_stop():
                ready = sel.select(self.timeout())
                for key, _ in ready:
                    key.data()
                if self.anim_until:
                    self.tick()
                self.run_timers()

    def close(self) -> None:
        try:
            self.parts.close()  # first: its input threads stop delivering
        finally:
            self.queue.close()
            self.mailbox.close()
