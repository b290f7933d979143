"""`cribpi flash` as a maker runs it, onto the emulated Pico: mpremote over the USB serial
copies the firmware and a generated layout onto the stock MicroPython's littlefs and resets the
board (machine.reset(): the watchdog's forced reset), and the firmware answers HELLO with the
layout's tracks."""

from __future__ import annotations

import importlib.util

import pytest

from cribpi.hal.controller import open_controller
from cribpi.hal.controller.flash import flash, layout_module
from cribpi.hal.layout import load_layout
from tests.firmware import rig
from tests.firmware.pico.conftest import TIMING
from tests.firmware.pico.emulated import EmulatedPico

THREE = load_layout(rig.ROOT / "hardware" / "layouts" / "three-track-serpentine.toml")


@pytest.fixture(autouse=True)
def patient_flasher(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cribpi flash`'s waits, for a Pico that runs at a fraction of real time."""
    from cribpi.hal.controller import flash as flashing
    from tests.firmware.pico.emulated import PATIENCE_S

    monkeypatch.setattr(flashing, "TIMING", TIMING)
    for name in ("ANSWER_S", "BACK_S", "HELLO_S"):
        monkeypatch.setattr(flashing, name, PATIENCE_S)


def fresh_pico(boot, tmp_path) -> EmulatedPico:
    """A Pico with the stock MicroPython and nothing on its filesystem, at its REPL (the
    session's emulator powered up with the UF2 and an empty littlefs written again on its
    flash: nothing of what an earlier test flashed is left)."""
    rig.require(importlib.util.find_spec("mpremote") is not None,
                "mpremote is not installed (the test extra has it: pip install -e '.[test]')")
    empty = tmp_path / "empty"
    empty.mkdir()
    pico = boot(firmware=empty)
    pico.sleep(500)
    pico.write(b"\r\n")
    pico.wait_for(lambda: b">>> " in pico.serial_out, what="the REPL")
    return pico


def test_cribpi_flash_puts_the_firmware_on_a_fresh_pico(boot, tmp_path):
    import protocol

    pico = fresh_pico(boot, tmp_path)
    assert flash(pico.port, THREE, rig.FIRMWARE) == protocol.FIRMWARE
    assert [reset["reason"] for reset in pico.resets()] == ["forced"]  # mpremote's reset
    part = open_controller(pico.port, timing=TIMING)
    try:
        pico.wait_for(lambda: part.link.hello is not None, what="the handshake")
        assert part.link.hello.tracks == 3 and part.problem is None
    finally:
        part.close()


def test_cribpi_flash_updates_a_pico_already_running_the_firmware(boot, tmp_path):
    """The firmware takes Ctrl-C as data and runs a watchdog, so mpremote alone cannot stop it:
    `cribpi flash` sends it REPL first, the Pico resets to its REPL (the flag file the firmware
    wrote keeps main.py from starting, once), mpremote copies the files, and its reset boots
    the new firmware. The Pico starts with what `cribpi flash` put on it for three tracks (the
    .py files and the generated layout.py: the test above flashes a fresh one)."""
    import protocol

    pico = boot(firmware=rig.firmware_copy(tmp_path / "flashed", layout_module(THREE)))
    part = open_controller(pico.port, timing=TIMING)
    try:
        pico.wait_for(lambda: part.link.hello is not None, what="the handshake")
        assert part.link.hello.tracks == 3  # running the firmware, three tracks
    finally:
        part.close()
    two = load_layout(rig.ROOT / "hardware" / "layouts" / "two-track-serpentine.toml")
    assert flash(pico.port, two, rig.FIRMWARE) == protocol.FIRMWARE
    # the firmware's own reset after REPL, mpremote's reset
    assert [reset["reason"] for reset in pico.resets()] == ["forced"] * 2
    assert b"cribpi: at the REPL for the flasher" in pico.serial_out
    part = open_controller(pico.port, timing=TIMING)
    try:
        pico.wait_for(lambda: part.link.hello is not None, what="the handshake")
        assert part.link.hello.tracks == 2 and part.problem is None  # the new layout, the flag gone
    finally:
        part.close()
