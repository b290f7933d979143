"""SIGTERM and SIGINT as a request to stop, seen by the loop (never the abrupt default)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["stop_on_signals"]


@contextmanager
def stop_on_signals() -> Iterator[tuple[list[int], int]]:
    """SIGTERM/SIGINT ask the loop to stop: the handler records the signal and wakes the
    loop through a pipe. Installed before anything else starts, so an early signal is never
    the default (abrupt) one."""
    received: list[int] = []
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)

    def handler(signum: int, _frame: object) -> None:
        received.append(signum)
        try:
            os.write(write_fd, b"s")
        except BlockingIOError:
            pass

    previous = {s: signal.signal(s, handler) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield received, read_fd
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)
        os.close(read_fd)
        os.close(write_fd)
