"""The table UI on its parts: one loop, no threads of its own, no polling.

Actions arrive through an :class:`~cribpi.hal.ActionQueue` (gpiozero calls back from its own
threads); the loop waits on the queue's file descriptor with a selector and wakes on a timer
only while something is animating. After every action, and every animation step, each
listener gets an :class:`~cribpi.app.listeners.Update`: the parts' own view (board and
displays) is one listener; a status line or a tournament publisher is just another
``subscribe``. A listener that fails is logged and the table goes on.
"""

from __future__ import annotations

import logging
import selectors
import time
from collections.abc import Callable, Sequence
from typing import Any

from cribpi.app.listeners import Listener, PartsView, Update
from cribpi.app.ui import ANIM_TICK, FLASH_SECONDS, TableUI
from cribpi.game import Effect, Event, GameOver
from cribpi.hal import Action, ActionQueue, Parts
from cribpi.views.leds import LedSettings
from cribpi.views.table import scores_screen

__all__ = ["TableApp"]

log = logging.getLogger(__name__)


class TableApp:
    """The UI on ``parts``; ``listeners`` are told of every change (the parts' view first)."""

    def __init__(self, parts: Parts, ui: TableUI, *, led_settings: LedSettings | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.parts = parts
        self.ui = ui
        self.led_settings = led_settings or LedSettings(brightness=ui.settings.brightness)
        self.clock = clock
        self.queue = ActionQueue()
        self.anim_until = 0.0
        self.listeners: list[Listener] = [PartsView(parts)]

    def subscribe(self, listener: Listener) -> None:
        """Tell ``listener`` of every change from now on."""
        self.listeners.append(listener)

    def start(self) -> None:
        self.parts.inputs.start(self.queue)
        self.publish((), ())

    def handle(self, action: Action) -> tuple[Effect, ...]:
        """Apply one action and tell the listeners."""
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
            state=ui.state, events=events, effects=effects, game_id=ui.session.game_id,
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
        """How long the loop may sleep: forever unless something is animating."""
        return ANIM_TICK if self.anim_until else None

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
            for fileobj, callback in extra:
                sel.register(fileobj, selectors.EVENT_READ, callback)
            while not should_stop():
                ready = sel.select(self.timeout())
                for key, _ in ready:
                    key.data()
                if self.anim_until:
                    self.tick()

    def close(self) -> None:
        try:
            self.parts.close()  # first: its input threads stop delivering
        finally:
            self.queue.close()
