"""Logical input actions, and the thread-safe hand-off that brings them to the main loop.

Physical inputs (a GPIO button, a controller key, a card reader) map to these through the
configuration. Seats count from 0, as in :mod:`cribpi.game`. Text and value round-trip:

>>> Action.parse("rank 5")
Action.parse('rank 5')
>>> str(Action.peg(1, 2))
'peg 1 2'
>>> Action.parse("card 10h").card
Card.parse('TH')

``peg`` and ``muggins`` alone are the PEG and MUGGINS keys of a keypad that has one of each
(the controller's): the app then asks whose peg or call it is (a suit key) and its points
(rank keys), and makes ``peg SEAT N`` and ``muggins SEAT N`` of them.

>>> Action.parse("peg").is_key, Action.parse("muggins 1 3").points
(True, 3)
"""

from __future__ import annotations

import enum
import os
import queue
import threading
from dataclasses import dataclass
from typing import Generic, TypeVar

from cribpi.exc import ConfigError
from cribpi.inputs import parse_int, shown
from cribpi.rules.cards import Card, Rank, Suit

__all__ = ["Kind", "Action", "ActionQueue", "WakeQueue", "ACTION_FORMS"]

T = TypeVar("T")


class Kind(enum.Enum):
    RANK = "rank"
    SUIT = "suit"
    GO = "go"
    OK = "ok"
    UNDO = "undo"
    UNDO_LONG = "undo_long"  # undo held down: undo again / keep undoing
    MENU = "menu"
    PEG = "peg"
    MUGGINS = "muggins"
    CARD = "card"  # a whole card from a card reader
    REJECTED = "rejected"  # input a device sent that is not an action (shown, changes nothing)


ACTION_FORMS = (
    "rank A..K", "suit C|D|H|S", "go", "ok", "undo", "undo_long", "menu",
    "peg SEAT N", "muggins SEAT [N]", "peg", "muggins", "card 5H",
)
_PLAIN = {Kind.GO, Kind.OK, Kind.UNDO, Kind.UNDO_LONG, Kind.MENU}


