"""Log lines rate-limited by kind: a flood of one kind of refusal or error writes about one line
a second, with how many more like it there were, not a line (or a traceback) each."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

__all__ = ["Quiet"]


class Quiet:
    """One ``logger`` line a ``kind`` each ``every`` seconds at most; the lines held back in
    between are counted and the next line of that kind says how many."""

    def __init__(self, logger: logging.Logger, every: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger, self.every, self.clock = logger, every, clock
        self.last: dict[str, float] = {}
        self.held: dict[str, int] = {}
        self.lock = threading.Lock()

    def log(self, level: int, kind: str, msg: str, *args: object, exc_info: BaseException | None = None) -> bool:
        """Log ``msg % args`` unless a line of ``kind`` went out less than ``every`` seconds ago
        (then it is only counted); whether it was written. ``exc_info``: its traceback goes
        with the first line of ``kind`` only."""
        now = self.clock()
        with self.lock:
            last = self.last.get(kind)
            if last is not None and now - last < self.every:
                self.held[kind] = self.held.get(kind, 0) + 1
                return False
            self.last[kind] = now
            held = self.held.pop(kind, 0)
        if held:
            msg += " (and %d more like it in the last %.0f s)"
            args = (*args, held, now - (last or now))
        self.logger.log(level, msg, *args, exc_info=exc_info if last is None else None)
        return True

    def warning(self, kind: str, msg: str, *args: object) -> bool:
        return self.log(logging.WARNING, kind, msg, *args)

    def error(self, kind: str, msg: str, *args: object, exc_info: BaseException | None = None) -> bool:
        return self.log(logging.ERROR, kind, msg, *args, exc_info=exc_info)
