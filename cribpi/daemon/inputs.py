"""Inputs that come back: a serial card reader whose port vanishes (its USB cable pulled) is
opened again, with backoff, until the port is there again; nothing else at the table stops."""

from __future__ import annotations

import logging
from collections.abc import Callable

from cribpi.daemon.backoff import Backoff
from cribpi.exc import HardwareError
from cribpi.hal.base import Deliver
from cribpi.hal.serial_cards import SerialCardReader

__all__ = ["ReopeningReader"]

log = logging.getLogger(__name__)


class ReopeningReader:
    """A :class:`SerialCardReader` that is replaced by a fresh one on the same port URL once
    its thread has stopped on an error (see ``SerialCardReader.error``)."""

    def __init__(self, reader: SerialCardReader, clock: Callable[[], float],
                 reopen: Callable[[str], SerialCardReader] = SerialCardReader) -> None:
        self.reader = reader
        self.reopen = reopen
        self.name = f"card reader {reader.url}"
        self.backoff = Backoff(clock)
        self.fault: str | None = None
        self._deliver: Deliver | None = None

    @property
    def problem(self) -> str | None:
        return self.fault

    def start(self, deliver: Deliver) -> None:
        self._deliver = deliver
        self.reader.start(deliver)

    def check(self) -> bool:
        """Notice a vanished port, and try to open it again when due; True once it is back."""
        if self.fault is None and self.reader.error is not None:
            self.fault = f"{self.name}: gone ({self.reader.error})"
            log.error("%s (retrying)", self.fault)
            self.backoff.failed()
        if self.fault is None or not self.backoff.ready():
            return False
        try:
            fresh = self.reopen(self.reader.url)
        except (HardwareError, OSError):
            self.backoff.failed()
            return False
        self._close_quietly()
        self.reader, self.fault = fresh, None
        self.backoff.reset()
        if self._deliver is not None:
            fresh.start(self._deliver)
        log.warning("%s is back", self.name)
        return True

    def _close_quietly(self) -> None:
        try:
            self.reader.close()
        except OSError as exc:  # the old port is gone: closing it may fail too
            log.debug("%s: closing the old port: %s", self.name, exc)

    def close(self) -> None:
        self.reader.close()
