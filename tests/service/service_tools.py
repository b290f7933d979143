"""Helpers for the service tests: a part that is missing skips here, but fails under CI=true; a
clock the test moves for the table's loop, and a serial port that can be plugged and pulled
(shared with tests/daemon)."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cribpi.daemon.table import CHECK_S


def require(tool: str) -> str:
    """The path of ``tool``; skip when it is missing, fail when CI=true (CI must have it)."""
    path = shutil.which(tool)
    if path is None:
        message = f"{tool} is not installed (.ci/bootstrap installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


class Clock:
    """The table loop's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def waiter(app: Any, clock: Clock) -> Callable[[float], None]:
    """``wait(seconds)``: let ``seconds`` pass on the loop's clock, its timers running as they would."""

    def wait(seconds: float) -> None:
        end = clock.now + seconds
        while clock.now < end:
            clock.now = min(end, clock.now + CHECK_S)
            app.run_timers()

    return wait


def pumped(app: Any, timeout: float = 30.0) -> bool:  # only bounds a failure: both cores may be busy
    """Wait for actions from the reader thread and hand them to the table."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.pump():
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def pty_port(tmp_path: Path) -> Iterator[tuple[Path, Callable[[], int], Callable[[int], None]]]:
    """A serial port at a stable path (as udev's /dev/cribpi-controller is) that can be plugged
    and pulled: (link, plug, pull); ``plug()`` returns the far end to write to, ``pull`` takes it
    (the conftests of tests/service and tests/daemon offer it)."""
    link = tmp_path / "cards"
    ends: list[int] = []

    def plug() -> int:
        master, slave = os.openpty()
        ends.extend((master, slave))
        link.unlink(missing_ok=True)
        link.symlink_to(os.ttyname(slave))
        return master

    def pull(master: int) -> None:
        for end in (master, master + 1):
            if end in ends:
                ends.remove(end)
                os.close(end)
        link.unlink()

    try:
        yield link, plug, pull
    finally:
        for end in ends:
            os.close(end)
