"""Debounce and long press, in our code where a fake clock can test them.

gpiozero's ``MockFactory`` does not simulate ``bounce_time``, and a real Pi's callbacks arrive
on gpiozero's threads, so the logic lives in :class:`ButtonLogic`, a small state machine fed
raw edges with their times and asked to :meth:`~ButtonLogic.update` at its
:meth:`~ButtonLogic.deadline`. :class:`ButtonDriver` wires it to a :class:`Clock`:
:class:`ThreadClock` on a Pi, :class:`ManualClock` in tests.

Debounce: a level counts once it has held for ``debounce_s`` (bounces keep restarting the
wait). A button with no hold action acts when pressed; one with a hold action (``undo`` ->
``undo_long``) acts on release if let go before ``long_press_s``, else fires the hold action
at ``long_press_s`` and again every ``repeat_s`` while held (if set).
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from cribpi.exc import ConfigError
from cribpi.hal.actions import Action, Kind

__all__ = [
    "ButtonTiming", "PinBinding", "ButtonLogic", "ButtonDriver",
    "Clock", "ThreadClock", "ManualClock",
]


@dataclass(frozen=True)
class ButtonTiming:
    debounce_s: float = 0.02
    long_press_s: float = 0.8
    repeat_s: float | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.debounce_s < self.long_press_s:
            raise ConfigError(
                f"button timing: need 0 <= debounce ({self.debounce_s}s) < long press "
                f"({self.long_press_s}s)"
            )
        if self.repeat_s is not None and self.repeat_s <= 0:
            raise ConfigError(f"button timing: repeat {self.repeat_s}s must be more than 0")


@dataclass(frozen=True)
class PinBinding:
    """What one button does: ``press``, and ``hold`` when held down (None: nothing)."""

    press: Action
    hold: Action | None = None

    @classmethod
    def for_press(cls, press: Action) -> PinBinding:
        """The usual binding: ``undo`` gets ``undo_long`` as its hold action."""
        hold = Action.plain(Kind.UNDO_LONG) if press.kind is Kind.UNDO else None
        return cls(press, hold)


class ButtonLogic:
    """One button's debounce and long press; no threads, no clock of its own."""

    def __init__(self, binding: PinBinding, timing: ButtonTiming) -> None:
        self.binding = binding
        self.timing = timing
        self._raw = False
        self._raw_at = 0.0
        self._pressed = False
        self._pressed_at = 0.0
        self._holds = 0

    def edge(self, pressed: bool, now: float) -> list[Action]:
        """The pin changed (a bounce counts too). Returns what the old level decided first,
        so a late timer never loses a press."""
        actions = self.update(now)
        if pressed != self._raw:
            self._raw, self._raw_at = pressed, now
        return actions

    def _next_hold(self) -> float | None:
        if self.binding.hold is None or not self._pressed:
            return None
        if self._holds == 0:
            return self._pressed_at + self.timing.long_press_s
        if self.timing.repeat_s is None:
            return None
        return self._pressed_at + self.timing.long_press_s + self._holds * self.timing.repeat_s

    def deadline(self) -> float | None:
        """When :meth:`update` next has something to decide (None: nothing pending)."""
        if self._raw != self._pressed:
            return self._raw_at + self.timing.debounce_s
        return self._next_hold()

    def update(self, now: float) -> list[Action]:
        """Actions decided by time ``now``, in order."""
        actions = self._holds_due(now if self._raw else self._raw_at)
        if self._raw != self._pressed and now >= self._raw_at + self.timing.debounce_s:
            actions += self._settle()
        return actions + self._holds_due(now if self._raw == self._pressed else -1.0)

    def _holds_due(self, until: float) -> list[Action]:
        actions: list[Action] = []
        due = self._next_hold()
        while due is not None and due <= until and self.binding.hold is not None:
            actions.append(self.binding.hold)
            self._holds += 1
            due = self._next_hold()
        return actions

    def _settle(self) -> list[Action]:
        self._pressed = self._raw
        if self._pressed:
            self._pressed_at, self._holds = self._raw_at, 0
            return [self.binding.press] if self.binding.hold is None else []
        if self.binding.hold is not None and self._holds == 0:
            return [self.binding.press]  # let go before the long press
        return []


class Clock(Protocol):
    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` at ``when`` (on any thread); returns a function that cancels it."""


class ThreadClock:
    """The real clock: ``time.monotonic`` and a daemon timer thread per pending call."""

    def now(self) -> float:
        return time.monotonic()

    def call_at(self, when: float, callback: Callable[[], None]) -> Callable[[], None]:
        timer = threading.Timer(max(0.0, when - self.now()), callback)
        timer.daemon = True
        timer.start()
        return timer.cancel


class ManualClock:
    """A fake clock for tests: time moves only in :meth:`advance`, which runs due calls."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._pending: list[tuple[float, int, Callable[[], None]]] = []
        self._ids = itertools.count()
        self._cancelled: set[int] = set()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Callable[[], None]:
        call_id = next(self._ids)
        heapq.heappush(self._pending, (when, call_id, callback))
        return lambda: self._cancelled.add(call_id)

    def advance(self, seconds: float) -> None:
        until = self._now + seconds
        while self._pending and self._pending[0][0] <= until:
            when, call_id, callback = heapq.heappop(self._pending)
            self._now = max(self._now, when)
            if call_id not in self._cancelled:
                callback()
        self._now = until


class ButtonDriver:
    """Feeds one :class:`ButtonLogic` from pin callbacks (any thread) and a clock."""

    def __init__(self, logic: ButtonLogic, clock: Clock, deliver: Callable[[Action], None]) -> None:
        self.logic = logic
        self.clock = clock
        self.deliver = deliver
        self._lock = threading.Lock()
        self._cancel: Callable[[], None] | None = None

    def edge(self, pressed: bool) -> None:
        with self._lock:
            actions = self.logic.edge(pressed, self.clock.now())
        for action in actions:
            self.deliver(action)
        self._run()

    def _run(self) -> None:
        with self._lock:
            actions = self.logic.update(self.clock.now())
            self._reschedule()
        for action in actions:
            self.deliver(action)

    def _reschedule(self) -> None:
        if self._cancel is not None:
            self._cancel()
            self._cancel = None
        deadline = self.logic.deadline()
        if deadline is not None:
            self._cancel = self.clock.call_at(deadline, self._run)

    def close(self) -> None:
        with self._lock:
            if self._cancel is not None:
                self._cancel()
                self._cancel = None
