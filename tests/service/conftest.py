"""A daemon a failed test left running is stopped when the test ends."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from daemon_proc import reap  # noqa: E402  (tests/service is not a package)
from service_tools import pty_port  # noqa: E402, F401  (a fixture: a pluggable serial port)


@pytest.fixture(autouse=True)
def _reap_daemons() -> Iterator[None]:
    yield
    reap()
