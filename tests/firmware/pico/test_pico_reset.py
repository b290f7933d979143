"""The pico tests share one emulator, power-cycled between tests (conftest.py): this proves the power cycle leaves nothing of the test before. A test leaves a Pico with everything a test
can change (the handshake made, the line numbers advanced, pegs lit, the brightness and a
colour set, a key held down, half a line received, the emulated clock run on); the power cycle is then looked at as
a host sees a Pico, and has to look exactly like a Pico never used, in an emulator of its own.
The same look without the power cycle has to differ in every one of those, so the test fails
if the reset is skipped or leaves any of them.

The firmware's own ``Z`` is not that reset: it sets the board's values back (pegs, colours,
brightness, flash, marks) but not the handshake, the line numbers or the keys, and a test
could leave the firmware in any state (at the REPL, hung).

The power cycle used to find the firmware at the REPL now and then: the host-port bridge read
from a closed port's fd number that a firmware file had just taken (conftest.py). The last
test holds the bridge to reading only the port of now."""

from __future__ import annotations

import os
from typing import Any

from cribpi.hal.protocol import PROTOCOL, frame
from tests.firmware import rig
from tests.firmware.pico.emulated import EmulatedPico, precompiled
from tests.firmware.pico.test_pico_conformance import PicoTransport

#: The number of the last line ``dirty`` sends: a look then sends a line with it again.
LAST = 0x26
#: A look starts later than this (emulated ms since power-up) only on a Pico left running.
FRESH_MS = 1000
#: Half a line: its number and verb, no checksum, no newline (the rest never comes).
HALF_LINE = b"27 T 1 9"


def exchange(transport: PicoTransport, seq: int, body: str) -> bytes | None:
    transport.send(frame(seq, body))
    return transport.line(5)


def dirty(transport: PicoTransport) -> None:
    """All a test could leave behind."""
    for seq, body in enumerate([f"HELLO {PROTOCOL}", "B 100 0", "C 0 00FF00", "T 0 30 20 5", "T 1 60 50 0",
                                "G 1 3", "PING"], start=LAST - 6):
        reply = exchange(transport, seq, body)
        assert reply is not None and (b" ACK" in reply or b" HELLO " in reply), (body, reply)
    transport.key("5", True)  # down, and held
    assert transport.line(2) is not None  # its KD
    transport.send(HALF_LINE)
    transport.pico.sleep_until(FRESH_MS + 100)


def look(transport: PicoTransport) -> dict[str, Any]:
    """What a host sees of the Pico, on each thing ``dirty`` changes."""
    pico = transport.pico
    seen: dict[str, Any] = {"clock": pico.now_ms() < FRESH_MS, "resets": pico.resets()}
    # A newline alone: an empty line refused, or the end of a half line left in the buffer.
    transport.send(b"\n")
    seen["a newline"] = transport.line(5)
    # Before a handshake, a line with the number of the last line: refused as not greeted,
    # not answered as a repeat of the line before.
    seen["line before the handshake"] = exchange(transport, LAST, "PING")
    seen["handshake"] = exchange(transport, 0x40, f"HELLO {PROTOCOL}")
    seen["peg"] = exchange(transport, 0x41, "T 0 5 0 0")
    transport.wait(400)
    seen["frame"] = [pico.rgb(strip) for strip in range(len(pico.led_pins))]
    tapped = pico.press(rig.key_pins("9"), ms=60)  # every other key up
    pico.sleep_until(tapped["until_us"] / 1000 + 300)
    events = []
    while (line := transport.line(0.1)) is not None:
        events.append(line)
    seen["key events"] = events
    return seen


def test_a_power_cycle_leaves_nothing_of_the_test_before(boot, tmp_path):
    firmware = precompiled(rig.firmware_copy(tmp_path / "fw"), tmp_path / "mpy")
    cold_folder = tmp_path / "cold"
    cold_folder.mkdir()
    cold = EmulatedPico(cold_folder, firmware)  # a Pico never used, in a Node of its own
    try:
        never_used = look(PicoTransport(cold))
    finally:
        cold.close()
    assert never_used["line before the handshake"].split()[1:3] == [b"ERR", b"VERSION"]
    assert [line.split(b"*")[0].split()[1:] for line in never_used["key events"]] == [[b"KD", b"9"], [b"KU", b"9"]]

    used = PicoTransport(boot(firmware=firmware))
    dirty(used)
    used.pico.power_cycle(firmware)  # what the next test gets
    power_cycled = PicoTransport(used.pico)
    seen = look(power_cycled)
    assert [what for what, wanted in never_used.items() if seen[what] != wanted] == []

    dirty(power_cycled)
    left_running = look(power_cycled)  # the reset skipped: every one of them shows it
    for what in ("clock", "a newline", "line before the handshake", "frame", "key events"):
        assert left_running[what] != never_used[what], what


def test_the_bridge_reads_nothing_from_a_closed_ports_fd_number_a_file_took(pico, tmp_path):
    stale = pico._host  # the bridge waits on this number
    assert stale is not None
    pico.unplug_host()  # as power_cycle does first
    source = tmp_path / "board.py"  # what littlefs_image opens next
    source.write_bytes(b"# the first line\n" * 1000)
    opened = os.open(source, os.O_RDONLY)  # the lowest free number: most often the port's
    if opened != stale:
        os.dup2(opened, stale)  # the closed port's number is the file's now, in any case
        os.close(opened)
    try:
        assert pico._take_host(stale) == b""
        assert os.lseek(stale, 0, os.SEEK_CUR) == 0  # not a byte of the file taken
    finally:
        os.close(stale)
    assert source.read_bytes() == b"# the first line\n" * 1000
    pico.plug_host()  # the port of now is read as before
    with open(pico.port, "wb", buffering=0) as port:
        port.write(b"\n")
    assert pico.wait_for(lambda: pico.serial_in_times, what="the host's byte at the firmware")[-1][1] == b"\n"
