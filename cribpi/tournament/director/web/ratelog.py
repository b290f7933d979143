"""Log lines rate-limited by kind: a flood of one kind of error (a client's bad requests, "Too
many open files", one failing request after another) writes about one line a second with a
count, not a line (or a traceback) each. ``cribpi director serve`` puts one on every handler
(:mod:`cribpi.tournament.director.web.server`)."""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

__all__ = ["RateLimit", "limit_handlers"]

KEY_CHARS = 40  # a kind of line: its logger, level, exception and the first characters of its text


class _Kind:
    __slots__ = ("written", "left_out", "last")

    def __init__(self, now: float) -> None:
        self.written, self.left_out = now, 0
        self.last: logging.LogRecord | None = None  # the newest line left out


class RateLimit(logging.Filter):
    """At most one line of a kind every ``every`` seconds, and at most ``burst`` lines a second
    of all kinds together. A line written after some of its kind were left out says how many;
    :meth:`flush` (every ``every`` seconds from :meth:`start`) writes the newest left out of a
    kind that went quiet, with its count, so no count is lost for good. Only the first line of
    a kind keeps its traceback; the others say their exception in one line."""

    def __init__(self, every: float = 1.0, burst: int = 10, kinds: int = 1000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every, self.burst, self.kinds, self.clock = every, burst, kinds, clock
        self.seen: OrderedDict[Hashable, _Kind] = OrderedDict()
        self.second, self.written, self.burst_left_out = 0.0, 0, 0  # the burst's second and its lines
        self.lock = threading.Lock()

    @staticmethod
    def kind(record: logging.LogRecord) -> Hashable:
        exc = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        return record.name, record.levelno, exc, str(record.msg)[:KEY_CHARS]

    def filter(self, record: logging.LogRecord) -> bool:
        kind, again = self.kind(record), getattr(record, "ratelog_again", False)
        now = self.clock()
        with self.lock:
            entry = self.seen.get(kind)
            if entry is not None and now - entry.written < self.every or not self._in_burst(now):
                if entry is not None and not again:
                    entry.left_out += 1
                    entry.last = record
                return False
            first = entry is None
            if first:
                entry = self.seen[kind] = _Kind(now)
                while len(self.seen) > self.kinds:
                    self.seen.popitem(last=False)
            assert entry is not None
            self.seen.move_to_end(kind)
            count = entry.left_out - (1 if again else 0)
            entry.written, entry.left_out, entry.last = now, 0, None
            burst, self.burst_left_out = self.burst_left_out, 0
        if not first and record.exc_info and record.exc_info[1] is not None:  # the traceback once only
            record.msg, record.args = f"{record.getMessage()} ({record.exc_info[0].__name__}: {record.exc_info[1]})", None
            record.exc_info, record.exc_text = None, None
        said = "; ".join(([f"and {count} more like it since the last"] if count > 0 else [])
                         + ([f"{burst} lines of other kinds left out"] if burst else []))
        if said:
            record.msg, record.args = f"{record.getMessage()} ({said})", None
        return True

    def _in_burst(self, now: float) -> bool:
        if now - self.second >= 1.0:
            self.second, self.written = now, 0
        if self.written >= self.burst:
            self.burst_left_out += 1
            return False
        self.written += 1
        return True

    def flush(self) -> None:
        """Write, with its count, the newest line left out of each kind that wrote nothing for
        ``every`` seconds since."""
        now = self.clock()
        with self.lock:
            due = [e.last for e in self.seen.values() if e.last is not None and now - e.written >= self.every]
        for record in due:
            record.ratelog_again = True
            logging.getLogger(record.name).handle(record)

    def start(self) -> threading.Thread:
        """Flush every ``every`` seconds, on a daemon thread, for as long as the process runs."""
        def run() -> None:
            while True:
                time.sleep(self.every)
                self.flush()
        thread = threading.Thread(target=run, name="cribpi-ratelog", daemon=True)
        thread.start()
        return thread


def limit_handlers(limit: RateLimit, loggers: tuple[str, ...] = ("", "uvicorn", "uvicorn.error", "uvicorn.access")) -> None:
    """Put ``limit`` on every handler of ``loggers`` (the root and uvicorn's by default): every
    line written through them, from whichever logger, is rate-limited by kind."""
    for name in loggers:
        for handler in logging.getLogger(name).handlers:
            if limit not in handler.filters:
                handler.addFilter(limit)
