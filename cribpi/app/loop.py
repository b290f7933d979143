"""The table UI on a backend: one loop, no threads of its own, no polling."""

from __future__ import annotations

import dataclasses
import selectors
import time
from collections.abc import Callable, Sequence
from typing import Any

from cribpi.app.ui import ANIM_TICK, FLASH_SECONDS, TableSettings, TableUI
from cribpi.game import Effect, GameOver
from cribpi.hal import Action, ActionQueue, Backend
from cribpi.views import LedSettings, render_board, render_screen

__all__ = ["TableApp"]


class TableApp:
    """The UI on a backend: one loop, no threads of its own, no polling."""

    def __init__(self, backend: Backend, ui: TableUI, *, led_settings: LedSettings | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.backend = backend
        self.ui = ui
        self.led_settings = led_settings or LedSettings(brightness=ui.settings.brightness)
        self.clock = clock
        self.queue = ActionQueue()
        self.anim_step = 0
        self.anim_until = 0.0
        self._running = False
        ui.on_settings = self._settings_changed

    def start(self) -> None:
        self.backend.inputs.start(self.queue)
        self.render()

    def _settings_changed(self, settings: TableSettings) -> None:
        self.led_settings = dataclasses.replace(self.led_settings, brightness=settings.brightness)

    def handle(self, action: Action) -> tuple[Effect, ...]:
        """Apply one action and show the result on the hardware."""
        effects = self.ui.handle(action)
        self.anim_step = 0
        animating = self.ui.flash and any(self.ui.flash) or self.ui.muggins_track is not None
        animating = animating or any(isinstance(e, GameOver) for e in effects)
        self.anim_until = self.clock() + FLASH_SECONDS if animating else 0.0
        self.render()
        return effects

    def render(self) -> None:
        board = self.ui.board(self.anim_step)
        self.backend.pegboard.show(render_board(board, self.led_settings))
        self.backend.display.show(render_screen(self.ui.screen()))

    def tick(self) -> None:
        """Advance animations one step (called by the loop while animating)."""
        self.anim_step += 1
        if self.clock() >= self.anim_until:
            self.ui.flash = ()
            self.ui.muggins_track = None
            self.anim_until = 0.0
        self.render()

    def timeout(self) -> float | None:
        """How long the loop may sleep: forever unless something is animating."""
        return ANIM_TICK if self.anim_until else None

    def pump(self) -> int:
        """Handle every action queued so far; returns how many."""
        actions = self.queue.drain()
        for action in actions:
            self.handle(action)
        return len(actions)

    def run(self, extra: Sequence[tuple[Any, Callable[[], None]]] = (),
            should_stop: Callable[[], bool] = lambda: False) -> None:
        """The loop: wait on the action queue (and ``extra`` file objects) with a selector."""
        self._running = True
        with selectors.DefaultSelector() as sel:
            sel.register(self.queue, selectors.EVENT_READ, self.pump)
            for fileobj, callback in extra:
                sel.register(fileobj, selectors.EVENT_READ, callback)
            while self._running and not should_stop():
                ready = sel.select(self.timeout())
                for key, _ in ready:
                    key.data()
                if self.anim_until:
                    self.tick()

    def stop(self) -> None:
        self._running = False

    def close(self) -> None:
        try:
            self.backend.close()  # first: its input threads stop delivering
        finally:
            self.queue.close()
