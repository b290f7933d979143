"""The admin's routes for the results kept uncounted (``no_seating``, ``not_seated``, ``too_many``,
and those waiting for their players): list them with their reasons, count one as its table sent
it, or reject it. Each answers as the other admin routes do: 403 without a login (or, for a
change, without its CSRF token), 400 naming what is wrong, 404 for a result the event does not
have; a count or a rejection is written to the audit trail (``corrections``) as a correction is."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cribpi.tournament.director import Director, NoSuchResult

__all__ = ["kept_routes", "WHY_MAX"]

WHY_MAX = 200  # characters of the admin's reason kept in the audit trail, as a correction's

Refusal = Callable[..., Response | None]  # (request, csrf=...) -> why it may not, or None
Body = Callable[[Request], Awaitable[dict[str, Any]]]  # the request's JSON object (CribpiError if not one)


def kept_routes(director: Director, refusal: Refusal, body: Body) -> list[Route]:
    """``GET /admin/kept`` and ``POST /admin/results/<id>/count`` and ``/reject`` (``{"why"}``
    optional) for ``director``, guarded by the admin routes' own ``refusal`` and ``body``."""

    async def kept(request: Request) -> Response:
        if refused := refusal(request, csrf=False):
            return refused
        return JSONResponse({"open_play": director.open_play, "kept": director.kept()})

    def ruling(action: Callable[..., None]) -> Callable[[Request], Awaitable[Response]]:
        async def rule(request: Request) -> Response:
            if refused := refusal(request):
                return refused
            data = await body(request)
            unknown = set(data) - {"why"}
            if unknown:
                return _error(400, f"unknown field {', '.join(sorted(unknown))[:80]}: only why (text) is accepted")
            why = data.get("why", "")
            if not isinstance(why, str) or len(why) > WHY_MAX:
                return _error(400, f"why {json.dumps(why)[:40]} is not valid: text, up to {WHY_MAX} characters")
            try:
                action(request.path_params["id"], by="admin", why=why)
            except NoSuchResult as exc:
                return _error(404, str(exc))
            return JSONResponse({"ok": True})
        return rule

    return [Route("/admin/kept", kept), Route("/admin/results/{id:int}/count", ruling(director.count), methods=["POST"]),
            Route("/admin/results/{id:int}/reject", ruling(director.reject), methods=["POST"])]


def _error(status: int, why: str) -> Response:
    return JSONResponse({"error": why}, status_code=status)
