"""The director's pages and JSON API (Starlette, served by uvicorn).

Public: the wall (every table live), the leaderboard, a feature table, the bracket and a
player's results, all read-only, fed by ``/api/...`` and kept live by server-sent events on
``/events`` (the browser's EventSource reconnects by itself; the page refetches on reconnect).
Admin actions (register players, seat a round, correct a result) need a login: the password
set at init (stored as a scrypt hash), an HttpOnly SameSite=Strict session cookie, and a CSRF
token the admin page sends back in a header with every change.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from cribpi.exc import CribpiError
from cribpi.tournament.director import NAME_MAX, Director, NoSuchResult
from cribpi.tournament.eventdb import check_password
from cribpi.tournament.standings import ACC_POINTS

__all__ = ["create_app", "Hub", "LoginGate", "BodyLimit", "MAX_BODY"]

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "wall.html", "/leaderboard": "leaderboard.html", "/feature/{table}": "feature.html",
         "/bracket": "bracket.html", "/seating": "seating.html", "/player": "player.html", "/player/{name}": "player.html", "/admin": "admin.html"}
NOT_ADMIN = "log in as the director first"
NO_CSRF = "the CSRF token (X-CSRF-Token header) is missing or wrong: reload /admin"
ASSETS = ("style.css", "live.js", "admin.js")
SESSION_SECONDS = 12 * 3600
COOKIE = "cribpi_admin"
LOGIN_PENALTY_S = 1.0
MAX_BODY = 16 * 1024  # bytes: the largest request body (the admin's JSON is a few hundred)


class BodyLimit:
    """ASGI middleware bounding every request body at ``limit`` bytes: a declared
    Content-Length over it is answered 413 before a byte of the body is read, and a body
    (chunked) that runs over it while the app reads it ends in 413 too; nothing over the limit
    is ever held."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        seen, started, refused = 0, False, False

        async def limited() -> Any:
            nonlocal seen, started, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:  # answered here, the rest never read; the app sees a disconnect
                    refused = True
                    if not started:
                        started = True
                        await self._refuse(send)
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Any) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, watched)
        except Exception:
            if not refused:
                raise

    async def _refuse(self, send: Any) -> None:
        body = json.dumps({"error": f"the request body is over {self.limit} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


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


class Hub:
    """Fans the director's changes out to every open event stream (called from paho's thread)."""

    def __init__(self) -> None:
        self.streams: set[asyncio.Queue[tuple[str, str]]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None

    def __call__(self, what: str, data: dict[str, Any]) -> None:
        loop = self.loop
        if loop is None or not self.streams:
            return
        item = (what, json.dumps(data, separators=(",", ":")))
        for queue in list(self.streams):
            loop.call_soon_threadsafe(queue.put_nowait, item)

    async def stream(self, bye: anyio.Event | None = None) -> AsyncIterator[dict[str, str]]:
        """What happens, as it happens, until ``bye`` (the server stopping): then the stream
        ends as a stream should, rather than being cut off (which uvicorn logs as an ERROR at
        every stop with a page open); the page's EventSource reconnects by itself."""
        queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue(maxsize=10_000)
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


def create_app(director: Director, *, rng: random.Random | None = None, gate: LoginGate | None = None) -> Any:
    """The pages and the API of ``director``, every request body bounded (:class:`BodyLimit`)."""
    hub = Hub()
    gate = gate or LoginGate()
    director.listeners.append(hub)
    rng = rng or random.Random()

    def page(name: str) -> Any:
        async def serve(request: Request) -> Response:
            return FileResponse(STATIC / name, media_type="text/html")
        return serve

    def asset(name: str) -> Any:
        kind = "text/css" if name.endswith(".css") else "text/javascript"

        async def serve(request: Request) -> Response:
            return FileResponse(STATIC / name, media_type=kind)
        return serve

    async def standings(request: Request) -> Response:
        return JSONResponse(director.ranked())

    async def tables(request: Request) -> Response:
        with director.lock:
            return JSONResponse(list(director.live.values()))

    async def one_table(request: Request) -> Response:
        with director.lock:
            live = director.live.get(request.path_params["table"])
            return JSONResponse(live) if live else _error(404, "no such table")

    async def bracket(request: Request) -> Response:
        return JSONResponse(director.bracket())

    async def seating(request: Request) -> Response:
        return JSONResponse(director.seating())

    async def player(request: Request) -> Response:
        """A player by name: ``/api/player?name=...`` (any name, "A/B" or ".." too), or
        ``/api/players/<name>``. Public: only the results that count."""
        name = request.query_params.get("name") if "name" not in request.path_params else request.path_params["name"]
        found = director.player(name) if name else None
        if not found:
            return _error(404, "no such player")
        return JSONResponse({**found, "results": [r for r in found["results"] if r["status"] == "confirmed"]})

    async def health(request: Request) -> Response:
        return JSONResponse(director.health())

    async def events(request: Request) -> Response:
        hub.loop = asyncio.get_running_loop()
        bye = anyio.Event()  # set when the server stops: the stream ends cleanly within the grace
        return EventSourceResponse(hub.stream(bye), ping=15, shutdown_event=bye, shutdown_grace_period=2)

    # -- admin ---------------------------------------------------------------------------------

    def admin(request: Request, *, csrf: bool = True) -> str | None:
        """The session's CSRF token if the request is logged in (and, for a change, carries it)."""
        return None if refusal(request, csrf=csrf) else _found(request)

    def _found(request: Request) -> str | None:
        cookie = request.cookies.get(COOKIE, "")
        found = director.db.admin_session(cookie) if cookie else None
        return found[1] if found is not None and found[0] >= time.time() else None

    def refusal(request: Request, *, csrf: bool = True) -> Response | None:
        """Why the request may not change anything (403, saying which: no login, or a login
        without its CSRF token), or None."""
        token = _found(request)
        if token is None:
            return _error(403, NOT_ADMIN)
        if csrf and not secrets.compare_digest(request.headers.get("x-csrf-token", ""), token):
            return _error(403, NO_CSRF)
        return None

    async def body(request: Request) -> dict[str, Any]:
        try:
            data = json.loads(await request.body())
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise CribpiError("the request body must be a JSON object")
        return data

    async def check(request: Request, client: str) -> bool:
        """Whether the request's password is the admin's; its place in the gate's queue is
        freed as soon as it is known, before any pause."""
        ok: bool | None = None
        try:
            password = (await body(request)).get("password")
            ok = isinstance(password, str) and await gate.check(password, director.db.get("admin"))
        finally:
            gate.checked(client, ok)
        return ok

    async def login(request: Request) -> Response:
        client = request.client.host if request.client else ""
        wait = gate.refuse(client)
        if wait is not None:  # answered after a pause too (cheaply: no hash, no thread), so a flood of
            await asyncio.sleep(min(wait, LOGIN_PENALTY_S))  # attempts comes no faster than that
            wait = max(0.0, wait - LOGIN_PENALTY_S)
            return JSONResponse({"error": f"too many attempts: try again in {max(1, math.ceil(wait))} s"},
                                status_code=429, headers={"retry-after": str(max(1, math.ceil(wait)))})
        try:
            ok = await check(request, client)
            if not ok:
                await asyncio.sleep(LOGIN_PENALTY_S)  # guessing costs the guesser time; the pages go on
                return _error(403, "wrong password")
        finally:
            gate.done(client)
        cookie, token = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        director.db.add_session(cookie, time.time() + SESSION_SECONDS, token)  # kept across a restart
        response = JSONResponse({"csrf": token})
        response.set_cookie(COOKIE, cookie, max_age=SESSION_SECONDS, httponly=True, samesite="strict")
        return response

    async def session(request: Request) -> Response:
        token = admin(request, csrf=False)
        return JSONResponse({"csrf": token}) if token else _error(403, "not logged in")

    async def logout(request: Request) -> Response:
        refused = refusal(request)
        if refused:
            return refused
        director.db.drop_session(request.cookies.get(COOKIE, ""))
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE, httponly=True, samesite="strict")
        return response

    async def register(request: Request) -> Response:
        if refused := refusal(request):
            return refused
        name = (await body(request)).get("name")
        if not isinstance(name, str) or not 0 < len(name.strip()) <= NAME_MAX \
                or any(not c.isprintable() for c in name.strip()):
            return _error(400, f"name {str(name)[:80]!r}: 1-{NAME_MAX} printable characters (no control characters)")
        name = name.strip()
        if not director.register(name):
            return JSONResponse({"added": False, "message": f"{name} is already registered"})
        return JSONResponse({"added": True})

    async def seat(request: Request) -> Response:
        if refused := refusal(request):
            return refused
        data = await body(request)
        games = data.get("games")
        if games is not None and not _is_int(games):
            return _error(400, f"games {json.dumps(games)[:40]} is not valid: a whole number of games, 1-15")
        number, seating = director.seat_round(str(data.get("method")), rng, games)
        return JSONResponse({"round": number, "seating": seating})

    def _name(data: dict[str, Any], key: str) -> str:
        name = data.get(key)
        if not isinstance(name, str) or not 0 < len(name.strip()) <= NAME_MAX or any(not c.isprintable() for c in name):
            raise CribpiError(f"{key} {str(name)[:80]!r}: 1-{NAME_MAX} printable characters (no control characters)")
        return name.strip()

    async def withdraw(request: Request) -> Response:
        if refused := refusal(request):
            return refused
        data = await body(request)
        if not isinstance(data.get("withdrawn", True), bool):
            return _error(400, "withdrawn: true (the player withdraws) or false (plays again)")
        director.withdraw(_name(data, "name"), data.get("withdrawn", True))
        return JSONResponse({"ok": True})

    async def rename(request: Request) -> Response:
        if refused := refusal(request):
            return refused
        data = await body(request)
        director.rename(_name(data, "name"), _name(data, "new"))
        return JSONResponse({"ok": True})

    async def close_qualifying(request: Request) -> Response:
        if refused := refusal(request):
            return refused
        order = (await body(request)).get("order")
        if order is not None and not (isinstance(order, list) and all(isinstance(n, str) for n in order)):
            return _error(400, "order: the players tied at the cut, best first, as a list of names")
        return JSONResponse({"seeds": director.close_qualifying(order)})

    async def correct(request: Request) -> Response:
        if refused := refusal(request):
            return refused
        data = await body(request)
        problem = _correction_problem(data)
        if problem:
            return _error(400, problem)
        try:
            director.correct(request.path_params["id"], data["scores"], data["winner"], data["kind"], data["margin"],
                             by="admin", why=data.get("why", "")[:200])
        except NoSuchResult as exc:
            return _error(404, str(exc))
        return JSONResponse({"ok": True})

    async def results(request: Request) -> Response:
        return JSONResponse(director.db.results()) if admin(request, csrf=False) else _error(403, "not logged in")

    async def bad_input(request: Request, exc: Exception) -> Response:
        return _error(400, str(exc))

    routes = [Route(path, page(name)) for path, name in PAGES.items()]
    routes += [Route(f"/static/{name}", asset(name)) for name in ASSETS]
    routes += [
        Route("/api/standings", standings), Route("/api/tables", tables), Route("/api/tables/{table}", one_table),
        Route("/api/bracket", bracket), Route("/api/seating", seating), Route("/api/player", player), Route("/api/players/{name}", player),
        Route("/api/health", health),
        Route("/events", events),
        Route("/admin/login", login, methods=["POST"]), Route("/admin/session", session),
        Route("/admin/logout", logout, methods=["POST"]),
        Route("/admin/qualifying/close", close_qualifying, methods=["POST"]),
        Route("/admin/players/withdraw", withdraw, methods=["POST"]),
        Route("/admin/players/rename", rename, methods=["POST"]),
        Route("/admin/players", register, methods=["POST"]), Route("/admin/rounds", seat, methods=["POST"]),
        Route("/admin/results", results), Route("/admin/results/{id:int}", correct, methods=["POST"]),
    ]
    app = Starlette(routes=routes, exception_handlers={CribpiError: bad_input})
    app.state.hub = hub
    app.state.gate = gate
    return BodyLimit(app)


def _error(status: int, why: str) -> Response:
    return JSONResponse({"error": why}, status_code=status)


def _is_int(v: Any) -> bool:
    return type(v) is int


def _correction_problem(data: dict[str, Any]) -> str | None:
    """What is wrong with a correction's body as given (its figures are checked against the
    result by the director), or None."""
    fields: dict[str, tuple[str, Callable[[Any], bool]]] = {"scores": ("a list of 2-4 whole numbers, 0-121", lambda v: type(v) is list and 2 <= len(v) <= 4
                         and all(_is_int(x) and 0 <= x <= 121 for x in v)),
              "winner": ("the index of the winning side, 0-3", lambda v: _is_int(v) and 0 <= v <= 3),
              "kind": (f"one of {', '.join(ACC_POINTS)}", lambda v: isinstance(v, str) and v in ACC_POINTS),
              "margin": ("a whole number of points, 0-121", lambda v: _is_int(v) and 0 <= v <= 121),
              "why": ("text, up to 200 characters", lambda v: isinstance(v, str))}
    for key, (accepted, check) in fields.items():
        if key == "why" and key not in data:
            continue
        if key not in data:
            return f"{key} is missing: {accepted}"
        if not check(data[key]):
            return f"{key} {json.dumps(data[key])[:60]} is not valid: {accepted}"
    unknown = set(data) - set(fields)
    if unknown:
        return f"unknown field {', '.join(sorted(unknown))[:80]}: scores, winner, kind, margin and why are accepted"
    return None
