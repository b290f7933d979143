"""The admin's routes for the results kept uncounted (``no_seating``, ``not_seated``, ``too_many``,
and those waiting for their players): list them with their reasons, count one as its table sent
it, or reject it. Each answers as the other admin routes do: 403 without a login (or, for a
change, without its CSRF token), 400 naming what is wrong, 404 for a result the event does not
have; a count or a rejection is written to the audit trail (``corrections``) as a correction is."""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cribpi.tournament.director import NoSuchResult
from cribpi.tournament.director.web.admin import body, refusal
from cribpi.tournament.director.web.public import director_of, error

__all__ = ["routes", "WHY_MAX"]

WHY_MAX = 200  # characters of the admin's reason kept in the audit trail, as a correction's


async def kept(request: Request) -> Response:
    """``GET /admin/kept``: the kept results with their reasons, and whether the event is open play."""
    if refused := refusal(request, csrf=False):
        return refused
    director = director_of(request)
    return JSONResponse({"open_play": director.open_play, "kept": director.kept()})


async def count(request: Request) -> Response:
    """``POST /admin/results/<id>/count`` (``{"why"}`` optional): the kept result counts as sent."""
    return await _rule(request, "count")


async def reject(request: Request) -> Response:
    """``POST /admin/results/<id>/reject`` (``{"why"}`` optional): the kept result never counts."""
    return await _rule(request, "reject")


async def _rule(request: Request, action: str) -> Response:
    if refused := refusal(request):
        return refused
    data = await body(request)
    unknown = set(data) - {"why"}
    if unknown:
        return error(400, f"unknown field {', '.join(sorted(unknown))[:80]}: only why (text) is accepted")
    why = data.get("why", "")
    if not isinstance(why, str) or len(why) > WHY_MAX:
        return error(400, f"why {json.dumps(why)[:40]} is not valid: text, up to {WHY_MAX} characters")
    director = director_of(request)
    try:
        (director.count if action == "count" else director.reject)(request.path_params["id"], by="admin", why=why)
    except NoSuchResult as exc:
        return error(404, str(exc))
    return JSONResponse({"ok": True})


routes = [Route("/admin/kept", kept), Route("/admin/results/{id:int}/count", count, methods=["POST"]),
          Route("/admin/results/{id:int}/reject", reject, methods=["POST"])]
