"""The phones' web server: Starlette under uvicorn in a thread of its own, every request bounded
by :class:`cribpi.webguard.RequestGuard` (body size, time, depth; security headers), each
phone rate-limited (:class:`cribpi.phones.seats.Limits`). Routes: docs/phones.md. A port that
cannot be bound is the part's problem (:attr:`PhoneServer.problem`): the table plays on and
:meth:`PhoneServer.start` is tried again."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import socket
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cribpi.phones.seats import JoinRefused, Limits, PIN_DIGITS
from cribpi.phones.table import Answer, PhoneTable, Watcher, parse_action
from cribpi.webguard import HEAD_SECONDS, MAX_BODY, MAX_HEAD, SECURITY_HEADERS, RequestGuard, guarded_protocol

__all__ = ["create_app", "PhoneServer", "STATIC", "PING_S", "MAX_WATCHERS", "MAX_CONNECTIONS", "ANSWER_S"]

STATIC = Path(__file__).parent / "static"
PING_S = 15.0  # a ping on an idle live stream: the page finds a dead connection, or news it missed
RETRY_MS = 2000  # a live stream's reconnection delay, told to the phone's EventSource
MAX_WATCHERS = 64  # live streams at once
MAX_CONNECTIONS = MAX_WATCHERS + 64  # open at once: the streams, and the phones' requests beside them
ANSWER_S = 5.0  # how long a phone waits for the table's loop

log = logging.getLogger(__name__)


def error(status: int, reason: str, why: str, **more: Any) -> JSONResponse:
    headers = {"retry-after": str(max(1, math.ceil(more.pop("wait"))))} if "wait" in more else None
    return JSONResponse({"error": why, "reason": reason, **more}, status_code=status, headers=headers)


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


async def _json(request: Request) -> dict[str, Any] | JSONResponse:
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return error(415, "not_json", "send the body as JSON (Content-Type: application/json)")
    try:
        data = json.loads(await request.body())
    except ValueError:
        return error(400, "bad_request", "the body is not JSON: send a JSON object")
    if not isinstance(data, dict):
        return error(400, "bad_request", "the body must be a JSON object")
    return data


def _limited(request: Request) -> JSONResponse | None:
    wait = request.app.state.limits.wait(_client(request))
    return error(429, "rate_limited", "too many requests from this phone: wait a moment", wait=wait) if wait else None


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def state(request: Request) -> Response:
    refused = _limited(request)
    if refused is not None:
        return refused
    text, _ = request.app.state.table.snapshot()
    return Response(text, media_type="application/json")


async def events(request: Request) -> Response:
    refused = _limited(request)
    if refused is not None:
        return refused
    table: PhoneTable = request.app.state.table
    if len(table.watchers) >= MAX_WATCHERS:
        return error(503, "busy", f"{MAX_WATCHERS} phones are watching already: try again later", wait=5)
    watcher = Watcher(asyncio.get_running_loop(), "{}")
    table.watch(watcher)
    every: float = request.app.state.ping_s

    async def stream() -> AsyncIterator[str]:
        try:
            yield f"retry: {RETRY_MS}\n\n"
            while True:
                try:
                    await asyncio.wait_for(watcher.changed.wait(), every)
                except asyncio.TimeoutError:
                    # The page hears the table this often, so a connection gone quiet (a phone's
                    # Wi-Fi lost without a word) is found, and a version it lacks is fetched.
                    shown = table.snapshot()[1]  # the version pushed last, not one still being made
                    ping = {"version": shown.get("version"), "epoch": table.epoch, "every": every}
                    yield f"event: ping\ndata: {json.dumps(ping, separators=(',', ':'))}\n\n"
                    continue
                watcher.changed.clear()
                yield f"event: state\ndata: {watcher.latest}\n\n"
        finally:
            table.unwatch(watcher)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"x-accel-buffering": "no"})


async def join(request: Request) -> Response:
    refused = _limited(request)
    if refused is not None:
        return refused
    limits: Limits = request.app.state.limits
    client = _client(request)
    wait = limits.pin_wait(client)
    if wait:
        return error(429, "rate_limited", "too many wrong PINs from this phone: wait before trying again", wait=wait)
    data = await _json(request)
    if isinstance(data, JSONResponse):
        return data
    pin, seat, confirm = data.get("pin"), data.get("seat"), data.get("confirm", False)
    if not isinstance(pin, str) or len(pin) != PIN_DIGITS or not pin.isascii() or not pin.isdigit():
        return error(400, "bad_request", f"pin must be the table's {PIN_DIGITS} digits, as a string")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(confirm, bool):
        return error(400, "bad_request", "seat must be a whole number (0 for the first seat), confirm true or false")
    table: PhoneTable = request.app.state.table
    seats = len(table.snapshot()[1].get("names", ()))
    try:
        token = table.seats.join(pin, seat, seats, confirm=confirm)
    except JoinRefused as refused_join:
        if refused_join.reason == "wrong_pin":
            limits.pin_tried(client, right=False)
        return error(refused_join.status, refused_join.reason, refused_join.why)
    limits.pin_tried(client, right=True)
    if table.seats.changed == seat and confirm:
        table.app.mailbox.put(lambda: table.changed_hands(seat))
    else:
        table.app.mailbox.put(table.refresh)  # the seat shows taken
    return JSONResponse({"seat": seat, "token": token, "game": table.seats.game})


async def act(request: Request) -> Response:
    refused = _limited(request)
    if refused is not None:
        return refused
    table: PhoneTable = request.app.state.table
    data = await _json(request)
    if isinstance(data, JSONResponse):
        return data
    seat = table.seats.seat_of(request.headers.get("x-seat-token", ""))
    if seat is None:
        return error(401, "bad_token", "no seat token of this game (X-Seat-Token): join again with the table's PIN")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        return error(400, "bad_request", "version must be the whole number of the state the key was pressed on")
    try:
        action = parse_action(data.get("action"))
    except ValueError as exc:
        return error(400, "bad_request", str(exc))
    future = table.post(lambda: table.run(seat, version, action))
    try:
        answer: Answer = await asyncio.wait_for(asyncio.wrap_future(future), ANSWER_S)
    except asyncio.TimeoutError:
        return error(503, "not_ready", f"the table did not answer within {ANSWER_S:g} s: try again")
    return JSONResponse(answer.body, status_code=answer.status)


def create_app(table: PhoneTable, limits: Limits | None = None, ping_s: float = PING_S) -> RequestGuard:
    routes = [
        Route("/", page), Route("/watch", page),
        Route("/api/state", state), Route("/api/events", events),
        Route("/api/join", join, methods=["POST"]), Route("/api/action", act, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.table = table
    app.state.limits = limits or Limits()
    app.state.ping_s = ping_s
    return RequestGuard(app, MAX_BODY, headers=SECURITY_HEADERS)


def lan_address() -> str:
    """This machine's address on its network (the route out), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


