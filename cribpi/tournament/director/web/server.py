"""How ``cribpi director serve`` serves its pages: uvicorn (h11), with the limits a room's
Wi-Fi needs (issue 28).

- A request's head must come whole within :data:`HEAD_SECONDS` of the connection (or of the
  last answer on a kept-alive one): a connection that says nothing, or half a head, is closed
  then. (Its body has a time limit too: :class:`cribpi.tournament.director.web.guards.RequestGuard`.)
- At most :func:`connection_cap` connections are open at once, below the process's open-files
  limit (raised to its hard limit first, :func:`raise_open_files`) and below 1024 files (paho's
  select()). A connection past the cap
  closes the oldest one still waiting for its head, or else the oldest still sending its body;
  when every open one has its request whole (being answered, or a wall's live stream), the new
  one is answered 503 and closed at once. So a new visitor gets in however many half-open
  connections are held, and the director never runs out of files ("Too many open files").
- Every log line goes through :class:`cribpi.tournament.director.web.ratelog.RateLimit`.
- With a certificate and its key, HTTPS; the TLS handshake has the head's time limit too (a
  connection is counted towards the cap once its handshake is done).
"""

from __future__ import annotations

import asyncio
import asyncio.constants
import logging
import resource
from collections import OrderedDict
from pathlib import Path
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from cribpi.tournament.director.web.ratelog import RateLimit, limit_handlers

__all__ = ["HEAD_SECONDS", "MAX_HEAD", "SELECT_FILES", "RESERVED_FILES", "raise_open_files", "connection_cap",
           "guarded_protocol", "serve_app"]

HEAD_SECONDS = 5.0
MAX_HEAD = 16 * 1024  # bytes of a request's head (h11's own default, said here)
SELECT_FILES = 1024  # paho's network loop uses select(), which cannot watch a file numbered 1024 or more
RESERVED_FILES = 128  # the director's own files (SQLite, the broker's socket, logs) and a page's file being sent
ACCEPT_BATCH = 64  # connections taken from the kernel's queue at a time (asyncio takes a backlog's worth at once)

log = logging.getLogger(__name__)


def raise_open_files() -> int:
    """Raise this process's soft open-files limit to its hard one (a service started with 1024
    often may have far more); the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def connection_cap(open_files: int) -> int:
    """How many connections may be open at once with ``open_files``: what the director's own
    files leave, and room for the connections taken but not yet counted or closed (asyncio
    accepts :data:`ACCEPT_BATCH` at a time and tells the protocol of each later, and a closed
    one's file goes a moment later), at least 16. However many files the process may open, the
    connections leave it fewer than :data:`SELECT_FILES` open: the director's broker connection
    gets a new socket at each reconnect, the lowest file number free, which paho's select()
    must be able to watch (a higher one and paho cannot reconnect). The open-files limit above
    that is room for the moments the connections run over."""
    return max(16, min(open_files, SELECT_FILES) - RESERVED_FILES - 4 * ACCEPT_BATCH)


def guarded_protocol(cap: int, head_seconds: float = HEAD_SECONDS) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the head's time limit and the cap on connections (the class
    holds its own server's connections: make one per server)."""
    heads: OrderedDict[Any, None] = OrderedDict()  # waiting for their request's head, oldest first
    bodies: OrderedDict[Any, None] = OrderedDict()  # sending their request's body, oldest first
    closing: set[Any] = set()  # closed here, not yet gone
    counts = {"evicted": 0, "refused": 0}

    class Guarded(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            assert isinstance(transport, asyncio.Transport)  # a stream's, as uvicorn's own says
            super().connection_made(transport)
            if len(self.connections) - len(closing) > cap and not self._make_room():
                counts["refused"] += 1
                log.warning("%d connections open, the cap: one more refused with 503 (%d so far)", cap,
                            counts["refused"])
                transport.write(b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\nretry-after: 2\r\n"
                                b"connection: close\r\ncontent-length: 33\r\n\r\ntoo many connections: try again\r\n")
                self._close()
                return
            self._sort()

        def _make_room(self) -> bool:
            """Close the oldest connection waiting for its head, or else sending its body."""
            for waiting in (heads, bodies):
                if waiting:
                    victim, _ = waiting.popitem(last=False)
                    counts["evicted"] += 1
                    log.warning("%d connections open, the cap: the oldest %s closed (%d so far)", cap,
                                "waiting for its head" if waiting is heads else "sending its body", counts["evicted"])
                    victim._close()
                    return True
            return False

        def _close(self) -> None:
            heads.pop(self, None)
            bodies.pop(self, None)
            self._stop_timer()
            if self in self.connections:
                closing.add(self)
            self.transport.close()

        def _stop_timer(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _sort(self) -> None:
            """File the connection by what it is waiting for; time its head."""
            heads.pop(self, None)
            bodies.pop(self, None)
            if self.transport.is_closing():
                self._stop_timer()
                return
            state = self.conn.their_state
            if state is h11.IDLE:
                heads[self] = None
                if self.head_timer is None:
                    self.head_timer = self.loop.call_later(head_seconds, self._head_late)
                return
            self._stop_timer()
            if state is h11.SEND_BODY:
                bodies[self] = None

        def _head_late(self) -> None:
            self.head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self._close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._sort()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._sort()

        def connection_lost(self, exc: Exception | None) -> None:
            heads.pop(self, None)
            bodies.pop(self, None)
            closing.discard(self)
            self._stop_timer()
            super().connection_lost(exc)

    return Guarded


def serve_app(app: Any, host: str, port: int, *, tls: tuple[Path, Path] | None = None,
              log_limit: RateLimit | None = None) -> None:
    """Serve ``app`` on ``host``:``port`` until SIGINT or SIGTERM, over HTTPS with ``tls``
    (the certificate, its key)."""
    cap = connection_cap(raise_open_files())
    if tls:  # a connection that never finishes its TLS handshake is closed as one that never sends its head
        # (uvicorn cannot pass asyncio's create_server a ssl_handshake_timeout; its default, 60 s, is read
        # from here when each connection is made: only this process's servers are concerned)
        asyncio.constants.SSL_HANDSHAKE_TIMEOUT = HEAD_SECONDS
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", http=guarded_protocol(cap), backlog=ACCEPT_BATCH,
                            timeout_keep_alive=int(HEAD_SECONDS), h11_max_incomplete_event_size=MAX_HEAD,
                            ssl_certfile=str(tls[0]) if tls else None, ssl_keyfile=str(tls[1]) if tls else None)
    limit = log_limit or RateLimit()
    root = logging.getLogger()
    if not root.handlers:  # as Python's last resort writes: the message, on stderr, warnings and worse
        handler = logging.StreamHandler()
        handler.setLevel(logging.WARNING)
        root.addHandler(handler)
    limit_handlers(limit)
    limit.start()
    server = uvicorn.Server(config)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    if not server.started:
        raise SystemExit(3)
