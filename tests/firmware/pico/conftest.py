"""The pico tests: the firmware on the real MicroPython rp2 port in an emulated RP2040
(emulated.py). Each is marked ``pico`` (``pytest -m pico`` runs them alone); a missing part
(Node, rp2040js, littlefs-python, the UF2) skips them on a developer machine and fails them
in CI (CI=true).

One emulator (one Node process) serves every pico test of a session, as a Pico on a bench
serves a maker: each test switches it off and on again with the firmware it wants on the
flash (:meth:`EmulatedPico.power_cycle`: a new RP2040 at emulated time 0, its flash written
again from the UF2 and a new littlefs image, no key held, the cable in, a new host port, the
record of output and resets empty), so no test sees another's state
(test_pico_reset.py proves it). What that saves is starting Node and rp2040js for each test;
what the firmware does from power-up (MicroPython's boot, importing the firmware) is done
again every time, in emulated time, as on a real power-up.

Compiling the firmware's .py files took ~0.95 s of the emulated chip's ~1.05 s boot (2-3 s
of wall-clock time a test), so a test boots them compiled by mpy-cross on this side, once a
session (emulated.precompiled: the same compiler, the same bytecode for the same CPU). The
tests of what a maker's Pico does from its own .py files boot those (``as_flashed=True``):
the boot to HELLO, the speed target (the heap the collector goes through is the one compiling
on the chip leaves), and `cribpi flash` onto a fresh Pico (test_pico_flash.py).

The pico modules are in one xdist group: one worker runs them all, on one emulator."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

import pytest

from cribpi.hal.controller import LinkTiming
from tests.firmware import rig
from tests.firmware.pico.emulated import EmulatedPico, precompiled

#: The host's patience with a controller that runs at a fraction of real time: an ACK takes
#: a few milliseconds on the Pico, but tens to hundreds of wall-clock ones here.
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
        if self.board is not None and self.board.alive():
            self.board.power_cycle(firmware)
        else:
            if self.board is not None:
                self.board.close()
            self.board = EmulatedPico(self.folder, firmware)
        return self.board

    def off(self) -> None:
        """Switched off between tests: the emulator stops running the chip until the next boot."""
        if self.board is not None and self.board.alive():
            self.board.request("off")

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
