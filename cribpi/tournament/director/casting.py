"""The director's side of the round's seating: every table told its seating in the round seated
last, retained on its topic (the message: :mod:`cribpi.tournament.seats`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cribpi.tournament.seats import seat_body, seat_topic

if TYPE_CHECKING:
    from cribpi.tournament.director import Director

__all__ = ["cast", "follow"]


def cast(director: Director) -> int:
    """Tell every table its seating in the round seated last (retained); how many were told.
    Nothing before a round is seated, or while the director has no broker."""
    seating = director.seating()
    if director.client is None or not seating["round"]:
        return 0
    tables = director.db.tables()
    for table in tables:
        director.client.publish(seat_topic(director.event, table), seat_body(seating, table), qos=1, retain=True)
    return len(tables)


def follow(director: Director) -> None:
    """From now on, tell the tables each round the director seats; and the current one now."""
    def seated(what: str, data: dict[str, Any]) -> None:
        if what == "seating":
            cast(director)

    director.listeners.append(seated)
    cast(director)
