"""The director's pages and JSON API (Starlette, served by uvicorn), assembled from the modules
of what they serve: :mod:`~cribpi.tournament.webpublic` (the public pages and the read-only API),
:mod:`~cribpi.tournament.weblive` (the live stream on ``/events``),
:mod:`~cribpi.tournament.webadmin` (the admin's actions, behind a login) and
:mod:`~cribpi.tournament.webkept` (the admin's rulings on kept results). Each handler is a plain
function that finds what it needs in ``request.app.state``: ``director``, ``hub``, ``gate`` and
``rng``, set here.
"""

from __future__ import annotations

import random
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response

from cribpi.exc import CribpiError
from cribpi.tournament import webadmin, webkept, weblive, webpublic
from cribpi.tournament.director import Director
from cribpi.tournament.hub import Hub
from cribpi.tournament.webadmin import NO_CSRF, NOT_ADMIN
from cribpi.tournament.webguards import MAX_BODY, BodyLimit, LoginGate

__all__ = ["create_app", "Hub", "LoginGate", "BodyLimit", "MAX_BODY", "NO_CSRF", "NOT_ADMIN"]


def create_app(director: Director, *, rng: random.Random | None = None, gate: LoginGate | None = None) -> Any:
    """The pages and the API of ``director``, every request body bounded (:class:`BodyLimit`)."""
    hub = Hub(director.drops)  # what it lets go is counted with the director's drops
    director.listeners.append(hub)
    routes = webpublic.routes + weblive.routes + webadmin.routes + webkept.routes
    app = Starlette(routes=routes, exception_handlers={CribpiError: _bad_input})
    app.state.director = director
    app.state.hub = hub
    app.state.gate = gate or LoginGate()
    app.state.rng = rng or random.Random()
    return BodyLimit(app)


async def _bad_input(request: Request, exc: Exception) -> Response:
    return webpublic.error(400, str(exc))
