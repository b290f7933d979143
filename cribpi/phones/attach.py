"""Putting the phones' server on a table when its configuration has ``[phones] enabled``.

The server is a part: a port that cannot be bound (another program on it, no network yet) is a
problem the table's displays show, as a part's are, and it is tried again every
:data:`RETRY_S` from the table's loop until it binds; the game goes on meanwhile."""

from __future__ import annotations

from collections.abc import Callable

from cribpi.app.loop import TableApp
from cribpi.phones.seats import Limits
from cribpi.phones.server import PING_S, PhoneServer
from cribpi.phones.table import PhoneTable
from cribpi.phonesconfig import PhonesConfig

__all__ = ["attach", "serve", "RETRY_S"]

RETRY_S = 5.0


def serve(app: TableApp, phones: PhonesConfig, *, limits: Limits | None = None,
          retry_s: float = RETRY_S, ping_s: float = PING_S) -> PhoneServer:
    """Serve ``app``'s phones as ``phones`` says (whether or not it is enabled); the server,
    running or, its port taken, with its :attr:`~PhoneServer.problem` shown and retried."""
    table = PhoneTable(app)
    app.subscribe(table)
    server = PhoneServer(table, phones.host, phones.port, limits, ping_s)
    shown = app.view.problems

    def problems() -> tuple[str, ...]:
        return (*shown(), *((server.problem,) if server.problem else ()))

    app.view.problems = problems

    def retry() -> None:
        if server.problem is not None and server.start():
            app.publish((), ())  # the problem clears from the displays

    table.refresh()
    if not server.start():
        app.publish((), ())
    app.every(retry_s, retry)
    return server


def attach(app: TableApp, phones: PhonesConfig) -> tuple[PhoneServer | None, Callable[[], None]]:
    """The server ``phones`` asks for (None when it is off) and what stops it."""
    if not phones.enabled:
        return None, lambda: None
    server = serve(app, phones)
    return server, server.stop
