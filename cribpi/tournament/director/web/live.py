"""The live stream: ``/events``, server-sent events from the app's :class:`~cribpi.tournament.director.web.hub.Hub`
(the browser's EventSource reconnects by itself; the page refetches on reconnect)."""

from __future__ import annotations

import asyncio

import anyio
from sse_starlette.sse import EventSourceResponse
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cribpi.tournament.director.web.hub import Hub

__all__ = ["routes"]


async def events(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    hub.loop = asyncio.get_running_loop()
    bye = anyio.Event()  # set when the server stops: the stream ends cleanly within the grace
    return EventSourceResponse(hub.stream(bye), ping=15, shutdown_event=bye, shutdown_grace_period=2)


routes = [Route("/events", events)]
