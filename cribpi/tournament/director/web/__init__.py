"""The director's pages and JSON API (Starlette, served by uvicorn), assembled from the modules
of what they serve: :mod:`.public` (the public pages and the read-only API), :mod:`.live` (the live
stream on ``/events``, fed by :mod:`.hub`), :mod:`.admin` (the admin's actions, behind a login)
and :mod:`.kept` (the admin's rulings on kept results). Each handler is a plain function that
finds what it needs in ``request.app.state``: ``director``, ``hub``, ``gate`` and ``rng``, set
here. :mod:`.guards` bounds every request before the app sees it; :mod:`.server` runs the app
under uvicorn with its connections capped and :mod:`.ratelog` keeps its logs short. The pages
themselves are the files of ``static/``.
"""

from __future__ import annotations

import random
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response

from cribpi.exc import CribpiError
from cribpi.tournament.director import Director
from cribpi.tournament.director.web import admin, kept, live, public
from cribpi.tournament.director.web.admin import NO_CSRF, NOT_ADMIN
from cribpi.tournament.director.web.guards import MAX_BODY, BodyLimit, LoginGate
from cribpi.tournament.director.web.hub import Hub

__all__ = ["create_app", "Hub", "LoginGate", "BodyLimit", "MAX_BODY", "NO_CSRF", "NOT_ADMIN"]


def create_app(director: Director, *, rng: random.Random | None = None, gate: LoginGate | None = None) -> Any:
    """The pages and the API of ``director``, every request body bounded (:class:`BodyLimit`)."""
    hub = Hub(director.drops)  # what it lets go is counted with the director's drops
    director.listeners.append(hub)
    routes = public.routes + live.routes + admin.routes + kept.routes
    app = Starlette(routes=routes, exception_handlers={CribpiError: _bad_input})
    app.state.director = director
    app.state.hub = hub
    app.state.gate = gate or LoginGate()
    app.state.rng = rng or random.Random()
    return BodyLimit(app)


async def _bad_input(request: Request, exc: Exception) -> Response:
    return public.error(400, str(exc))
