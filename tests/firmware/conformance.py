"""The examples of docs/protocol.md, read from its ``conversation`` blocks, and the transports
that run them against the firmware: each a fresh controller just powered up, driven as a client
would drive it (bytes in, lines out) plus the board's own inputs (keys, a card reader) and its
LEDs read back.

A transport has ``send(data)``, ``line(timeout)`` (the next line the controller sent, its
``\\n`` included, or None after ``timeout`` seconds of the transport's own time),
``key(name, down)`` (then 150 ms pass), ``card(data)``, ``wait(ms)``, ``pixel(track, hole)``
((r, g, b) as the LEDs show it) and ``close()``. ``TRANSPORTS`` maps a name to a function that
starts one in a temporary folder. The emulated RP2040's transport (in emulated time) is in
tests/firmware/pico/test_pico_conformance.py, so that it runs with the other pico tests.

``python -m tests.firmware.conformance`` fills in the ``*??`` checksums of the document's
example lines (only the checksums: the replies are what the test holds the firmware to).
"""

from __future__ import annotations

import os
import re
import select
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tests.firmware import rig

DOC = rig.ROOT / "docs" / "protocol.md"
FENCE = "```conversation"


@dataclass(frozen=True)
class Step:
    """One line of an example: ``kind`` is ``>`` (send), ``<`` (expect), ``!`` (an input of
    the board) or ``=`` (an LED); ``text`` the rest; ``line`` its line in the document."""

    kind: str
    text: str
    line: int


def examples(text: str | None = None) -> list[tuple[int, list[Step]]]:
    """Every ``conversation`` block of the document: (its first line, its steps)."""
    lines = (DOC.read_text() if text is None else text).split("\n")
    blocks: list[tuple[int, list[Step]]] = []
    current: list[Step] | None = None
    for number, line in enumerate(lines, start=1):
        if current is None:
            if line.strip() == FENCE:
                current = []
                blocks.append((number, current))
            continue
        if line.startswith("```"):
            current = None
            continue
        if line[:1] not in (">", "<", "!", "=") or line[1:2] not in ("", " "):
            raise ValueError(f"docs/protocol.md:{number}: {line!r} is not an example line (> < ! =)")
        current.append(Step(line[0], line[2:], number))
    return blocks


def expand(text: str) -> bytes:
    r"""An example's bytes: ``\r``, ``\n``, ``\xNN`` one byte each, ``{c*N}`` N bytes ``c``;
    everything else as UTF-8."""
    def repeat(match: re.Match[str]) -> str:
        return match.group(1) * int(match.group(2))

    text = re.sub(r"\{(.)\*(\d+)\}", repeat, text)
    out = bytearray()
    i = 0
    while i < len(text):
        if text.startswith("\\r", i):
            out += b"\r"
            i += 2
        elif text.startswith("\\n", i):
            out += b"\n"
            i += 2
        elif text.startswith("\\x", i):
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)


def fill_checksums(text: str) -> str:
    """The document with each example line's last ``*??`` replaced by the CRC-8 of the bytes
    before it."""
    import protocol

    def fill(line: str) -> str:
        if line[:2] not in ("> ", "< ") or "*??" not in line:
            return line
        at = line.rindex("*??")
        return line[:at] + "*%02X" % protocol.crc8(expand(line[2:at])) + line[at + 3:]

    out, inside = [], False
    for line in text.split("\n"):
        if line.strip() == FENCE:
            inside = True
        elif line.startswith("```"):
            inside = False
        out.append(fill(line) if inside else line)
    return "\n".join(out)


# --- transports ---------------------------------------------------------------------------


class Transport(Protocol):
    """What an example needs of a firmware runner (a fresh controller each)."""

    def send(self, data: bytes) -> None: ...
    def line(self, timeout: float) -> bytes | None: ...
    def key(self, name: str, down: bool) -> None: ...
    def card(self, data: bytes) -> None: ...
    def wait(self, ms: int) -> None: ...
    def pixel(self, track: int, hole: int) -> tuple[int, int, int]: ...
    def close(self) -> None: ...


class StubTransport:
    """The firmware's modules in this CPython process, glued as main.py glues them, with the
    stub ``machine`` for the key matrix and a clock that moves only when the example waits."""

    SCAN_MS = 5

    def __init__(self, folder: Path) -> None:
        import cards
        import keys
        import layout
        import link
        import machine

        self.layout, self.machine = layout, machine
        self.now = 0
        self.link = link.Controller(layout, self.now)
        self.lines = link.LineBuffer()
        self.debouncer = keys.Debouncer()
        self.matrix = keys.Matrix()
        self.reader = cards.CardLines()
        self.pressed: set[tuple[int, int]] = set()
        self.out: list[bytes] = []

    def _put(self, line: bytes | None) -> None:
        if line is not None:
            self.out.append(line)

    def send(self, data: bytes) -> None:
        for line in self.lines.feed(data):
            self._put(self.link.handle(line, self.now))

    def line(self, timeout: float) -> bytes | None:
        return self.out.pop(0) if self.out else None

    def wait(self, ms: int) -> None:
        """The clock moves on ``ms``, the matrix scanned every SCAN_MS as main.py does."""
        end = self.now + ms
        while self.now < end:
            self.now += self.SCAN_MS
            self.machine.press(self.pressed)
            for verb, key in self.debouncer.update(self.matrix.scan(), self.now):
                self._put(self.link.event(verb, key))

    def key(self, name: str, down: bool) -> None:
        pins = rig.key_pins(name)
        (self.pressed.add if down else self.pressed.discard)(pins)
        self.wait(150)

    def card(self, data: bytes) -> None:
        for word in self.reader.feed(data):
            self._put(self.link.event("CARD", word))

    def pixel(self, track: int, hole: int) -> tuple[int, int, int]:
        import draw

        strips = draw.new_strips(self.layout)
        step, animation, flashes = self.link.picture(self.now)
        draw.draw(self.link.board, self.layout, strips, step, animation, flashes)
        spot = self.layout.HOLES[track][hole - 1]
        return draw.rgb(strips[spot >> 12][spot & 0xFFF])

    def close(self) -> None:
        self.machine.press(())


