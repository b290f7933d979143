"""One Debian bookworm machine under systemd for each module: built (cached), booted on an
overlay, the checkout put in ~/cribpi, powered off when the module's last test is done (so no
container stays up under the rest of a run, and each module's figures are its own). The
service's tests are marked ``systemd``, the arm64 ones ``arm64``; they run in file order
against their one machine, as a maker's Pi would go."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from container import TIMES, Machine, check_host, cribpi_wheel, prefetch, rootfs, wheelhouse  # noqa: E402  (tests/systemd is not a package)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        path = Path(str(item.fspath))
        if path.parent == here and path.name != "test_root_cache.py":
            item.add_marker(pytest.mark.arm64 if path.name == "test_arm64.py" else pytest.mark.systemd)
            # One container at a time (each boots as --machine=cribpi-test, and each takes both
            # cores): under pytest-xdist's --dist loadgroup these run on one worker, in order.
            item.add_marker(pytest.mark.xdist_group("machine"))


@pytest.fixture(scope="module")
def machine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Machine]:
    check_host()
    prefetch("arm64")  # built beside this one, for test_arm64.py
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


@pytest.fixture(scope="module")
def arm64(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Machine]:
    """The arm64 root (a Pi's CPU, through qemu-user-static), booted; cribpi's wheel (built on
    the host) in /root/wheels, the game records in /root/records."""
    check_host("arm64")
    prefetch("amd64")  # built beside this one, for test_service_under_systemd.py
    lower, built = rootfs("arm64")
    TIMES["arm64 root file system build (0 when cached)"] = built
    started = time.monotonic()
    box = Machine(lower, tmp_path_factory.mktemp("nspawn-arm64"), arch="arm64")
    box.mount()
    try:
        box.put_source(checkout=False)  # the host name; cribpi comes as its wheel
        cribpi_wheel(box.merged / "root" / "wheels", wheelhouse("arm64"))
        records = box.merged / "root" / "records"
        records.mkdir()
        for record in sorted((Path(__file__).parents[1] / "game" / "records").glob("*.crib")):
            shutil.copy2(record, records / record.name)
        TIMES["arm64 boot"] = box.boot(timeout=300)
        yield box
    finally:
        halting = time.monotonic()
        box.poweroff()
        TIMES["arm64 poweroff"] = time.monotonic() - halting
        box.unmount()
        TIMES["all the arm64 tests"] = time.monotonic() - started


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TIMES:
        terminalreporter.write_line("systemd tests: " + ", ".join(f"{k} {v:.1f} s" for k, v in TIMES.items()))
