"""One Debian bookworm machine under systemd for the whole module: built (cached), booted on an
overlay, the checkout put in ~/cribpi for the guide's user. Every test here is marked
``systemd``; they run in file order against that one machine, as a maker's Pi would go."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from container import TIMES, Machine, check_host, rootfs  # noqa: E402  (tests/systemd is not a package)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent == here:
            item.add_marker(pytest.mark.systemd)


@pytest.fixture(scope="session")
def machine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Machine]:
    check_host()
    lower, built = rootfs()
    TIMES["root file system build (0 when cached)"] = built
    started = time.monotonic()
    box = Machine(lower, tmp_path_factory.mktemp("nspawn"))
    box.mount()
    try:
        box.put_source()
        TIMES["boot"] = box.boot()
        yield box
    finally:
        box.poweroff()
        box.unmount()
        TIMES["all the systemd tests"] = time.monotonic() - started


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TIMES:
        terminalreporter.write_line("systemd tests: " + ", ".join(f"{k} {v:.1f} s" for k, v in TIMES.items()))