class UnixTransport:
    """firmware/main.py in the MicroPython unix port behind a pty (tests/firmware/rig.py), a
    card reader on its UART; the frame read back from the stub state machines."""

    def __init__(self, folder: Path) -> None:
        import layout

        self.layout = layout
        self.pico = rig.Pico(folder, firmware=rig.firmware_copy(folder / "fw", settings={"CARD_UART": 0}))
        self.pressed: set[tuple[int, int]] = set()
        self.pico.wait_for(lambda: self.pico.words(), what="the first frame (the firmware's loop running)")
        self.fd = os.open(self.pico.port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.buffer = b""

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def line(self, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            self.buffer += os.read(self.fd, 4096)
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line + b"\n"

    def wait(self, ms: int) -> None:
        time.sleep(ms / 1000)

    def key(self, name: str, down: bool) -> None:
        pins = rig.key_pins(name)
        (self.pressed.add if down else self.pressed.discard)(pins)
        self.pico.press(*sorted(self.pressed))
        time.sleep(0.15)  # a busy machine's scan still sees it, debounced

    def card(self, data: bytes) -> None:
        self.pico.feed_card(data)
        time.sleep(0.15)  # the firmware reads its UART every 20 ms

    def pixel(self, track: int, hole: int) -> tuple[int, int, int]:
        spot = self.layout.HOLES[track][hole - 1]
        colours = self.pico.rgb(spot >> 12)
        return colours[spot & 0xFFF] if len(colours) > spot & 0xFFF else (-1, -1, -1)

    def close(self) -> None:
        os.close(self.fd)
        self.pico.close()


#: Name -> a function starting a fresh transport in a folder (a new firmware runner is one more).
TRANSPORTS: dict[str, Callable[[Path], Transport]] = {"cpython": StubTransport, "unix": UnixTransport}


def run(transport: Transport, steps: list[Step], *, settle: float = 0.25, timeout: float = 5.0) -> None:
    """One example against ``transport``; AssertionError naming the document's line that did
    not hold. A real firmware gets ``timeout`` seconds for each expected line and ``settle``
    seconds to draw before an LED is read (then up to ``timeout`` seconds to show the colour,
    or the colour all through ``for MS``); afterwards nothing more may come. Those seconds are
    counted in the transport's waits (its own time: emulated on an emulated Pico)."""
    for step in steps:
        where = f"docs/protocol.md:{step.line}: {step.kind} {step.text}"
        if step.kind == ">":
            transport.send(expand(step.text) + b"\n")
        elif step.kind == "<":
            got = transport.line(timeout)
            assert got == step.text.encode() + b"\n", f"{where}\n  the firmware sent {got!r}"
        elif step.kind == "!":
            action, _, rest = step.text.partition(" ")
            if action == "key":
                name, _, how = rest.partition(" ")
                assert how in ("down", "up"), where
                transport.key(name, how == "down")
            elif action == "card":
                transport.card(expand(rest))
            elif action == "wait":
                transport.wait(int(rest))
            else:
                raise AssertionError(f"{where}: unknown action {action!r}")
        elif step.kind == "=":
            track, hole, colour, *during = step.text.split()
            assert during == [] or (len(during) == 2 and during[0] == "for"), where
            wanted = tuple(int(colour[i:i + 2], 16) for i in (0, 2, 4))
            transport.wait(int(settle * 1000))
            if during:  # all through the next MS milliseconds
                for _ in range(int(during[1]) // 20):
                    got = transport.pixel(int(track), int(hole))
                    assert got == wanted, f"{where}\n  the LED showed {got}"
                    transport.wait(20)
                continue
            got = transport.pixel(int(track), int(hole))
            waited = 0
            while got != wanted and waited < timeout * 1000:
                transport.wait(20)
                waited += 20
                got = transport.pixel(int(track), int(hole))
            assert got == wanted, f"{where}\n  the LED shows {got}"
    extra = transport.line(0.1)
    assert extra is None, f"docs/protocol.md:{steps[-1].line}: after the example the firmware sent {extra!r}"


if __name__ == "__main__":
    import sys

    sys.path[:0] = [str(rig.FIRMWARE), str(rig.STUBS)]  # protocol.crc8 is viper: the stub micropython
    DOC.write_text(fill_checksums(DOC.read_text()))
