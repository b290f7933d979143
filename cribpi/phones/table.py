"""The phones' side of the table: a listener of :class:`~cribpi.app.loop.TableApp` (run in its
loop) that keeps the state each phone is sent and its version, and the actions the server hands
in, each run in the loop (through ``TableApp.mailbox``) as the same logical actions the table's
keys make. An action names the version it was pressed on: one pressed on an older state is
refused with what changed since; a seat acts only for itself.

The version goes up with each event journalled (from any phone or the table's keys) and with
each new game; what a phone sees otherwise (a screen paged, a refusal shown) is pushed without
a new version, so a key is never refused for news that changed nothing in the game."""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from cribpi.app.listeners import Update
from cribpi.app.loop import TableApp
from cribpi.app.ui import describe_event, is_refusal
from cribpi.exc import CribpiError
from cribpi.game import expected
from cribpi.hal import Action, Kind
from cribpi.phones.seats import Seats
from cribpi.phones.state import card_refusal, keys_for, screen_words, seat_of_event, table_busy, table_state
from cribpi.rules.cards import Card
from cribpi.views.board import DEFAULT_COLOURS
from cribpi.views.model import MessageScreen

__all__ = ["PhoneTable", "Watcher", "Answer", "parse_action", "PhoneAction", "ACTION_WORDS"]

ACTION_WORDS = "card 5H, go, ok, undo, claim N, muggins SEAT N, confirm, dispute"
HISTORY = 64  # versions whose changes a stale key is told


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]


@dataclass(frozen=True)
class PhoneAction:
    word: str  # card, go, ok, undo, claim, muggins, confirm, dispute
    card: Card | None = None
    seat: int | None = None
    points: int | None = None


def parse_action(text: object) -> PhoneAction:
    """``card 5H``, ``claim 4``, ``muggins 1 2``...; raises ValueError naming what is accepted."""
    if not isinstance(text, str) or len(text) > 40:
        raise ValueError(f"the action must be a short string, one of: {ACTION_WORDS}")
    words = text.strip().lower().split()
    if not words:
        raise ValueError(f"the action is empty: one of {ACTION_WORDS}")
    word, args = words[0], words[1:]
    try:
        if word in ("go", "ok", "undo", "confirm", "dispute") and not args:
            return PhoneAction(word)
        if word == "card" and len(args) == 1:
            return PhoneAction(word, card=Card.parse(args[0]))
        if word == "claim" and len(args) == 1 and args[0].isdigit() and 0 <= int(args[0]) <= 29:
            return PhoneAction(word, points=int(args[0]))
        if word == "muggins" and len(args) == 2 and all(a.isdigit() for a in args) and 1 <= int(args[1]) <= 29:
            return PhoneAction(word, seat=int(args[0]), points=int(args[1]))
    except CribpiError as exc:
        raise ValueError(f"{text[:40]!r}: {exc}") from None
    raise ValueError(f"{text[:40]!r} is not an action: one of {ACTION_WORDS} (claim 0-29, muggins 1-29 points)")


