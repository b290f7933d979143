"""Putting a table on the room's broker when its configuration has a ``[tournament]`` broker.

Kept apart from the publisher so a table without one never imports paho-mqtt (an optional
dependency: ``pip install 'cribpi[tournament]'``)."""

from __future__ import annotations

from collections.abc import Callable

from cribpi.app.loop import TableApp
from cribpi.config import Config

__all__ = ["attach"]


def attach(app: TableApp, config: Config) -> Callable[[], None]:
    """Subscribe and start the publisher ``config`` asks for; returns what stops it."""
    if not config.tournament.enabled:
        return lambda: None
    from cribpi.tournament.table.publisher import TablePublisher
    from cribpi.tournament.table.seatcast import hold_kept, listen, show_on

    app.set_mark("offline")  # until the broker has the table
    publisher = TablePublisher.from_config(config, online=lambda on: (app.clear_mark if on else app.set_mark)("offline"))
    # the event as the publisher serves it (its id and this table's credentials: an event id set
    # up again is another event): the seating kept from it holds at once, the broker away or not
    event = publisher.outbox.event
    hold_kept(app.ui, event)
    listen(publisher, show_on(app, event))  # each round the director seats, on the OLED
    app.subscribe(publisher)
    publisher.start()
    return publisher.stop
