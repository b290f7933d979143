"""The director's state: the event's database, what each table shows, the counters, the
listeners (the pages); the constants its parts share."""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from cribpi.exc import ConfigError
from cribpi.tournament.director.limits import Rates, SeenIds
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.director.quiet import Quiet
from cribpi.tournament.director.roomlink import Reach
from cribpi.tournament.director.standings import Standings

WAITING_PER_TABLE = 200  # results a table may have waiting for their players to be registered
NAME_MAX = 64  # a player's name, in characters
SEAT_COLOURS = ("Red", "Blue", "Green", "Yellow")  # seat 1, 2, 3, 4: the pages' colours of each side

log = logging.getLogger("cribpi.tournament.director")  # one logger for the director, whichever part logs
Notify = Callable[[str, dict[str, Any]], None]  # (what changed: "table" or "standings", its data)


class NoSuchResult(ConfigError, LookupError):
    """A correction names a result the event does not have."""


class Base:
    def __init__(self, db: EventDB) -> None:
        self.db = db
        self.event = db.get("event")
        self.lock = threading.RLock()
        self.refused: Counter[str] = Counter()
        self.accepted: Counter[str] = Counter()
        self.live: dict[str, dict[str, Any]] = {t: {"table": t, "online": False, "state": None} for t in db.tables()}
        self.reach = Reach(db)  # an event of several rooms: which rooms the director can reach, since when
        for room, state in self.reach.rooms.items():
            for table in state["tables"]:
                if table in self.live:
                    self.live[table].update(room=room, reachable=state["reachable"])
        self.newest: dict[str, int] = {}  # table -> newest event id
        self.since: dict[str, int] = {}  # table -> the id no older board may come under (reset on connect)
        self.shown: dict[str, set[int]] = {}  # table -> the ids of its states shown since then
        self.seen: dict[str, SeenIds] = {}  # table -> its newest event ids (a window: see .limits)
        self.rates = Rates(time.monotonic)  # each table's events and results a second (see .limits)
        self.quiet = Quiet(log)  # refusals and errors logged a line a second at most, by kind
        self.behind: Counter[str] = Counter()  # table -> its boards refused as out of order in a row
        self.clock: Callable[[], float] = time.time  # seconds: how far ahead a table's ids may be
        # table -> the furthest on it claimed to be (µs: its ids and its clock, ``at``), refused or
        # not: the room's clock, when the director's is behind, is what two of them reach
        self.claims: dict[str, int] = {}
        self.room_clock: int | None = None  # the room's clock when last worked out (it only grows)
        self.claimed = False  # a claim grew since then
        self.future: dict[str, str] = {}  # table -> why its ids are refused as from_the_future (until one is not)
        self.behind_room = False  # the director's clock was found behind the room's (logged once)
        self.listeners: list[Notify] = []
        self.standings = Standings(db.players())
        self.playoff_games: dict[frozenset[str], Counter[str]] = {}
        self.client: mqtt.Client | None = None
        # what was dropped other than a table's message refused (``refused``), by reason: ``broker``
        # (the connection to the broker lost: a takeover of its client id would show here),
        # ``wall`` (a page's live stream fell behind: its oldest changes let go), ``board`` (a
        # table's board drawn over by a newer one before a page was sent it), ``flush`` (a group
        # commit failed: its messages are delivered again), ``callback`` (an error in the link)
        self.drops: Counter[str] = Counter()
        # Set once the broker holds the director's subscription (from then on its persistent
        # session keeps every message for it) and the director announced its session.
        self.subscribed = threading.Event()
        self.acks = threading.Lock()  # the order of acknowledgements
        self.unacked: list[tuple[int, int]] = []  # (mid, qos) waiting for the fsync, oldest first
        self.undone: list[tuple[str, int]] = []  # (table, id) to tell each table once the fsync is made
        self.told = 0  # ids the tables were told the director has
        self.syncing = False  # the flusher holds acknowledgements older than any in unacked
        self.flush_wanted = threading.Event()
        self.flusher: threading.Thread | None = None
        self.loop_thread: threading.Thread | None = None  # paho's network loop
        self.stopping = False
        self.left_out: set[int] = set()  # stored results the standings could not use (logged at start)

    @property
    def game_length(self) -> int:
        """The event's game: to 121, or to 61 (set at init)."""
        return int(self.db.get("game_length", "121"))

    def _notify(self, what: str, data: dict[str, Any]) -> None:
        for listener in self.listeners:
            listener(what, data)

    def health(self) -> dict[str, Any]:
        with self.lock:
            rooms = self.reach.listed()
        return {"accepted": dict(self.accepted), "refused": dict(self.refused), "session": self.db.get("session"),
                "drops": dict(self.drops), "warnings": self.warnings(), **({"rooms": rooms} if rooms else {})}

    def warnings(self) -> list[str]:
        """What the director should look at (``GET /api/health``); see :mod:`.intake`."""
        return []
