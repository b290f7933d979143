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
from pathlib import Path
from typing import Any

import uvicorn

from cribpi.tournament.director.web.ratelog import RateLimit, limit_handlers
from cribpi.webguard import HEAD_SECONDS, MAX_HEAD, guarded_protocol

__all__ = ["HEAD_SECONDS", "MAX_HEAD", "SELECT_FILES", "RESERVED_FILES", "raise_open_files", "connection_cap",
           "guarded_protocol", "serve_app"]

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
