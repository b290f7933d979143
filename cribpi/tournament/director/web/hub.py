"""The director's changes out to every open page's live stream (``/events``), bounded.

A table's board is drawn at most ``1 / FRAME_SECONDS`` times a second on a wall, after a burst
of ``FRAME_BURST`` (a move that ends a game and its confirmations come together: they go out at
once): a board that comes sooner waits for its frame, and a newer board of the same table drawn
over it meanwhile replaces it (only the newest is sent; each one passed over counts as
``drops["board"]``). So a table flooding boards costs the pages a few frames a second, and the
other tables' boards go out at once. A page whose stream is ``STREAM_MOST`` changes behind (a phone asleep on a slow
Wi-Fi) lets its oldest go (``drops["wall"]``; the page refetches everything when it reconnects);
the director never waits for a page, nor logs a line a change.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import anyio

from cribpi.tournament.director.quiet import Quiet

__all__ = ["Hub", "FRAME_SECONDS", "FRAME_BURST", "STREAM_MOST"]

FRAME_SECONDS = 0.2  # a table's board at most 5 times a second on a page,
FRAME_BURST = 6.0  # after this many at once
STREAM_MOST = 2_000  # changes a page's stream may be behind by (a frame of 200 tables is 200)
log = logging.getLogger("cribpi.tournament.director.web")


class Hub:
    """Fans the director's changes out to every open event stream (called from paho's thread);
    ``drops`` counts what it lets go, by reason (the director's: ``/api/health`` shows them)."""

    def __init__(self, drops: Counter[str] | None = None, frame: float = FRAME_SECONDS,
                 most: int = STREAM_MOST, burst: float = FRAME_BURST) -> None:
        self.streams: set[asyncio.Queue[tuple[str, str]]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.drops: Counter[str] = Counter() if drops is None else drops
        self.frame, self.most, self.burst = frame, most, burst
        self.pending: dict[str, dict[str, Any]] = {}  # table -> its newest board waiting for its frame
        self.frames: dict[str, tuple[float, float]] = {}  # table -> (frames in hand, when: the loop's clock)
        self.guard = threading.Lock()  # pending: written from paho's thread, read in the loop
        self.quiet = Quiet(log)

    def __call__(self, what: str, data: dict[str, Any]) -> None:
        loop = self.loop
        if loop is None or not self.streams:
            return
        table = data.get("table") if what == "table" else None
        try:
            if type(table) is not str:
                loop.call_soon_threadsafe(self._put, (what, json.dumps(data, separators=(",", ":"))))
                return
            with self.guard:
                waiting = table in self.pending
                self.pending[table] = dict(data)  # as it is now: the director changes its own copy
            if waiting:  # drawn over before it went out
                self.drops["board"] += 1
                return
            loop.call_soon_threadsafe(self._due, table)
        except RuntimeError:  # the loop is closed (the server stopped): no page to tell
            with self.guard:
                self.pending.clear()

    def _in_hand(self, table: str) -> float:
        """``table``'s frames in hand now: one more each ``frame`` seconds, up to ``burst``."""
        assert self.loop is not None
        now = self.loop.time()
        had, at = self.frames.get(table, (self.burst, now))
        return min(self.burst, had + (now - at) / self.frame) if self.frame > 0 else self.burst

    def _due(self, table: str) -> None:
        """In the loop: send ``table``'s board now, or at its next frame."""
        assert self.loop is not None
        frames = self._in_hand(table)
        if frames < 1:
            self.loop.call_later((1 - frames) * self.frame, self._send, table)
        else:
            self._send(table)

    def _send(self, table: str) -> None:
        with self.guard:
            data = self.pending.pop(table, None)
        if data is None:
            return
        assert self.loop is not None
        self.frames[table] = (max(0.0, self._in_hand(table) - 1), self.loop.time())
        self._put(("table", json.dumps(data, separators=(",", ":"))))

    def _put(self, item: tuple[str, str]) -> None:
        """In the loop: ``item`` to every stream; a stream ``most`` behind lets its oldest go."""
        for queue in list(self.streams):
            if queue.full():
                try:
                    queue.get_nowait()
                except asyncio.QueueEmpty:
                    pass
                self.drops["wall"] += 1
                self.quiet.warning("wall", "a page's live stream is %d changes behind: its oldest are let go",
                                   self.most)
            queue.put_nowait(item)

    async def stream(self, bye: anyio.Event | None = None) -> AsyncIterator[dict[str, str]]:
        """What happens, as it happens, until ``bye`` (the server stopping): then the stream
        ends as a stream should, rather than being cut off (which uvicorn logs as an ERROR at
        every stop with a page open); the page's EventSource reconnects by itself."""
        queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue(maxsize=self.most)
        self.streams.add(queue)
        stopping = asyncio.ensure_future(bye.wait()) if bye is not None else asyncio.get_running_loop().create_future()
        try:
            yield {"event": "hello", "data": "{}"}
            while True:
                got = asyncio.ensure_future(queue.get())
                await asyncio.wait((got, stopping), return_when=asyncio.FIRST_COMPLETED)
                if not got.done():
                    got.cancel()
                    return
                what, data = got.result()
                yield {"event": what, "data": data}
        finally:
            stopping.cancel()
            self.streams.discard(queue)
