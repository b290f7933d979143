"""The pico tests: the firmware on the real MicroPython rp2 port in an emulated RP2040
(emulated.py). Each is marked ``pico`` (``pytest -m pico`` runs them alone); a missing part
(Node, rp2040js, littlefs-python, the UF2) skips them on a developer machine and fails them
in CI (CI=true)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from cribpi.hal.controller import LinkTiming
from tests.firmware import rig
from tests.firmware.pico.emulated import EmulatedPico

#: The host's patience with a controller that runs at a fraction of real time: an ACK takes
#: a few milliseconds on the Pico, but tens to hundreds of wall-clock ones here.
TIMING = LinkTiming(ack_timeout_s=3.0, retries=3, ping_s=1.0, backoff_s=0.1, backoff_max_s=0.5)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/firmware/pico/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.pico)


def boot(tmp: Path, layout_source: str | None = None, **constants: str) -> EmulatedPico:
    """A Pico with the current firmware (another layout, protocol constants if given)."""
    return EmulatedPico(tmp, rig.firmware_copy(tmp / "fw", layout_source, **constants))


@pytest.fixture
def pico(tmp_path: Path) -> Iterator[EmulatedPico]:
    board = boot(tmp_path)
    yield board
    board.close()