class Watcher:
    """One live stream: the newest state's text, and an event set when it changes (set from the
    table's loop into the server's asyncio loop)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, text: str) -> None:
        self.loop = loop
        self.latest = text
        self.changed = asyncio.Event()
        self.changed.set()  # the whole state at once: a phone back from a locked screen resyncs

    def tell(self, text: str) -> None:
        self.loop.call_soon_threadsafe(self._set, text)

    def _set(self, text: str) -> None:
        self.latest = text
        self.changed.set()


class PhoneTable:
    """Subscribe it to ``app`` (it is a listener); the server calls :meth:`act` and :meth:`join`."""

    def __init__(self, app: TableApp, seats: Seats | None = None,
                 colours: tuple[tuple[int, int, int], ...] = DEFAULT_COLOURS) -> None:
        self.app = app
        self.seats = seats or Seats()
        self.colours = colours
        self.version = 0
        self.epoch = secrets.token_hex(4)  # this run of the table: a version is one of its run's
        self._game: object = self._game_now()  # the game now: its PIN is made here
        self.seats.new_game(app.ui.session.game_id)
        self._lock = threading.Lock()
        self.text = "{}"
        self.state: dict[str, Any] = {}
        self.history: deque[tuple[int, tuple[str, ...]]] = deque(maxlen=HISTORY)
        self.watchers: set[Watcher] = set()
        self.on_new_game: list[Callable[[str], None]] = []  # told the new PIN (the loop's thread)

    # -- in the table's loop -----------------------------------------------------------

    def _game_now(self) -> tuple[int | None, int]:
        """The game being played: its journal id, and its session (a table without a journal
        has no id; a new game is a new session either way). A match's next game is the same."""
        return self.app.ui.session.game_id, id(self.app.ui.session)

    def __call__(self, update: Update) -> None:
        game = self._game_now()
        if game != self._game:
            self._game = game
            self.seats.new_game(update.game_id)
            self.version += 1
            self.history.append((self.version, ("a new game began",)))
            for told in self.on_new_game:
                told(self.seats.pin)
        elif update.events:
            self.version += 1
            self.seats.changed = None  # a seat that changed hands is news until the game goes on
            self.history.append((self.version, tuple(describe_event(update.state, e) for e in update.events)))
        self.refresh()

    def refresh(self) -> None:
        """Make the state again and push it to every live stream if it changed."""
        ui = self.app.ui
        state = table_state(ui, ui.screen(), version=self.version, game=ui.session.game_id, taken=self.seats.taken(),
                            changed=self.seats.changed, colours=self.colours)
        state["epoch"] = self.epoch
        text = json.dumps(state, separators=(",", ":"))
        with self._lock:
            if text == self.text:
                return
            self.text, self.state = text, state
            watchers = list(self.watchers)
        for watcher in watchers:
            watcher.tell(text)

    def snapshot(self) -> tuple[str, dict[str, Any]]:
        with self._lock:
            return self.text, self.state

    def watch(self, watcher: Watcher) -> None:
        with self._lock:
            watcher.latest = self.text
            self.watchers.add(watcher)

    def unwatch(self, watcher: Watcher) -> None:
        with self._lock:
            self.watchers.discard(watcher)

    def changed_hands(self, seat: int) -> None:
        """Another phone took ``seat``: the table says so (a screen OK reads)."""
        state = self.app.ui.state
        name = state.names[seat] if seat < len(state.names) else f"seat {seat + 1}"
        self.app.ui.screens.append(MessageScreen((f"{name}'s seat is on", "another phone now"), "Phones"))
        self.app.publish((), ())

    def run(self, seat: int, version: int, action: PhoneAction) -> Answer:
        """``action`` of ``seat``'s phone, pressed on ``version``: checked, then handled as the
        table's keys are (journalled before any listener shows it)."""
        if version != self.version:
            return self._stale(version)
        ui = self.app.ui
        state = ui.state
        refused = self._authority(seat, action)
        if refused is not None:
            return refused
        if action.word == "claim":
            steps = [Action.peg(seat, action.points or 0), Action.plain(Kind.OK)] if action.points else [Action.plain(Kind.OK)]
            if not action.points and not (expected(state).seat == seat and "claim" in expected(state).actions):
                return Answer(422, {"error": "claim 0 is OK when the table asks for your claim", "reason": "refused"})
        elif action.word == "card" and action.card is not None:
            steps = [Action.of_card(action.card)]
        elif action.word == "muggins":
            steps = [Action.muggins(seat, action.points)]
        elif action.word in ("confirm", "dispute"):
            ui.screens.clear()  # the question itself, not a score left up, is answered
            steps = [Action.plain(Kind.OK if action.word == "confirm" else Kind.UNDO)]
        else:
            steps = [Action.plain({"go": Kind.GO, "ok": Kind.OK, "undo": Kind.UNDO}[action.word])]
        for step in steps:
            shown = ui.screens[0] if ui.screens else None
            self.app.handle(step)
            now = ui.screens[0] if ui.screens else None
            if now is not None and now is not shown and is_refusal(now):
                if ui.claims.tally is not None and action.word == "claim":
                    ui.claims.drop()  # the phone's claim is not left half keyed on the table
                    self.app.publish((), ())
                why = " ".join(screen_words(now)["lines"][:1]) or "refused"
                return Answer(422, {"error": why, "reason": "refused", "version": self.version})
        return Answer(200, {"ok": True, "version": self.version, "screen": screen_words(ui.screen())})

    def _stale(self, version: int) -> Answer:
        changed = [words for v, said in self.history if v > version for words in said]
        if not changed or self.history and self.history[0][0] > version + 1:
            changed.insert(0, f"the table moved on {self.version - version} step(s)")
        return Answer(409, {"error": "the table moved on since that key: " + "; ".join(changed[-5:]),
                            "reason": "stale", "changed": changed, "version": self.version})

    def _authority(self, seat: int, action: PhoneAction) -> Answer | None:
        """None: ``seat`` may make ``action`` now; else its refusal: 403 when the table waits on
        another seat (its card, go, claim, OK, the other side's confirmation), 422 when it waits
        on this seat or on no seat in particular and the key does nothing now."""
        ui = self.app.ui
        state = ui.state
        keys = keys_for(ui, seat)
        waits_on = expected(state).seat

        def mine(why: str) -> Answer:
            return Answer(403, {"error": why, "reason": "not_your_seat", "version": self.version})

        def refuse(why: str) -> Answer:
            return Answer(422, {"error": why, "reason": "refused", "version": self.version})

        def off(key: str, waiting: int | None = waits_on) -> Answer | None:
            """None if ``key`` is on for this seat; else refused, 403 if ``waiting`` is another seat."""
            if keys[key]["on"]:
                return None
            why = keys[key]["why"]
            return mine(why) if waiting is not None and waiting != seat else refuse(why)

        word = action.word
        busy = table_busy(ui)  # whoever's key it would be
        if busy is not None:
            return refuse(busy)
        if word == "card":
            refusal = card_refusal(state, seat, len(ui.entry.cards))  # not from its words: a player may be named "Dealer"
            return None if refusal is None else mine(refusal[0]) if refusal[1] else refuse(refusal[0])
        if word == "go":
            return off("go")
        if word == "muggins":
            if action.seat != seat:
                return mine(f"muggins is called by your own seat ({seat}), not seat {action.seat}")
            return None
        if word == "claim":
            deal = state.deal  # whose claim the table waits on: one pending, else the first unclaimed score
            owed = [m.seat for m in deal.unclaimed if m.points] if deal is not None else []
            claimer = deal.pending.seat if deal is not None and deal.pending is not None else \
                owed[0] if owed else waits_on
            return off("claim", claimer)
        if word in ("confirm", "dispute"):
            asked = ui.confirming()
            if keys["confirm"]["on"]:
                return None
            side = state.team_of(seat) if state.names else seat
            return mine(keys["confirm"]["why"]) if asked is not None and asked != side else refuse(keys["confirm"]["why"])
        if word == "undo":
            if ui.confirming() is not None:
                return refuse("the table asks for the result: confirm or dispute it")
            if ui.claims.tally is not None or ui.entry.rank is not None or ui.entry.cards:
                return refuse("something is being keyed on the table: UNDO there takes it back")
            events = ui.session.game.events
            if len(events) <= 1 or seat_of_event(events[-1]) != seat:
                return mine("your UNDO takes back only your own last action while it is the table's last")
            return None
        if word == "ok":
            return off("ok")
        return refuse(f"{word} is not an action")

    # -- from the server's thread -------------------------------------------------------

    def post(self, call: Callable[[], Answer]) -> Future[Answer]:
        """Run ``call`` in the table's loop; its answer comes in the future."""
        future: Future[Answer] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(call())
            except Exception as exc:  # noqa: BLE001 - the phone is answered, the loop goes on
                future.set_exception(exc)

        self.app.mailbox.put(run)
        return future
