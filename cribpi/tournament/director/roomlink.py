"""Which rooms the director can reach, in an event of several rooms (:mod:`.rooms`).

Each room's bridge says on ``cribpi/<event>/rooms/<room>`` (retained, mosquitto's bridge
notifications) ``1`` when its link to the director's broker comes up and, as its will on the
director's broker, ``0`` when the link goes down. The director keeps each room's state and
since when (in the event's database: a director restarted while a room is out of reach still
says since when), and its pages show it as they show a table offline: ``/api/rooms``, each
board of a room out of reach, ``/api/health``'s ``rooms`` and ``warnings``.

A room never heard from (its bridge has not come up since the director's broker started) is
out of reach from the moment the director started.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from cribpi.tournament.director.eventdb import EventDB

__all__ = ["Reach", "room_of_topic"]


def room_of_topic(event: str, topic: str) -> str | None:
    """The room a bridge notification's topic names, or None for any other topic."""
    prefix = f"cribpi/{event}/rooms/"
    if not topic.startswith(prefix):
        return None
    room = topic[len(prefix):]
    return room if room and "/" not in room else ""


class Reach:
    """Each room's link: up or not, since when (seconds, the director's clock)."""

    def __init__(self, db: EventDB, clock: Callable[[], float] = time.time) -> None:
        self.db, self.clock = db, clock
        try:
            rooms = json.loads(db.get("rooms") or "{}")
        except ValueError:
            rooms = {}
        self.tables: dict[str, list[str]] = {str(r): [str(t) for t in ts] for r, ts in rooms.items()} \
            if isinstance(rooms, dict) else {}
        start = clock()
        self.rooms: dict[str, dict[str, Any]] = {}
        for room, tables in self.tables.items():
            stored = db.get(f"room_down:{room}")
            self.rooms[room] = {"room": room, "tables": tables, "reachable": False, "heard": False,
                                "since": float(stored) if stored else start}

    def room_of(self, table: str) -> str | None:
        return next((room for room, tables in self.tables.items() if table in tables), None)

    def said(self, room: str, payload: bytes, *, retained: bool) -> dict[str, Any] | None:
        """A bridge's notification: the room's state if it changed (None if not, or not a room)."""
        state = self.rooms.get(room)
        if state is None or payload not in (b"0", b"1"):
            return None
        up, heard = payload == b"1", state["heard"]
        state["heard"] = True
        if up:
            if state["reachable"]:
                return None
            state["reachable"], state["since"] = True, self.clock()
            self.db.put(f"room_down:{room}", "")
        else:
            if not state["reachable"] and heard:
                return None
            # down now, or (a retained 0, the director starting) since it last saw the room go
            state["since"] = self.clock() if state["reachable"] else state["since"]
            state["reachable"] = False
            self.db.put(f"room_down:{room}", repr(state["since"]))
        return dict(state)

    def out_of_reach(self) -> list[dict[str, Any]]:
        return [dict(s) for s in self.rooms.values() if not s["reachable"]]

    def listed(self) -> list[dict[str, Any]]:
        return [dict(s) for s in self.rooms.values()]

    def warnings(self) -> list[str]:
        said = []
        for state in self.out_of_reach():
            when = time.strftime("%H:%M:%S", time.localtime(state["since"]))
            said.append(f"room {state['room']} is out of reach since {when}" + (
                "" if state["heard"] else " (its bridge has not come up since the director started)")
                + f": its {len(state['tables'])} tables' results wait in its broker and their outboxes, and come"
                " when its link is back")
        return said
