"""Stand-ins for the parts that would not open at start (:class:`cribpi.wiring.Missing`): the
table runs on the others, and each missing part is tried again with backoff until it opens,
then joins the table without a restart.

A stand-in does nothing and says so: it is never kinder than the real part. Its ``problem``
names the part (``OLED: missing (...), retrying``), which the displays that work and
``STATUS=`` show. A missing input delivers nothing; a missing pegboard or display refuses what
it is asked to show (it raises, so its guard keeps it as a fault, never as shown). The guard
(:mod:`cribpi.daemon.guard`) times the retries: an output is tried again by showing it what the
table shows now, so the part that opens gets the current picture at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PIL import Image

from cribpi.daemon.backoff import Backoff
from cribpi.daemon.inputs import ReopeningReader
from cribpi.exc import HardwareError
from cribpi.hal.base import Deliver
from cribpi.hal.serial_cards import SerialCardReader
from cribpi.views.board import BoardModel
from cribpi.wiring import Missing

__all__ = ["MissingInputs", "MissingOutput", "MissingPegboard", "MissingDisplay", "stand_ins", "NO_INPUT"]

log = logging.getLogger(__name__)

#: Said on the displays and in STATUS when no input at all could open.
NO_INPUT = "no input works: the table cannot be played until one opens"


def _problem(name: str, error: str) -> str:
    return f"{name}: missing ({error}), retrying"


class MissingInputs:
    """An input source that did not open: delivers nothing; ``check()`` (from the guard's
    timer) opens it again when due and starts it with the table's ``deliver``."""

    def __init__(self, missing: Missing, clock: Callable[[], float]) -> None:
        self.missing = missing
        self.name = missing.name
        self.error = missing.error
        self.clock = clock
        self.backoff = Backoff(clock)
        self.backoff.failed()
        self.part: Any = None
        self._deliver: Deliver | None = None
        self._closed = False

    @property
    def problem(self) -> str | None:
        if self.part is None:
            return _problem(self.name, self.error)
        return getattr(self.part, "problem", None)

    @property
    def present(self) -> bool:
        return self.part is not None

    def start(self, deliver: Deliver) -> None:
        self._deliver = deliver
        if self.part is not None:
            self.part.start(deliver)

    def check(self) -> bool:
        """Try to open the part when due; True when it just opened (the table is redrawn).
        Once open, a card reader is checked as any other (reopened if its port vanishes)."""
        if self.part is not None:
            return bool(self.part.check()) if isinstance(self.part, ReopeningReader) else False
        if self._closed or not self.backoff.ready():
            return False
        try:
            part = self.missing.reopen()
        except HardwareError as exc:
            self.backoff.failed()
            if str(exc) != self.error:
                self.error = str(exc)
                log.error("%s (retrying)", _problem(self.name, self.error))
            return False
        self.part = ReopeningReader(part, self.clock) if isinstance(part, SerialCardReader) else part
        self.backoff.reset()
        if self._deliver is not None:
            self.part.start(self._deliver)
        log.warning("%s opened: it joins the table", self.name)
        return True

    def close(self) -> None:
        self._closed = True
        if self.part is not None:
            self.part.close()


class MissingOutput:
    """A pegboard or display that did not open: ``show`` tries to open it (the guard calls it
    only when its backoff is due) and raises while it is still missing, so nothing is taken
    for shown. Its ``problem`` leaves the name to its guard (``OLED: missing (...)``)."""

    def __init__(self, missing: Missing) -> None:
        self.missing = missing
        self.name = missing.name
        self.error = missing.error
        self.part: Any = None

    @property
    def problem(self) -> str | None:
        if self.part is None:
            return f"missing ({self.error}), retrying"
        return getattr(self.part, "problem", None)

    @property
    def present(self) -> bool:
        return self.part is not None

    def _open(self) -> Any:
        if self.part is None:
            try:
                self.part = self.missing.reopen()
            except HardwareError as exc:
                if str(exc) != self.error:
                    self.error = str(exc)
                    log.error("%s (retrying)", _problem(self.name, self.error))
                raise HardwareError(f"missing ({self.error})") from exc
            log.warning("%s opened: it joins the table", self.name)
        return self.part

    def show(self, thing: Any) -> None:
        self._open().show(thing)

    def close(self) -> None:
        if self.part is not None:
            self.part.close()


class MissingPegboard(MissingOutput):
    def show(self, board: BoardModel) -> None:
        super().show(board)


class MissingDisplay(MissingOutput):
    def __init__(self, missing: Missing) -> None:
        super().__init__(missing)
        self.size = missing.size or (128, 64)
        self.level: int | None = None

    def show(self, image: Image.Image) -> None:
        fresh = self.part is None
        display = self._open()
        if fresh and self.level is not None:
            display.contrast(self.level)
        display.show(image)

    def contrast(self, level: int) -> None:
        self.level = level  # kept for the display once it opens
        if self.part is not None:
            self.part.contrast(level)


def stand_ins(clock: Callable[[], float]) -> Callable[[Missing], Any]:
    """What :func:`cribpi.wiring.open_parts` puts in place of a part that would not open."""

    def stand_in(missing: Missing) -> Any:
        log.error("%s (the table runs without it; `sudo cribpi doctor` checks it)",
                  _problem(missing.name, missing.error))
        if missing.kind == "inputs":
            return MissingInputs(missing, clock)
        if missing.kind == "pegboard":
            return MissingPegboard(missing)
        return MissingDisplay(missing)

    return stand_in
