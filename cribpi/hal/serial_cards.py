"""A serial card reader: one card a line (``5H``, ``10d``, ``Q♠``) -> ``CARD`` actions.

Opened by pyserial URL, so ``loop://`` and ``socket://`` test it without a device. A reader
thread does the blocking reads and hands cards to ``deliver`` (an
:class:`~cribpi.hal.actions.ActionQueue` in the app). Bytes are buffered until a whole line
has arrived (a read can time out mid-line). A line that is not a card becomes a ``REJECTED``
action naming it, which the table shows without changing anything (a line over
:data:`MAX_LINE` bytes is refused by its length, unread); when the device goes away the thread
stops and keeps the error in ``error``. Nothing else stops it: an error no line should cause
is logged once (then counted in ``unexpected``) and reading goes on.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from cribpi.exc import CardError, HardwareError
from cribpi.hal.actions import Action
from cribpi.hal.base import Deliver

__all__ = ["SerialCardReader", "MAX_LINE"]

MAX_LINE = 64  # a longer "line" is noise on the wire, not a card

log = logging.getLogger(__name__)


class SerialCardReader:
    def __init__(self, url: str, *, baudrate: int = 9600, port: Any = None) -> None:
        self.url = url
        self.port = port if port is not None else _open(url, baudrate)
        self.error: OSError | None = None
        self.unexpected = 0  # errors no line should have caused (logged once)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, deliver: Deliver) -> None:
        self._thread = threading.Thread(
            target=self._read, args=(deliver,), name=f"cards {self.url}", daemon=True
        )
        self._thread.start()

    def _read(self, deliver: Deliver) -> None:
        buffer = b""
        discarding = False  # the rest of an over-long line is noise too, not a card
        while not self._stop.is_set():
            try:
                buffer += self.port.readline()
            except OSError as exc:  # SerialException is an OSError too (unplugged)
                self.error = exc
                log.error("card reader %s: %s", self.url, exc)
                return
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if not discarding:
                    self._safely(line, deliver)
                discarding = False
            if len(buffer) > MAX_LINE:
                if not discarding:
                    self._safely(buffer, deliver)
                buffer, discarding = b"", True

    def _safely(self, line: bytes, deliver: Deliver) -> None:
        try:
            self._line(line, deliver)
        except Exception:  # no line may stop the reader: the first such error is logged whole
            self.unexpected += 1
            if self.unexpected == 1:
                log.exception("card reader %s: a line could not be handled (reading goes on)", self.url)

    def _line(self, line: bytes, deliver: Deliver) -> None:
        if len(line) > MAX_LINE:
            log.warning("card reader %s: skipped a line of %d bytes", self.url, len(line))
            deliver(Action.rejected(f"card reader sent a line of {len(line)} bytes: a card is a few characters (5H, 10d, Q♠)"))
            return
        text = line.decode("utf-8", "replace").strip()
        if not text or self._stop.is_set():
            return
        try:
            action = Action.of_card(text)
        except CardError as exc:
            log.warning("card reader %s: skipped %r: %s", self.url, text, exc)
            action = Action.rejected(f"card reader sent {exc}")
        deliver(action)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self.port.close()


def _open(url: str, baudrate: int) -> Any:
    import serial

    try:
        # the timeout lets the thread notice close() between lines
        return serial.serial_for_url(url, baudrate=baudrate, timeout=0.1)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise HardwareError(f"card reader {url}: {exc}") from exc
