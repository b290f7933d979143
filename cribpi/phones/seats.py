"""Who may key for which seat: the table PIN (4 digits, new with each game), a token per seat
for one game, a second phone taking a seat only when it confirms; and how often a phone may ask
(:class:`Limits`). Used from the server's thread and the table's loop, so every change is under
one lock."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Seats", "JoinRefused", "Limits", "PIN_DIGITS"]

PIN_DIGITS = 4


class JoinRefused(Exception):
    """A join refused: the HTTP status, the reason's code and what was wrong."""

    def __init__(self, status: int, reason: str, why: str) -> None:
        super().__init__(why)
        self.status, self.reason, self.why = status, reason, why


@dataclass(frozen=True)
class Holder:
    seat: int
    token: str


class Seats:
    """The seats' phones for the game ``game``; :meth:`new_game` makes a new PIN and lets every
    token go. ``on_change(seat)`` is told (from the joining thread) when a seat changes hands."""

    def __init__(self, pin: Callable[[], str] | None = None) -> None:
        self._make_pin = pin or (lambda: f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}")
        self._lock = threading.Lock()
        self.game: int | None = None
        self.pin = self._make_pin()
        self._holders: dict[int, str] = {}  # seat -> its token now
        self.changed: int | None = None  # the last seat that changed hands, until the next game

    def new_game(self, game: int | None) -> None:
        with self._lock:
            self.game = game
            self.pin = self._make_pin()
            self._holders.clear()
            self.changed = None

    def join(self, pin: str, seat: int, seats: int, *, confirm: bool = False) -> str:
        """A token for ``seat`` (of ``seats``) to a phone with the PIN; raises :class:`JoinRefused`."""
        with self._lock:
            if not secrets.compare_digest(pin.encode(), self.pin.encode()):
                raise JoinRefused(403, "wrong_pin", "the PIN is not this table's: it is on the table's screen"
                                  " (Phones) and changes with each game")
            if not 0 <= seat < seats:
                raise JoinRefused(400, "bad_request", f"seat {seat} is not at this table: seats are 0-{seats - 1}")
            if seat in self._holders and not confirm:
                raise JoinRefused(409, "taken", f"seat {seat} has a phone already: send confirm true to take it over")
            if seat in self._holders:
                self.changed = seat
            token = secrets.token_urlsafe(24)
            self._holders[seat] = token
            return token

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` holds now (None: another game's, or taken over, or never given)."""
        with self._lock:
            return next((seat for seat, held in self._holders.items()
                         if secrets.compare_digest(held.encode(), token.encode())), None)

    def taken(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._holders)


class Limits:
    """Per phone (its address): at most ``rate`` requests a second on average, ``burst`` at
    once; and wrong PINs: after ``free`` in a row, each next try waits twice as long (to
    ``longest`` s). A guessed PIN (1 in 10,000) so takes days, not minutes."""

    def __init__(self, *, rate: float = 20.0, burst: float = 40.0, free: int = 3, longest: float = 600.0,
                 clients: int = 4096, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.free, self.longest, self.clients, self.clock = rate, burst, free, longest, clients, clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client -> (tokens, at)
        self._wrong: OrderedDict[str, tuple[int, float]] = OrderedDict()  # client -> (in a row, not before)

    def wait(self, client: str) -> float:
        """0 to take the request now, else the seconds ``client`` must wait."""
        with self._lock:
            now = self.clock()
            tokens, at = self._buckets.pop(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - at) * self.rate)
            wait = 0.0 if tokens >= 1 - 1e-9 else (1 - tokens) / self.rate  # (a float short of one is one)
            self._buckets[client] = (tokens - 1 if not wait else tokens, now)
            while len(self._buckets) > self.clients:
                self._buckets.popitem(last=False)
            return wait

    def pin_wait(self, client: str) -> float:
        with self._lock:
            return max(0.0, self._wrong.get(client, (0, 0.0))[1] - self.clock())

    def pin_tried(self, client: str, right: bool) -> None:
        with self._lock:
            count = self._wrong.pop(client, (0, 0.0))[0] + 1
            if right:
                return
            wait = 0.0 if count < self.free else min(self.longest, 2.0 ** (count - self.free))
            self._wrong[client] = (count, self.clock() + wait)
            while len(self._wrong) > self.clients:
                self._wrong.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._buckets.clear()
            self._wrong.clear()
