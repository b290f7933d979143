"""What guards a web app of cribpi's from a request meant to hurt it (the director's pages, the
table's page for phones): every request read whole, bounded in size, time and depth, before the
app sees it, and no exception of the app let out (:class:`RequestGuard`); the headers that keep
its pages from being framed, sniffed or fed other sites' scripts (:func:`security_headers`);
and uvicorn's h11 protocol with a time limit on a request's head and a cap on connections
(:func:`guarded_protocol`), so half-open connections never shut a new visitor out. Kept at the
bottom layer so both the tournament and the phones use the one guard."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import OrderedDict
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

# anyio (Starlette's, under every app this guards) imports its file functions lazily, on the
# first attribute asked for: Starlette asks while serving the first file, in the server's thread
# mid-request. Imported here, with the guard, instead (under pytest that import was rewritten
# in a phones server's thread and CPython 3.11's compile failed there, "AST constructor
# recursion depth mismatch": the page answered 500).
from anyio import open_file as _open_file  # noqa: F401

from cribpi.nesting import json_depth

__all__ = ["RequestGuard", "BodyLimit", "MAX_BODY", "MAX_DEPTH", "BODY_SECONDS", "too_deep", "answer", "SECURITY_HEADERS",
           "HEAD_SECONDS", "MAX_HEAD", "guarded_protocol"]

MAX_BODY = 16 * 1024  # bytes: the largest request body (the admin's JSON is a few hundred)
MAX_DEPTH = 32  # JSON nesting: the admin's bodies are 2 deep
BODY_SECONDS = 5.0  # from a request's head to the end of its body
HEAD_SECONDS = 5.0  # from a connection (or its last answer) to its request's whole head
MAX_HEAD = 16 * 1024  # bytes of a request's head (h11's own default, said here)

log = logging.getLogger(__name__)
_SECURE = re.compile(rb";\s*secure\s*(;|$)", re.IGNORECASE)


#: What every page of the phones' server answers with (the director's pages are its own).
SECURITY_HEADERS = (
    (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
)


def too_deep(body: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON ``body`` opens more than ``limit`` arrays or objects inside each other
    (brackets in strings not counted); measured by :mod:`cribpi.nesting`, without recursion."""
    text = body.decode("utf-8", "replace")
    return text.count("[") + text.count("{") > limit and json_depth(text, limit)[0] > limit


class _Refused(Exception):
    def __init__(self, status: int, reason: str, why: str) -> None:
        super().__init__(why)
        self.status, self.reason, self.why = status, reason, why


class _Gone(Exception):
    """The client went away before its body was read."""


