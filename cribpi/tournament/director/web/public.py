"""The director's public pages and read-only JSON API: the wall, the leaderboard, a feature
table, the bracket, the seating and a player's results, and ``/api/...`` that feeds them.
Each handler finds the director in ``request.app.state`` (see :func:`cribpi.tournament.director.web.create_app`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from cribpi.tournament.director import Director

__all__ = ["routes", "director_of", "error", "STATIC", "PAGES", "ASSETS"]

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "wall.html", "/leaderboard": "leaderboard.html", "/feature/{table}": "feature.html",
         "/bracket": "bracket.html", "/seating": "seating.html", "/player": "player.html", "/player/{name}": "player.html", "/admin": "admin.html"}
ASSETS = ("style.css", "live.js", "admin.js")


def director_of(request: Request) -> Director:
    """The director whose pages these are (set by ``create_app``)."""
    director: Director = request.app.state.director
    return director


def error(status: int, why: str) -> Response:
    return JSONResponse({"error": why}, status_code=status)


def page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def serve(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html")
    return serve


def asset(name: str) -> Callable[[Request], Awaitable[Response]]:
    kind = "text/css" if name.endswith(".css") else "text/javascript"

    async def serve(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type=kind)
    return serve


async def standings(request: Request) -> Response:
    return JSONResponse(director_of(request).ranked())


async def tables(request: Request) -> Response:
    director = director_of(request)
    with director.lock:
        return JSONResponse(list(director.live.values()))


async def one_table(request: Request) -> Response:
    director = director_of(request)
    with director.lock:
        live = director.live.get(request.path_params["table"])
        return JSONResponse(live) if live else error(404, "no such table")


async def bracket(request: Request) -> Response:
    return JSONResponse(director_of(request).bracket())


async def seating(request: Request) -> Response:
    return JSONResponse(director_of(request).seating())


async def player(request: Request) -> Response:
    """A player by name: ``/api/player?name=...`` (any name, "A/B" or ".." too), or
    ``/api/players/<name>``. Public: only the results that count."""
    name = request.query_params.get("name") if "name" not in request.path_params else request.path_params["name"]
    found = director_of(request).player(name) if name else None
    if not found:
        return error(404, "no such player")
    return JSONResponse({**found, "results": [r for r in found["results"] if r["status"] == "confirmed"]})


async def rooms(request: Request) -> Response:
    """An event of several rooms: each room, its tables, whether its link to the director's
    broker is up and since when (``since``: seconds since the epoch); [] for one room."""
    director = director_of(request)
    with director.lock:
        return JSONResponse(director.reach.listed())


async def health(request: Request) -> Response:
    return JSONResponse(director_of(request).health())


routes = [Route(path, page(name)) for path, name in PAGES.items()]
routes += [Route(f"/static/{name}", asset(name)) for name in ASSETS]
routes += [
    Route("/api/standings", standings), Route("/api/tables", tables), Route("/api/tables/{table}", one_table),
    Route("/api/bracket", bracket), Route("/api/seating", seating), Route("/api/player", player),
    Route("/api/players/{name}", player), Route("/api/health", health), Route("/api/rooms", rooms),
]
