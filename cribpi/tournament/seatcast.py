"""The round's seating, from the director to each table's OLED (issue 21, item 13).

When the director seats a round it tells every table, retained on ``cribpi/<event>/seats/<table>``
(only the director writes there; a table reads only its own), who sits there and each seat's
colour, or that the round leaves the table empty. Retained, so a table that connects later
(or again) learns its seating on subscribing; ``serve`` sends the current seating again when it
starts. The table shows it on its OLED once for each seating it has not shown yet
(``Round 2: Ann v Bob`` / ``Ann, you are Red``) until OK or the next key.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cribpi.views.model import MessageScreen
from cribpi.views.seat import seat_screen

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

    from cribpi.app.loop import TableApp
    from cribpi.tournament.director import Director
    from cribpi.tournament.publisher import TablePublisher

__all__ = ["Seat", "seat_topic", "seat_body", "parse_seat", "cast", "follow", "listen", "show_on"]

log = logging.getLogger(__name__)
MAX_SEAT = 2048  # bytes: four names of 64 characters and the rest


def seat_topic(event: str, table: str) -> str:
    return f"cribpi/{event}/seats/{table}"


@dataclass(frozen=True)
class Seat:
    """A table's seating in a round: its players in seat order (none: not seated this round)."""

    round: int
    table: str
    kind: str = "qualifying"
    games: int | None = None
    players: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()

    def screen(self) -> MessageScreen:
        return seat_screen(self.round, self.table, self.players, self.colours, self.games, self.kind == "playoff")


def seat_body(seating: dict[str, Any], table: str) -> bytes:
    """``table``'s part of :meth:`Director.seating` as its message."""
    row = next((t for t in seating["tables"] if t["table"] == table), None)
    body = {"round": seating["round"], "table": table, "kind": seating["kind"],
            "games": row.get("games") if row else None,
            "players": row["players"] if row else [], "colours": row["colours"] if row else []}
    return json.dumps(body, separators=(",", ":")).encode()


def parse_seat(payload: bytes) -> Seat | None:
    """The seating a message says, or None for anything else (logged by the caller)."""
    if not payload or len(payload) > MAX_SEAT:
        return None
    try:
        body = json.loads(payload)
    except ValueError:
        return None

    def names(v: Any) -> bool:
        return type(v) is list and len(v) <= 4 and all(type(x) is str and 0 < len(x) <= 64 for x in v)

    if not isinstance(body, dict) or type(body.get("round")) is not int or body["round"] < 1 \
            or type(body.get("table")) is not str or body.get("kind") not in ("qualifying", "playoff") \
            or not (body.get("games") is None or type(body["games"]) is int) \
            or not names(body.get("players")) or not names(body.get("colours")) \
            or len(body["players"]) != len(body["colours"]):
        return None
    return Seat(body["round"], body["table"], body["kind"], body["games"], tuple(body["players"]),
                tuple(body["colours"]))


# -- the director's side ------------------------------------------------------------------------

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


# -- the table's side ---------------------------------------------------------------------------

def listen(publisher: TablePublisher, seated: Callable[[Seat], None]) -> None:
    """Call ``seated`` (on paho's thread) with each seating of ``publisher``'s table the director
    sends that differs from the last one (a reconnect brings the retained one again)."""
    topic = seat_topic(publisher.event, publisher.table)
    last: list[Seat] = []
    lock = threading.Lock()

    def on_message(client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        seat = parse_seat(bytes(message.payload))
        if seat is None or seat.table != publisher.table:
            log.warning("table %s: %s is not the director's seating", publisher.table, message.topic)
            return
        with lock:
            if last and last[0] == seat:
                return
            last[:] = [seat]
        seated(seat)

    publisher.follow(topic, on_message)


def show_on(app: TableApp) -> Callable[[Seat], None]:
    """What shows a seating on ``app``'s displays, from any thread: posted to the table's loop,
    which puts it in front of the screens (OK puts it away; an open menu stays on top)."""
    def seated(seat: Seat) -> None:
        def show() -> None:
            app.ui.screens.insert(0, seat.screen())
            app.publish((), ())
        app.mailbox.put(show)
    return seated