class RequestGuard:
    """ASGI middleware: the app sees a request only once its body is all read, and answers it
    without an exception ever leaving.

    - a body over ``limit`` bytes is answered 413 (a declared Content-Length at once, before a
      byte of it is read; a chunked one as soon as it runs over): nothing over it is held;
    - a body not all come ``seconds`` after the request's head is answered 408 and the
      connection closed: a stalled body holds its place that long, and never a place in the
      login queue (the app, and the login gate, never see it);
    - a JSON body nested deeper than ``depth`` is answered 400 ``too_deep`` before any parser
      runs;
    - an exception of the app is answered 500 (if it had not answered yet) and logged, one line
      with the count so far (rate-limited by ``serve``);
    - served over HTTPS, every cookie the app sets is marked ``Secure``.
    Each refusal is JSON: ``{"error": <what and what is accepted>, "reason": <its reason>}``."""

    def __init__(self, app: Any, limit: int = MAX_BODY, *, seconds: float = BODY_SECONDS, depth: int = MAX_DEPTH,
                 headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
        self.app, self.limit, self.seconds, self.depth = app, limit, seconds, depth
        self.headers = headers  # added to every answer (:data:`SECURITY_HEADERS`)
        self.failures = 0  # requests the app failed on

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("scheme") == "https":
            send = _secure_cookies(send)
        if self.headers:
            send = _with_headers(send, self.headers)
        try:
            body = await self._body(scope, receive)
        except _Refused as refused:
            await answer(send, refused.status, refused.reason, refused.why)
            return
        except _Gone:
            return
        given = False

        async def replay() -> Any:  # the body read, then whatever comes (a disconnect)
            nonlocal given
            if given:
                return await receive()
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        started = False

        async def watched(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, replay, watched)
        except Exception as exc:
            self._failed(scope, exc)
            if not started:
                await answer(send, 500, "internal", "the server failed to answer this request (it is logged)")

    async def _body(self, scope: Any, receive: Any) -> bytes:
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            raise _Refused(413, "too_large", f"the request body is over {self.limit} bytes")
        try:
            body = await asyncio.wait_for(self._read(receive), self.seconds)
        except asyncio.TimeoutError:
            raise _Refused(408, "too_slow", f"the request body did not all come within {self.seconds:g} s"
                           " of its head") from None
        if body.lstrip()[:1] in (b"[", b"{") and too_deep(body, self.depth):
            raise _Refused(400, "too_deep", f"the request body is JSON nested deeper than {self.depth} levels"
                           " (too_deep): send a flat JSON object, such as {\"password\": \"...\"}")
        return body

    async def _read(self, receive: Any) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Gone()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:  # answered now: the rest is never read
                raise _Refused(413, "too_large", f"the request body is over {self.limit} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _failed(self, scope: Any, exc: Exception) -> None:
        """One log line (a kind of its own for each exception: ``serve`` rate-limits its log
        with ``RateLimit`` of :mod:`cribpi.tournament.director.web.ratelog`, which keeps the traceback of a
        kind's first line only and counts the lines it leaves out)."""
        self.failures += 1
        log.error(f"{type(exc).__name__} answering %s %s: %s (answered 500; %d failed so far)", scope.get("method"),
                  str(scope.get("path"))[:100], str(exc)[:200], self.failures, exc_info=(type(exc), exc, exc.__traceback__))


BodyLimit = RequestGuard  # its name before it bounded more than the body


def _secure_cookies(send: Any) -> Any:
    async def secured(message: Any) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [
                (k, v + b"; Secure") if k.lower() == b"set-cookie" and not _SECURE.search(v) else (k, v)
                for k, v in message.get("headers", [])]}
        await send(message)
    return secured


def _with_headers(send: Any, headers: tuple[tuple[bytes, bytes], ...]) -> Any:
    async def headed(message: Any) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *headers]}
        await send(message)
    return headed


async def answer(send: Any, status: int, reason: str, why: str) -> None:
    body = json.dumps({"error": why, "reason": reason}).encode()
    try:
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
    except Exception:  # the client is gone, or a response had begun after all: nothing more to say
        pass


def guarded_protocol(cap: int, head_seconds: float = HEAD_SECONDS) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the head's time limit and the cap on connections (the class
    holds its own server's connections: make one per server)."""
    heads: OrderedDict[Any, None] = OrderedDict()  # waiting for their request's head, oldest first
    bodies: OrderedDict[Any, None] = OrderedDict()  # sending their request's body, oldest first
    closing: set[Any] = set()  # closed here, not yet gone
    counts = {"evicted": 0, "refused": 0}
    said = {"evicted": -1.0, "refused": -1.0}  # when each was last logged: a line a second at most

    def say(kind: str) -> bool:
        now = time.monotonic()
        if now - said[kind] < 1.0:
            return False
        said[kind] = now
        return True

    class Guarded(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            assert isinstance(transport, asyncio.Transport)  # a stream's, as uvicorn's own says
            super().connection_made(transport)
            if len(self.connections) - len(closing) > cap and not self._make_room():
                counts["refused"] += 1
                if say("refused"):
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
                    if say("evicted"):
                        log.warning("%d connections open, the cap: the oldest %s closed (%d so far)", cap,
                                    "waiting for its head" if waiting is heads else "sending its body",
                                    counts["evicted"])
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
