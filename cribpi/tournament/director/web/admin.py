"""The admin's routes: log in and out, register, withdraw and rename players, seat a round,
close the qualifying, list and correct results. Each needs a login: the password set at init
(stored as a scrypt hash), an HttpOnly SameSite=Strict session cookie, and a CSRF token the
admin page sends back in a header with every change. Each handler finds the director, the
login gate and the seating's random source in ``request.app.state``."""

from __future__ import annotations

import asyncio
import json
import math
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cribpi.exc import CribpiError
from cribpi.tournament.director import NAME_MAX, NoSuchResult
from cribpi.tournament.director.standings import ACC_POINTS
from cribpi.tournament.director.web.guards import LOGIN_PENALTY_S, LoginGate
from cribpi.tournament.director.web.public import director_of, error

__all__ = ["routes", "refusal", "body", "NOT_ADMIN", "NO_CSRF", "COOKIE", "SESSION_SECONDS"]

NOT_ADMIN = "log in as the director first"
NO_CSRF = "the CSRF token (X-CSRF-Token header) is missing or wrong: reload /admin"
SESSION_SECONDS = 12 * 3600
COOKIE = "cribpi_admin"


def admin(request: Request, *, csrf: bool = True) -> str | None:
    """The session's CSRF token if the request is logged in (and, for a change, carries it)."""
    return None if refusal(request, csrf=csrf) else _found(request)


def _found(request: Request) -> str | None:
    cookie = request.cookies.get(COOKIE, "")
    found = director_of(request).db.admin_session(cookie) if cookie else None
    return found[1] if found is not None and found[0] >= time.time() else None


def refusal(request: Request, *, csrf: bool = True) -> Response | None:
    """Why the request may not change anything (403, saying which: no login, or a login
    without its CSRF token), or None."""
    token = _found(request)
    if token is None:
        return error(403, NOT_ADMIN)
    if csrf and not secrets.compare_digest(request.headers.get("x-csrf-token", ""), token):
        return error(403, NO_CSRF)
    return None


async def body(request: Request) -> dict[str, Any]:
    try:
        data = json.loads(await request.body())
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise CribpiError("the request body must be a JSON object")
    return data


async def _check(request: Request, gate: LoginGate, client: str) -> bool:
    """Whether the request's password is the admin's; its place in the gate's queue is
    freed as soon as it is known, before any pause."""
    ok: bool | None = None
    try:
        password = (await body(request)).get("password")
        ok = isinstance(password, str) and await gate.check(password, director_of(request).db.get("admin"))
    finally:
        gate.checked(client, ok)
    return ok


async def login(request: Request) -> Response:
    gate: LoginGate = request.app.state.gate
    client = request.client.host if request.client else ""
    wait = gate.refuse(client)
    if wait is not None:  # answered after a pause too (cheaply: no hash, no thread), so a flood of
        await asyncio.sleep(min(wait, LOGIN_PENALTY_S))  # attempts comes no faster than that
        wait = max(0.0, wait - LOGIN_PENALTY_S)
        return JSONResponse({"error": f"too many attempts: try again in {max(1, math.ceil(wait))} s"},
                            status_code=429, headers={"retry-after": str(max(1, math.ceil(wait)))})
    try:
        ok = await _check(request, gate, client)
        if not ok:
            await asyncio.sleep(LOGIN_PENALTY_S)  # guessing costs the guesser time; the pages go on
            return error(403, "wrong password")
    finally:
        gate.done(client)
    cookie, token = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    director_of(request).db.add_session(cookie, time.time() + SESSION_SECONDS, token)  # kept across a restart
    response = JSONResponse({"csrf": token})
    response.set_cookie(COOKIE, cookie, max_age=SESSION_SECONDS, httponly=True, samesite="strict")
    return response


async def session(request: Request) -> Response:
    token = admin(request, csrf=False)
    return JSONResponse({"csrf": token}) if token else error(403, "not logged in")


async def logout(request: Request) -> Response:
    refused = refusal(request)
    if refused:
        return refused
    director_of(request).db.drop_session(request.cookies.get(COOKIE, ""))
    response = JSONResponse({"ok": True})
    response.delete_cookie(COOKIE, httponly=True, samesite="strict")
    return response


async def register(request: Request) -> Response:
    if refused := refusal(request):
        return refused
    name = (await body(request)).get("name")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= NAME_MAX \
            or any(not c.isprintable() for c in name.strip()):
        return error(400, f"name {str(name)[:80]!r}: 1-{NAME_MAX} printable characters (no control characters)")
    name = name.strip()
    if not director_of(request).register(name):
        return JSONResponse({"added": False, "message": f"{name} is already registered"})
    return JSONResponse({"added": True})


async def seat(request: Request) -> Response:
    if refused := refusal(request):
        return refused
    data = await body(request)
    games = data.get("games")
    if games is not None and not _is_int(games):
        return error(400, f"games {json.dumps(games)[:40]} is not valid: a whole number of games, 1-15")
    rng: random.Random = request.app.state.rng
    number, seating = director_of(request).seat_round(str(data.get("method")), rng, games)
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
        return error(400, "withdrawn: true (the player withdraws) or false (plays again)")
    director_of(request).withdraw(_name(data, "name"), data.get("withdrawn", True))
    return JSONResponse({"ok": True})


async def rename(request: Request) -> Response:
    if refused := refusal(request):
        return refused
    data = await body(request)
    director_of(request).rename(_name(data, "name"), _name(data, "new"))
    return JSONResponse({"ok": True})


async def close_qualifying(request: Request) -> Response:
    if refused := refusal(request):
        return refused
    order = (await body(request)).get("order")
    if order is not None and not (isinstance(order, list) and all(isinstance(n, str) for n in order)):
        return error(400, "order: the players tied at the cut, best first, as a list of names")
    return JSONResponse({"seeds": director_of(request).close_qualifying(order)})


async def correct(request: Request) -> Response:
    if refused := refusal(request):
        return refused
    data = await body(request)
    problem = _correction_problem(data)
    if problem:
        return error(400, problem)
    try:
        director_of(request).correct(request.path_params["id"], data["scores"], data["winner"], data["kind"],
                                     data["margin"], by="admin", why=data.get("why", "")[:200])
    except NoSuchResult as exc:
        return error(404, str(exc))
    return JSONResponse({"ok": True})


async def results(request: Request) -> Response:
    return JSONResponse(director_of(request).db.results()) if admin(request, csrf=False) else error(403, "not logged in")


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


routes = [
    Route("/admin/login", login, methods=["POST"]), Route("/admin/session", session),
    Route("/admin/logout", logout, methods=["POST"]),
    Route("/admin/qualifying/close", close_qualifying, methods=["POST"]),
    Route("/admin/players/withdraw", withdraw, methods=["POST"]),
    Route("/admin/players/rename", rename, methods=["POST"]),
    Route("/admin/players", register, methods=["POST"]), Route("/admin/rounds", seat, methods=["POST"]),
    Route("/admin/results", results), Route("/admin/results/{id:int}", correct, methods=["POST"]),
]
