"""Faults never stop the table: each part is guarded, and a failing one is retried until it
comes back.

An output part (the pegboard, a display) that raises is marked down with a *problem*: it is
logged once (not on every retry), the displays that still work say so (see
:class:`~cribpi.app.listeners.PartsView`), and it is tried again with backoff (half a second,
doubling to half a minute). Once it takes a board or image again, the table is redrawn on it.
A part may also report its own trouble in a ``problem`` attribute (``None`` when well, the
convention of the hal backends, e.g. the controller's link): it is shown the same way, and the
table redrawn when it clears.

A serial card reader that vanishes is reopened (:mod:`cribpi.daemon.inputs`), and a button
stuck down is reported once and ignored until released (:mod:`cribpi.daemon.stuck`), whether its
buttons were there at start or joined later (missing at start, :mod:`cribpi.daemon.missing`). :class:`Guard`
holds every guarded part and is checked from the loop's timer (:meth:`cribpi.app.TableApp.every`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from PIL import Image

from cribpi.daemon.backoff import Backoff
from cribpi.daemon.inputs import ReopeningReader
from cribpi.daemon.missing import NO_INPUT, MissingInputs
from cribpi.daemon.stuck import FilteredInputs, StuckButtons, gpio_buttons
from cribpi.hal import Action, Display, InputSource, Parts, Pegboard
from cribpi.hal.base import CombinedInputs
from cribpi.hal.buttons import PinBinding
from cribpi.hal.serial_cards import SerialCardReader
from cribpi.views.board import BoardModel

__all__ = ["Guard", "GuardedPart", "GuardedPegboard", "GuardedDisplay"]

log = logging.getLogger(__name__)


class Checked(Protocol):
    """What the guard asks of each guarded part on every check."""

    name: str

    @property
    def problem(self) -> str | None: ...

    def check(self) -> bool:
        """Retry if due; True when the part just came back (the table must be redrawn)."""


class GuardedPart:
    """One output part behind a guard: ``put(thing)`` shows it, or keeps it for the retry.
    ``label`` is how the displays' lasting mark says it while it is down (``LEDs``)."""

    label = "part"

    def __init__(self, name: str, part: Any, clock: Callable[[], float]) -> None:
        self.name = name
        self.part = part
        self.fault: str | None = None
        self.backoff = Backoff(clock)
        self.last: Any = None
        self._reported: str | None = None  # the part's own problem, as last logged

    @property
    def problem(self) -> str | None:
        own = getattr(self.part, "problem", None)  # the part's own words first: they say why
        return f"{self.name}: {own}" if own else self.fault

    def put(self, thing: Any) -> None:
        self.last = thing
        if self.fault is None:
            self._try()

    def _try(self) -> bool:
        try:
            if self.last is not None:
                self.part.show(self.last)
        except Exception as exc:  # noqa: BLE001 - any failure of a part is a fault, never a crash
            if self.fault is None:
                log.error("%s failed: %s (retrying)", self.name, exc)
            self.fault = f"{self.name}: {exc}"
            self.backoff.failed()
            return False
        if self.fault is not None:
            log.warning("%s is back", self.name)
        self.fault = None
        self.backoff.reset()
        return True

    def check(self) -> bool:
        own = getattr(self.part, "problem", None)
        if own != self._reported:  # the part's own report: logged when it opens and when it clears
            if own:
                log.error("%s: %s", self.name, own)
            else:
                log.warning("%s: %s cleared", self.name, self._reported)
            self._reported = own
        if self.fault is not None and self.backoff.ready():
            return self._try()
        return False

    def close(self) -> None:
        self.part.close()


class GuardedPegboard(GuardedPart):
    label = "LEDs"

    def show(self, board: BoardModel) -> None:
        self.put(board)


class GuardedDisplay(GuardedPart):
    def __init__(self, name: str, part: Display, clock: Callable[[], float], number: int | None = None) -> None:
        super().__init__(name, part, clock)
        self.size = part.size
        self.label = "OLED" if number is None else f"OLED {number}"

    def show(self, image: Image.Image) -> None:
        self.put(image)

    def contrast(self, level: int) -> None:
        try:
            self.part.contrast(level)
        except Exception as exc:  # noqa: BLE001 - a dim that fails is logged, not fatal
            log.error("%s: contrast %d failed: %s", self.name, level, exc)


