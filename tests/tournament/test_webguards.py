"""The request guard and the rate-limited log, in-process (the real server's figures are in
test_web_limits.py): an app's exception never leaves the guard and is answered 500; a flood of
one kind of log line writes one line a second with a count, and the count is never lost; a
cookie set over HTTPS is Secure; the depth check counts brackets only outside strings."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cribpi.tournament.director.web.ratelog import RateLimit
from cribpi.tournament.director.web.guards import MAX_DEPTH, RequestGuard, too_deep


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def written() -> Iterator[tuple[logging.Logger, io.StringIO, Clock, RateLimit]]:
    """A logger whose one handler is rate-limited on a clock the test moves."""
    clock, out = Clock(), io.StringIO()
    limit = RateLimit(clock=clock)
    handler = logging.StreamHandler(out)
    handler.addFilter(limit)
    logger = logging.getLogger("cribpi.test.ratelog")
    logger.addHandler(handler)
    logger.propagate = False
    yield logger, out, clock, limit
    logger.removeHandler(handler)


def test_a_flood_of_one_error_writes_a_line_a_second_with_its_count(written: Any) -> None:
    logger, out, clock, limit = written
    for n in range(10_000):  # 10,000 in 5 s: "Too many open files" each millisecond and a half
        clock.now = 100.0 + n * 0.0005
        try:
            raise OSError(24, "Too many open files")
        except OSError:
            logger.error("socket.accept() out of system resource", exc_info=True)
    lines = out.getvalue().splitlines()
    assert out.getvalue().count("Traceback") == 1  # the first line's only
    said = [line for line in lines if line.startswith("socket.accept()")]
    assert 4 <= len(said) <= 6, said
    clock.now += 1
    limit.flush()  # the kind went quiet: its last count is written
    said = [line for line in out.getvalue().splitlines() if line.startswith("socket.accept()")]
    counts = [int(line.split("(and ")[1].split()[0]) for line in said if "(and " in line]
    assert len(said) + sum(counts) == 10_000
    assert all("OSError: [Errno 24] Too many open files" in line for line in said[1:])


def test_other_kinds_are_not_held_back_by_a_flood(written: Any) -> None:
    logger, out, clock, _ = written
    for _ in range(1000):
        logger.warning("Invalid HTTP request received.")
    logger.warning("the broker at %s has not taken the director's subscription yet", "mqtt://x")
    assert out.getvalue().splitlines() == ["Invalid HTTP request received.",
                                           "the broker at mqtt://x has not taken the director's subscription yet"]


def call(app: Any, method: str, path: str, body: bytes = b"", scheme: str = "http") -> tuple[int, dict[bytes, bytes], bytes]:
    """One request through the ASGI ``app``: (status, headers, body)."""
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"content-length", str(len(body)).encode())], "scheme": scheme, "http_version": "1.1",
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80), "root_path": ""}
    sent: list[dict[str, Any]] = []
    pieces = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        if pieces:
            return pieces.pop()
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], dict(start["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


def app() -> RequestGuard:
    async def broken(request: Request) -> Response:
        raise RuntimeError("a bug")

    async def stream_broken(request: Request) -> Response:
        await request.body()
        raise RecursionError("maximum recursion depth exceeded")

    async def cookie(request: Request) -> Response:
        response = JSONResponse({"ok": True})
        response.set_cookie("session", "securevalue", httponly=True, samesite="strict")
        return response

    return RequestGuard(Starlette(routes=[Route("/broken", broken), Route("/deep", stream_broken, methods=["POST"]),
                                          Route("/cookie", cookie)]))


def test_no_exception_leaves_the_app(caplog: pytest.LogCaptureFixture) -> None:
    guarded = app()
    with caplog.at_level(logging.ERROR, logger="cribpi.webguard"):
        for _ in range(3):
            status, _, _ = call(guarded, "GET", "/broken")
            assert status == 500
        status, _, _ = call(guarded, "POST", "/deep", b'{"a": 1}')
        assert status == 500
    assert guarded.failures == 4
    said = [r.getMessage() for r in caplog.records if r.name == "cribpi.webguard"]
    assert said[2] == "RuntimeError answering GET /broken: a bug (answered 500; 3 failed so far)", said
    assert said[3].startswith("RecursionError answering POST /deep")


def test_a_cookie_over_https_is_secure() -> None:
    guarded = app()
    _, headers, _ = call(guarded, "GET", "/cookie", scheme="https")
    assert headers[b"set-cookie"].endswith(b"; Secure") and b"securevalue" in headers[b"set-cookie"]
    _, headers, _ = call(guarded, "GET", "/cookie")
    assert b"Secure" not in headers[b"set-cookie"]  # plain HTTP: a Secure cookie would never come back


def test_deep_bodies_are_refused_before_any_parser() -> None:
    status, _, body = call(app(), "POST", "/deep", b"[" * 100_000)  # over 16 KiB: too large first
    assert status == 413 and json.loads(body)["reason"] == "too_large"
    status, _, body = call(app(), "POST", "/deep", b'{"a": ' + b"[" * 5000 + b"]" * 5000 + b"}")
    assert status == 400 and json.loads(body)["reason"] == "too_deep"
    assert not too_deep(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) and too_deep(b"[" * (MAX_DEPTH + 1))
    assert not too_deep(b'{"password": "' + b"[{" * 500 + b'\\"[["}')  # brackets in a string
    assert not too_deep(b"[" + b"[]," * 1000 + b"[]]")  # many, but 2 deep


def test_the_connections_leave_the_director_under_1024_files_whatever_its_limit() -> None:
    from cribpi.tournament.director.web.server import connection_cap

    assert connection_cap(1 << 20) == connection_cap(1024) == 640  # paho's select() watches files 0-1023
    assert connection_cap(500) == 116 and connection_cap(100) == 16
