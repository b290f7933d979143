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
import random
import secrets
import time
from collections.abc import Callable
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
from cribpi.tournament.hub import Hub
from cribpi.tournament.standings import ACC_POINTS
from cribpi.tournament.webguards import LOGIN_PENALTY_S, MAX_BODY, BodyLimit, LoginGate
from cribpi.tournament.webkept import kept_routes

__all__ = ["create_app", "Hub", "LoginGate", "BodyLimit", "MAX_BODY"]

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "wall.html", "/leaderboard": "leaderboard.html", "/feature/{table}": "feature.html",
         "/bracket": "bracket.html", "/seating": "seating.html", "/player": "player.html", "/player/{name}": "player.html", "/admin": "admin.html"}
NOT_ADMIN = "log in as the director first"
NO_CSRF = "the CSRF token (X-CSRF-Token header) is missing or wrong: reload /admin"
ASSETS = ("style.css", "live.js", "admin.js")
SESSION_SECONDS = 12 * 3600
COOKIE = "cribpi_admin"


def create_app(director: Director, *, rng: random.Random | None = None, gate: LoginGate | None = None) -> Any:
    """The pages and the API of ``director``, every request body bounded (:class:`BodyLimit`)."""
    hub = Hub(director.drops)  # what it lets go is counted with the director's drops
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
    routes += kept_routes(director, refusal, body)  # the results kept for the admin: list, count, reject
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
