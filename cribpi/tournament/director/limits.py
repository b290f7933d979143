"""The director's limits on each table (documented in ``docs/tournament.md``): how many events
and results a second it takes from one table, and how many of a table's event ids it keeps to
catch a replay. A table's own password cannot make the director's memory or work grow without
end: memory stays flat whatever one table sends, and a flood from one table leaves the others'
messages their turn."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["RATES", "SEEN_WINDOW", "Bucket", "Rates", "SeenIds"]

# (sustained per second, burst) a table: a table plays a move every second or two, and sends one
# event a move and one result a game; the burst is a whole outbox replayed at once (a table that
# was away a session: a day's events, every result of the event), well above either.
RATES: dict[str, tuple[float, float]] = {"events": (100.0, 5_000.0), "result": (2.0, 200.0)}
# A table's newest event ids kept to tell a replay (an id seen before) from one merely out of
# order; an id older than all of them is refused as a replay too, as it is older than the newest.
SEEN_WINDOW = 4_096


@dataclass
class Bucket:
    """A token bucket: ``rate`` a second, up to ``burst`` saved."""

    rate: float
    burst: float
    tokens: float
    at: float

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Rates:
    """Each table's buckets, one a kind in ``RATES``: whether a message of ``kind`` from
    ``table`` is within them (only the event's tables are asked for: memory is bounded)."""

    def __init__(self, clock: Callable[[], float], rates: dict[str, tuple[float, float]] | None = None) -> None:
        self.clock, self.rates = clock, dict(RATES if rates is None else rates)
        self.buckets: dict[tuple[str, str], Bucket] = {}

    def within(self, table: str, kind: str) -> bool:
        limit = self.rates.get(kind)
        if limit is None:
            return True
        now = self.clock()
        bucket = self.buckets.get((table, kind))
        if bucket is None:
            bucket = self.buckets[(table, kind)] = Bucket(limit[0], limit[1], limit[1], now)
        return bucket.take(now)

    def said(self, kind: str) -> str:
        """The limit on ``kind``, in words."""
        rate, burst = self.rates[kind]
        return f"{rate:g} a second ({burst:,.0f} at once) from one table"


class SeenIds:
    """The ``size`` highest ids of one table's events seen: ``id in seen`` is a replay, and so
    is any id at or below the highest one let go (``floor``): below the newest, it is no new
    one. By value, not by arrival: a made-up id far ahead stays in and lets no real id go."""

    def __init__(self, size: int = SEEN_WINDOW) -> None:
        self.size = size
        self.ids: set[int] = set()
        self.heap: list[int] = []
        self.floor = 0  # the highest id let go to keep to ``size`` (0: none yet)

    def __contains__(self, number: object) -> bool:
        return number in self.ids or (type(number) is int and number <= self.floor)

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, number: int) -> None:
        if number in self:
            return
        self.ids.add(number)
        heapq.heappush(self.heap, number)
        if len(self.heap) > self.size:
            old = heapq.heappop(self.heap)
            self.ids.discard(old)
            self.floor = max(self.floor, old)
