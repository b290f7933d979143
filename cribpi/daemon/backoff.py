"""When to try a failed part again: soon at first, then less and less often."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Backoff", "FIRST_RETRY_S", "LAST_RETRY_S"]

FIRST_RETRY_S = 0.5
LAST_RETRY_S = 30.0


class Backoff:
    """When to try again: ``FIRST_RETRY_S`` after a failure, doubling to ``LAST_RETRY_S``."""

    def __init__(self, clock: Callable[[], float], first: float = FIRST_RETRY_S, last: float = LAST_RETRY_S) -> None:
        self.clock, self.first, self.last = clock, first, last
        self.delay = first
        self.due = 0.0

    def failed(self) -> None:
        self.due = self.clock() + self.delay
        self.delay = min(self.delay * 2, self.last)

    def reset(self) -> None:
        self.delay, self.due = self.first, 0.0

    def ready(self) -> bool:
        return self.clock() >= self.due