class Guard:
    """Every guarded part of a table. ``parts`` is the table's :class:`Parts` with the outputs
    guarded; ``check()`` (from a timer) retries and reports whether to redraw."""

    def __init__(self, parts: Parts, clock: Callable[[], float],
                 buttons: tuple[Mapping[int, PinBinding], Any] | None = None) -> None:
        self.pegboard = GuardedPegboard(_name(parts, "pegboard"), parts.pegboard, clock)
        several = len(parts.displays) > 1
        self.displays = tuple(GuardedDisplay(_name(parts, "display", i) + (f" {i + 1}" if several else ""), d, clock,
                                             i + 1 if several else None)
                              for i, d in enumerate(parts.displays))
        self.checked: list[Checked] = [self.pegboard, *self.displays]
        self.seen: tuple[str, ...] = ()  # the problems as of the last check
        inputs = parts.inputs
        self.missing_inputs: list[MissingInputs] = []
        self.joined: list[MissingInputs] = []  # the missing inputs that have joined since
        self.no_input = False  # every input is a stand-in: until one opens, nothing can be played
        if isinstance(inputs, MissingInputs):
            inputs = CombinedInputs([inputs])
        if isinstance(inputs, CombinedInputs):
            readers = [ReopeningReader(s, clock) if isinstance(s, SerialCardReader) else s for s in inputs.sources]
            self.missing_inputs = [r for r in readers if isinstance(r, MissingInputs)]
            self.checked += [r for r in readers if isinstance(r, (ReopeningReader, MissingInputs))]
            self.no_input = bool(readers) and len(self.missing_inputs) == len(readers)
            sources: list[InputSource] = list(readers)
            inputs = CombinedInputs(sources)
        self.clock = clock
        self.watches: tuple[StuckButtons, ...] = ()  # replaced, never changed: input threads read it
        if buttons is not None:
            self._watch(*buttons)
        if buttons is not None or self.missing_inputs:  # buttons that join late are watched too
            inputs = FilteredInputs(inputs, self.ignored)
        guarded_peg: Pegboard = self.pegboard
        guarded_displays: tuple[Display, ...] = self.displays
        self.parts = Parts(inputs, guarded_peg, guarded_displays, parts.pages, parts.backends)

    def _watch(self, pins: Mapping[int, PinBinding], factory: Any) -> None:
        """Watch GPIO buttons for one stuck down (those present at start, and a set that joins)."""
        stuck = StuckButtons(pins, factory, self.clock)
        self.checked.append(stuck)
        self.watches = (*self.watches, stuck)

    def ignored(self, action: Action) -> bool:
        """True for an action of a stuck button (called from the input threads)."""
        return any(watch.ignored(action) for watch in self.watches)

    def problems(self) -> tuple[str, ...]:
        """The open problems: each part's, and first, when every input is missing, that the
        table cannot be played."""
        own = tuple(p for p in (part.problem for part in self.checked) if p)
        if self.no_input and not any(m.present for m in self.missing_inputs):
            return (NO_INPUT, *own)
        return own

    def missing(self) -> tuple[str, ...]:
        """The parts down now, each said short (``LEDs``, ``OLED``, ``buttons``, ``card
        reader``, ``speaker``): missing since the start, gone since, or failing. The displays
        keep a mark for them after a key took their problems as read; a key stuck down is not
        one (its buttons are there)."""
        labels: list[str] = []
        for part in self.checked:
            if part.problem and not isinstance(part, StuckButtons):
                label = _label(part)
                if label not in labels:
                    labels.append(label)
        return tuple(labels)

    def check(self) -> bool:
        """Retry what is due and look at the parts' own problems: True when the table must be
        redrawn (a part came back, or a problem opened or cleared since the last check)."""
        came_back = [part.check() for part in self.checked]
        for joined in [m for m in self.missing_inputs if m.present and m not in self.joined]:
            self.joined.append(joined)
            buttons = gpio_buttons(joined.part)
            if buttons is not None:  # watched from now on, as the buttons present at start are
                self._watch(*buttons)
        now = self.problems()
        changed, self.seen = now != self.seen, now
        return any(came_back) or changed


def _label(part: Checked) -> str:
    """A part as the displays' lasting mark says it: its label, else its name (a card reader
    without its port: the port is in its problem)."""
    label = str(getattr(part, "label", None) or part.name)
    return "card reader" if label.startswith("card reader") else label


def _name(parts: Parts, part: str, index: int = 0) -> str:
    """How logs and the OLED name a part: the controller and the OLED by name, others by backend
    (the ``index``-th display by its own: the backends name each display in turn)."""
    named = dict(parts.backends)
    own = [backend for kind, backend in parts.backends if kind == part]
    backend = ((own[index] if index < len(own) else "") or named.get("all", "")).split("+")[0]
    known = {("pegboard", "controller"): "controller", ("display", "pi"): "OLED"}
    return known.get((part, backend), f"{part} ({backend or 'unknown'})")
