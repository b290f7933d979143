"""The round's seating as a message, the one both sides share (issue 21, item 13).

When the director seats a round it tells every table, retained on ``cribpi/<event>/seats/<table>``
(only the director writes there; a table reads only its own), who sits there and each seat's
colour, or that the round leaves the table empty. Retained, so a table that connects later
(or again) learns its seating on subscribing; ``serve`` sends the current seating again when it
starts (:mod:`cribpi.tournament.director.casting`). The table shows and plays it
(:mod:`cribpi.tournament.table.seatcast`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from cribpi.tournament.messages import BadMessage, loads
from cribpi.views.model import MessageScreen
from cribpi.views.seat import seat_screen

__all__ = ["Seat", "seat_topic", "seat_body", "parse_seat", "MAX_SEAT"]

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
        body = loads(payload, "seating", limit=MAX_SEAT)  # bounded in size and depth
    except BadMessage:
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
