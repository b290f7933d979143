"""`cribpi flash` as a maker runs it, onto the emulated Pico: mpremote over the USB serial
copies the firmware and a generated layout onto the stock MicroPython's littlefs and resets the
board (machine.reset(): the watchdog's forced reset), and the firmware answers HELLO with the
layout's tracks."""

from __future__ import annotations

import importlib.util

import pytest

from cribpi.exc import HardwareError
from cribpi.hal.controller import open_controller
from cribpi.hal.controller.flash import flash
from cribpi.hal.layout import load_layout
from tests.firmware import rig
from tests.firmware.pico.conftest import TIMING
from tests.firmware.pico.emulated import EmulatedPico

THREE = load_layout(rig.ROOT / "hardware" / "layouts" / "three-track-serpentine.toml")


def fresh_pico(tmp_path) -> EmulatedPico:
    """A Pico with the stock MicroPython and nothing on its filesystem, at its REPL."""
    rig.require(importlib.util.find_spec("mpremote") is not None,
                "mpremote is not installed (the test extra has it: pip install -e '.[test]')")
    empty = tmp_path / "empty"
    empty.mkdir()
    pico = EmulatedPico(tmp_path, empty)
    pico.sleep(500)
    pico.write(b"\r\n")
    pico.wait_for(lambda: b">>> " in pico.serial_out, what="the REPL")
    return pico


def test_cribpi_flash_puts_the_firmware_on_a_fresh_pico(tmp_path):
    import protocol

    pico = fresh_pico(tmp_path)
    try:
        assert flash(pico.port, THREE, rig.FIRMWARE) == protocol.FIRMWARE
        assert [reset["reason"] for reset in pico.resets()] == ["forced"]  # mpremote's reset
        part = open_controller(pico.port, timing=TIMING)
        try:
            pico.wait_for(lambda: part.link.hello is not None, what="the handshake")
            assert part.link.hello.tracks == 3 and part.problem is None
        finally:
            part.close()
    finally:
        pico.close()


@pytest.mark.xfail(strict=True, raises=HardwareError, reason="the firmware turns Ctrl-C off (micropython.kbd_intr(-1)), so mpremote "
                   "cannot stop it to enter the raw REPL: `cribpi flash` fails on a Pico already running it "
                   "('could not enter raw repl'); a maker could update the firmware only by wiping the flash")
def test_cribpi_flash_updates_a_pico_already_running_the_firmware(tmp_path):
    import protocol

    pico = fresh_pico(tmp_path)
    try:
        flash(pico.port, THREE, rig.FIRMWARE)
        two = load_layout(rig.ROOT / "hardware" / "layouts" / "two-track-serpentine.toml")
        assert flash(pico.port, two, rig.FIRMWARE) == protocol.FIRMWARE
    finally:
        pico.close()
