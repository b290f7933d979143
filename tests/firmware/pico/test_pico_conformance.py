"""docs/protocol.md's examples run byte for byte against the firmware on the real MicroPython rp2
port in an emulated RP2040, as tests/firmware/test_protocol_conformance.py runs them under
CPython and the unix port: each ``conversation`` block on a Pico just powered up (the
session's emulator switched off and on again: conftest.py), through :class:`PicoTransport`. Every example of the document runs here; none is
left out. Waits, and the time a line or a colour is given to come, are emulated time, so the
host's load does not enter into them."""

from __future__ import annotations

import base64
import pytest

from tests.firmware import conformance, rig
from tests.firmware.pico.emulated import EmulatedPico

EXAMPLES = conformance.examples()
#: The card reader's line: 9600 baud, 8N1 (the emulator's uart op), in ms a byte.
UART_BYTE_MS = 10_000 / 9600


class PicoTransport:
    """The firmware on an emulated Pico, a card reader on its UART0 (settings.CARD_UART = 0): the
    bytes go straight into its USB CDC input and are read from what it wrote there (no host
    port), keys are pressed on the matrix's pins, and an LED is read from the frame decoded
    on its strip's data pin through the layout's HOLES."""

    def __init__(self, pico: EmulatedPico) -> None:
        import layout

        self.layout = layout
        self.pico = pico
        self.pico.unplug_host()  # nobody reads a host port here: the bytes are taken as they come
        self.pressed: set[tuple[int, int]] = set()
        self.read = 0  # bytes of pico.serial_out taken as lines
        # Powered up: enumerated and its loop running (its first frame drawn: the host-lost pattern).
        self.pico.wait_for(lambda: self.pico.state()["usb"] and self.pico.frame(0)["frames"],
                           what="the first frame (the firmware's loop running)")

    def send(self, data: bytes) -> None:
        self.pico.request("serial", data=base64.b64encode(data).decode())

    def _pending(self) -> bytes:
        return bytes(self.pico.serial_out[self.read:])

    def line(self, timeout: float) -> bytes | None:
        """The next line, waiting up to ``timeout`` seconds of emulated time."""
        until = self.pico.now_ms() + timeout * 1000
        self.pico.wait_for(lambda: b"\n" in self._pending() or self.pico.now_ms() >= until,
                           what="a line or the end of its time", poll=0.01)
        pending = self._pending()
        if b"\n" not in pending:
            return None
        line = pending[:pending.index(b"\n") + 1]
        self.read += len(line)
        return line

    def wait(self, ms: int) -> None:
        self.pico.sleep(ms)

    def key(self, name: str, down: bool) -> None:
        (self.pressed.add if down else self.pressed.discard)(rig.key_pins(name))
        self.pico.press(*sorted(self.pressed))  # held until the next press op
        self.pico.sleep(150)

    def card(self, data: bytes) -> None:
        self.pico.feed_card(data)
        self.pico.sleep(len(data) * UART_BYTE_MS + 150)  # all of it on the line, and read

    def pixel(self, track: int, hole: int) -> tuple[int, int, int]:
        spot = self.layout.HOLES[track][hole - 1]
        colours = self.pico.rgb(spot >> 12)
        return colours[spot & 0xFFF] if len(colours) > spot & 0xFFF else (-1, -1, -1)



@pytest.fixture
def transport(boot):
    return PicoTransport(boot(settings={"CARD_UART": 0}))


@pytest.mark.parametrize("first, steps", EXAMPLES, ids=[f"line{first}" for first, _ in EXAMPLES])
def test_the_documents_example_holds_on_the_emulated_pico(transport, first, steps):
    conformance.run(transport, steps)
