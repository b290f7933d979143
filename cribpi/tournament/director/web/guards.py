"""What guards the director's pages from a request meant to hurt them: every request read
whole, bounded in size, time and depth, before the app sees it, and no exception of the app
let out (:class:`RequestGuard`); the cost of a login attempt kept off the pages
(:class:`LoginGate`). Used by :mod:`cribpi.tournament.director.web`."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cribpi.nesting import json_depth
from cribpi.tournament.director.eventdb import check_password

__all__ = ["RequestGuard", "BodyLimit", "LoginGate", "MAX_BODY", "MAX_DEPTH", "BODY_SECONDS", "LOGIN_PENALTY_S",
           "too_deep"]

LOGIN_PENALTY_S = 1.0
MAX_BODY = 16 * 1024  # bytes: the largest request body (the admin's JSON is a few hundred)
MAX_DEPTH = 32  # JSON nesting: the admin's bodies are 2 deep
BODY_SECONDS = 5.0  # from a request's head to the end of its body

log = logging.getLogger(__name__)
_SECURE = re.compile(rb";\s*secure\s*(;|$)", re.IGNORECASE)


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

    def __init__(self, app: Any, limit: int = MAX_BODY, *, seconds: float = BODY_SECONDS, depth: int = MAX_DEPTH) -> None:
        self.app, self.limit, self.seconds, self.depth = app, limit, seconds, depth
        self.failures = 0  # requests the app failed on

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("scheme") == "https":
            send = _secure_cookies(send)
        try:
            body = await self._body(scope, receive)
        except _Refused as refused:
            await _answer(send, refused.status, refused.reason, refused.why)
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
                await _answer(send, 500, "internal", "the director failed to answer this request (it is logged)")

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
                           " (too_deep): the director takes a flat JSON object, such as {\"password\": \"...\"}")
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
        with :class:`cribpi.tournament.director.web.ratelog.RateLimit`, which keeps the traceback of a
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


async def _answer(send: Any, status: int, reason: str, why: str) -> None:
    body = json.dumps({"error": why, "reason": reason}).encode()
    try:
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
    except Exception:  # the client is gone, or a response had begun after all: nothing more to say
        pass


def _yielding() -> None:
    """Lower the calling thread's priority (a login checker's): a flood of passwords to hash
    gets the cores the pages leave, not the other way round. Linux only (a thread is a task
    there); elsewhere, or when not allowed, the thread keeps its priority."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):
        pass


class LoginGate:
    """What a login attempt costs, kept off the pages: the scrypt check runs on a thread of
    its own (``checks`` at a time, so at most that many cores), each client has one attempt in
    flight at a time, a client past ``free`` failures in a row waits (doubling, up to
    ``longest`` seconds) before its next is even checked, and when ``queue`` attempts are
    already waiting for a check or being checked a new one is turned away. A refused attempt
    costs no hash and is answered (429 with Retry-After) after the same pause as a wrong
    password, so that a flood of them comes no faster than its connections allow. The pause
    holds the client's one attempt, not a place in the queue: the queue is for hashing only, so
    other addresses pausing after their wrong passwords do not turn the right one away."""

    def __init__(self, *, checks: int = 1, queue: int = 32, free: int = 3, longest: float = 300.0,
                 clients: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.pool = ThreadPoolExecutor(max_workers=checks, thread_name_prefix="cribpi-login", initializer=_yielding)
        self.queue, self.free, self.longest, self.clients, self.clock = queue, free, longest, clients, clock
        self.failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # client -> (in a row, not before)
        self.busy: set[str] = set()  # clients with an attempt in flight
        self.waiting = 0  # attempts checking or waiting for the pool

    def refuse(self, client: str) -> float | None:
        """Seconds ``client`` must wait before its attempt is taken, or None: taken (call
        :meth:`checked` once its password is checked, or not, and :meth:`done` once it is
        answered)."""
        if client in self.busy:
            return LOGIN_PENALTY_S
        if self.waiting >= self.queue:
            return 1.0
        _, after = self.failures.get(client, (0, 0.0))
        wait = after - self.clock()
        if wait > 0:
            return wait
        self.busy.add(client)
        self.waiting += 1
        return None

    async def check(self, password: str, stored: str) -> bool:
        return await asyncio.get_running_loop().run_in_executor(self.pool, check_password, password, stored)

    def checked(self, client: str, ok: bool | None) -> None:
        """The attempt's place in the queue is free: ``ok`` True (the count starts again),
        False (one failure more), None (no password was checked)."""
        self.waiting -= 1
        if ok:
            self.failures.pop(client, None)
        elif ok is False:
            count = self.failures.pop(client, (0, 0.0))[0] + 1
            wait = 0.0 if count < self.free else min(self.longest, 2.0 ** (count - self.free))
            self.failures[client] = (count, self.clock() + wait)
            while len(self.failures) > self.clients:  # the oldest failures go first
                self.failures.popitem(last=False)

    def done(self, client: str) -> None:
        """The attempt is answered: ``client`` may make another."""
        self.busy.discard(client)
