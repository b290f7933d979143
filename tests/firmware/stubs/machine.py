"""Stand-in for the rp2 port's ``machine`` (CPython and the MicroPython unix port): pins whose
key presses a test sets, and a watchdog that counts its feeds.

An input pin reads high only with its pull-up on (``Pin(n, Pin.IN, Pin.PULL_UP)``), as on the
board, which has no resistors of its own: without it (no pull, or a pull-down) it reads low, as an
undriven pin of the emulated RP2040 does. A pressed key is a (row pin, column pin) pair: :func:`press` sets them, or, across processes,
the file named by ``$CRIBPI_FW_KEYS`` (one "row col" pair a line), read at the start of each
matrix scan (when a row pin is driven low).
"""

import os

PRESSED = set()
_driven_low = []


def press(pairs):
    PRESSED.clear()
    PRESSED.update(pairs)


def _reload():
    name = os.getenv("CRIBPI_FW_KEYS")
    if not name:
        return
    try:
        with open(name) as fh:
            text = fh.read()
    except OSError:
        text = ""
    press(tuple(int(n) for n in line.split()) for line in text.split("\n") if line.strip())


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1  # the rp2 port's values
    PULL_DOWN = 2

    def __init__(self, number, mode=IN, pull=None, value=None):
        self.number = number
        self.mode = mode
        self.pull = pull
        self.level = 1 if value is None else value

    def value(self, level=None):
        if level is None:
            if self.mode == Pin.IN:
                if self.pull != Pin.PULL_UP:
                    return 0  # nothing pulls it up: it reads low, pressed or not
                return 0 if any((row, self.number) in PRESSED for row in _driven_low) else 1
            return self.level
        self.level = level
        if self.mode != Pin.IN:
            if level:
                if self.number in _driven_low:
                    _driven_low.remove(self.number)
            else:
                if not _driven_low:
                    _reload()
                _driven_low.append(self.number)


class UART:
    """A card reader's UART: the bytes appended to the file named by ``$CRIBPI_FW_CARDS``."""

    def __init__(self, id, baudrate=9600, tx=None, rx=None):
        self.id = id
        self.baudrate = baudrate
        self.offset = 0

    def _pending(self):
        name = os.getenv("CRIBPI_FW_CARDS")
        if not name:
            return b""
        try:
            with open(name, "rb") as fh:
                data = fh.read()
        except OSError:
            return b""
        return data[self.offset:]

    def any(self):
        return len(self._pending())

    def read(self):
        data = self._pending()
        self.offset += len(data)
        return data


class WDT:
    feeds = 0

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout

    def feed(self):
        WDT.feeds += 1


def reset():
    """The Pico starts again from boot: here the program ends (the test sees its exit)."""
    raise SystemExit("machine.reset()")