class PhoneServer:
    """The server of ``table`` on ``host``:``port`` (0: any free port), in its own thread."""

    def __init__(self, table: PhoneTable, host: str = "0.0.0.0", port: int = 8130, limits: Limits | None = None,
                 ping_s: float = PING_S) -> None:
        self.table, self.host, self.port, self.ping_s = table, host, port, ping_s
        self.limits = limits or Limits()
        self.problem: str | None = None
        self.bound: int | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def pin(self) -> str:
        return self.table.seats.pin

    @property
    def url(self) -> str:
        host = lan_address() if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.bound or self.port}/"

    @property
    def watch_url(self) -> str:
        return self.url + "watch"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> bool:
        """Bind and serve; False (and :attr:`problem` says why) when the port cannot be bound."""
        if self.running:
            return True
        sock = socket.socket(socket.AF_INET6 if ":" in self.host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
            sock.listen(64)
        except OSError as exc:
            sock.close()
            self.problem = f"Phones: port {self.port} {exc.strerror or exc}"
            return False
        self.bound = sock.getsockname()[1]
        # h11 with the director's guard: a request's head within HEAD_SECONDS, and at most
        # MAX_CONNECTIONS open (a new one closes the oldest still waiting for its head), so
        # connections held half-open by a phone on the network neither shut the players out
        # nor take the table's open files. Open live streams do not hold the table's stop.
        config = uvicorn.Config(create_app(self.table, self.limits, self.ping_s), log_level="warning", access_log=False,
                                http=guarded_protocol(MAX_CONNECTIONS), timeout_keep_alive=int(HEAD_SECONDS),
                                h11_max_incomplete_event_size=MAX_HEAD, lifespan="off", timeout_graceful_shutdown=1)
        server = uvicorn.Server(config)
        ready = threading.Event()

        def serve() -> None:
            try:
                server.run(sockets=[sock])
            except BaseException:  # noqa: BLE001 - a server that fails is the part's problem
                log.exception("the phones' server stopped")
            finally:
                ready.set()
                sock.close()

        self._server = server
        self._thread = threading.Thread(target=serve, name="cribpi-phones", daemon=True)
        self._thread.start()
        while not server.started and self._thread.is_alive():
            ready.wait(0.02)
        self.problem = None if server.started else f"Phones: the server on port {self.port} did not start"
        return server.started

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(5)
        self._thread = None