@dataclass(frozen=True)
class Action:
    """One logical input. Build with the class methods or :meth:`parse`."""

    kind: Kind
    rank: Rank | None = None
    suit: Suit | None = None
    seat: int | None = None
    points: int | None = None
    card: Card | None = None
    text: str | None = None  # REJECTED: what was wrong, for the display

    @classmethod
    def plain(cls, kind: Kind | str) -> Action:
        kind = Kind(kind)
        if kind not in _PLAIN:
            raise ConfigError(f"{kind.value!r} needs an argument: forms are {', '.join(ACTION_FORMS)}")
        return cls(kind)

    @classmethod
    def rank_key(cls, rank: Rank | str) -> Action:
        return cls(Kind.RANK, rank=rank if isinstance(rank, Rank) else Rank.parse(rank))

    @classmethod
    def suit_key(cls, suit: Suit | str) -> Action:
        return cls(Kind.SUIT, suit=suit if isinstance(suit, Suit) else Suit.parse(suit))

    @classmethod
    def peg(cls, seat: int, points: int) -> Action:
        _check_seat(seat)
        if not 1 <= points <= 121:
            raise ConfigError(f"peg {seat} {points}: points must be 1-121")
        return cls(Kind.PEG, seat=seat, points=points)

    @classmethod
    def muggins(cls, seat: int, points: int | None = None) -> Action:
        """``seat`` calls muggins: for ``points`` (1-29, the most one score can be), or, without
        them, a call opened whose points PEG actions for the caller then name."""
        _check_seat(seat)
        if points is not None and not 1 <= points <= 29:
            raise ConfigError(f"muggins {seat} {points}: the points called must be 1-29")
        return cls(Kind.MUGGINS, seat=seat, points=points)

    @classmethod
    def peg_key(cls) -> Action:
        """The PEG key of a keypad: whose peg and how many are keyed next."""
        return cls(Kind.PEG)

    @classmethod
    def muggins_key(cls) -> Action:
        """The MUGGINS key of a keypad: who calls it and for how many are keyed next."""
        return cls(Kind.MUGGINS)

    @property
    def is_key(self) -> bool:
        """A bare PEG or MUGGINS key (no seat yet)."""
        return self.kind in (Kind.PEG, Kind.MUGGINS) and self.seat is None

    @classmethod
    def of_card(cls, card: Card | str) -> Action:
        return cls(Kind.CARD, card=card if isinstance(card, Card) else Card.parse(card))

    @classmethod
    def rejected(cls, why: str) -> Action:
        """Input that could not be understood: the app shows ``why`` and changes nothing."""
        return cls(Kind.REJECTED, text=why)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the text form (``ok``, ``rank Q``, ``suit H``, ``peg 0 2``, ``card 5H``)."""
        words = text.strip().lower().split()
        try:
            return _parse_words(words)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ConfigError(
                f"{shown(text)} is not an action ({exc}): use one of {', '.join(ACTION_FORMS)}"
            ) from None

    def __str__(self) -> str:
        if self.kind is Kind.RANK and self.rank is not None:
            return f"rank {self.rank.symbol}"
        if self.kind is Kind.SUIT and self.suit is not None:
            return f"suit {self.suit.symbol}"
        if self.is_key:
            return self.kind.value
        if self.kind is Kind.PEG:
            return f"peg {self.seat} {self.points}"
        if self.kind is Kind.MUGGINS:
            return f"muggins {self.seat}" + ("" if self.points is None else f" {self.points}")
        if self.kind is Kind.CARD:
            return f"card {self.card}"
        if self.kind is Kind.REJECTED:
            return f"rejected: {self.text}"
        return str(self.kind.value)

    def __repr__(self) -> str:
        if self.kind is Kind.REJECTED:
            return f"Action.rejected({self.text!r})"
        return f"Action.parse({str(self)!r})"


def _check_seat(seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ConfigError(f"seat {seat!r} is not 0-3")


def _whole(word: str) -> int:
    """A seat or points in ASCII digits (``int()`` would take "١٢" and "1_2")."""
    number = parse_int(word, max_digits=6, signed=False)
    if number is None:
        raise ValueError(f"{shown(word, 30)} is not a whole number in digits 0-9")
    return number


def _parse_words(words: list[str]) -> Action:
    kind = Kind(words[0])
    args = words[1:]
    expected = {Kind.RANK: (1,), Kind.SUIT: (1,), Kind.PEG: (0, 2), Kind.MUGGINS: (0, 1, 2), Kind.CARD: (1,)}.get(kind, (0,))
    if len(args) not in expected:
        counts = " or ".join(map(str, expected))
        raise ValueError(f"{kind.value} takes {counts} argument(s), not {len(args)}")
    if kind in (Kind.PEG, Kind.MUGGINS) and not args:
        return Action(kind)
    if kind is Kind.RANK:
        return Action.rank_key(args[0])
    if kind is Kind.SUIT:
        return Action.suit_key(args[0])
    if kind is Kind.PEG:
        return Action.peg(_whole(args[0]), _whole(args[1]))
    if kind is Kind.MUGGINS:
        return Action.muggins(_whole(args[0]), _whole(args[1]) if len(args) == 2 else None)
    if kind is Kind.CARD:
        return Action.of_card(args[0])
    return Action.plain(kind)


class WakeQueue(Generic[T]):
    """Hands items from any thread to the main loop, which waits on :meth:`fileno`: each
    :meth:`put` queues the item and writes one byte to a pipe, so the loop can ``select`` on
    the pipe with its other file descriptors and never polls. After :meth:`close`, a late put
    (from a thread still running while the table shuts down) is dropped."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[T] = queue.SimpleQueue()
        self._read_fd, self._write_fd = os.pipe()
        os.set_blocking(self._read_fd, False)
        os.set_blocking(self._write_fd, False)
        self._lock = threading.Lock()  # a put never writes to a pipe close() has let go
        self._closed = False

    def put(self, item: T) -> None:
        with self._lock:
            if self._closed:
                return
            self._queue.put(item)
            try:
                os.write(self._write_fd, b"\0")
            except BlockingIOError:
                pass  # the pipe is full: the loop has wake-ups pending already

    def fileno(self) -> int:
        return self._read_fd

    def drain(self) -> list[T]:
        """Every item queued so far, oldest first; clears the wake-up."""
        with self._lock:
            if self._closed:
                return []
            try:
                while os.read(self._read_fd, 4096):
                    pass
            except BlockingIOError:
                pass
        items = []
        while True:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                return items

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            os.close(self._read_fd)
            os.close(self._write_fd)

    def __enter__(self) -> WakeQueue[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ActionQueue(WakeQueue[Action]):
    """Actions for the main loop: an input source calls the queue (it is its ``deliver``
    callback) from whatever thread its library uses."""

    def __call__(self, action: Action) -> None:
        self.put(action)

    def __enter__(self) -> ActionQueue:
        return self
