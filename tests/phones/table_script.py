"""Whole deals played from a script, and what the table made of them, for comparing a game
keyed on the board alone with the same game keyed from phones beside the simulator's keys.

A deal is scripted as players would play it (the cut, the starter, the cards each seat lays in
order, the crib); :func:`next_step` reads the table (its state and its screens) and says the
next thing someone does, as a seat's logical action in the phones' words (``card 5H``, ``go``,
``ok``, ``claim 3``: docs/phones.md) and who does it (a seat, or None: anyone at the table).
:func:`board_actions` turns a step into the shared keypad's presses (two a card, PEG, points and
OK a claim). :class:`Recorder`, a listener on the table, keeps, for each update that journalled
events, the events, the LED frame and the OLED image: those must be the same whoever keyed.
"""

from __future__ import annotations

import dataclasses
import random
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.app.listeners import Update
from cribpi.game import Mode, Phase, expected
from cribpi.game.queries import claimable
from cribpi.hal import Action
from cribpi.hal.mock import MockParts, open_mock
from cribpi.rules import Card
from cribpi.store.journal import Store

__all__ = ["DealScript", "Step", "Recorder", "Snapshot", "Table", "DEALS", "next_step", "deal_over", "board_actions",
           "board_table", "play_on_board", "play_deals", "pressed", "LoopTable", "call", "settle", "sim_key", "Cable"]


@dataclasses.dataclass(frozen=True)
class DealScript:
    """One deal: the starter, the cards each seat lays in the order it lays them (the first that
    fits the count; GO when none does), and the crib's four cards."""

    starter: str
    hands: tuple[tuple[str, ...], ...]
    crib: tuple[str, ...]


#: The cut (a card a seat, the lowest deals) and two deals for 2, 3 and 4 players: every card
#: of a deal differs, fifteens, pairs, runs and goes are made in the play.
CUTS = ("AC", "KD", "QH", "JS")
DEALS: dict[int, tuple[DealScript, ...]] = {
    2: (DealScript("5S", (("TC", "9C", "8C", "7C"), ("TD", "9D", "8D", "7D")), ("2C", "3C", "4H", "6S")),
        DealScript("4D", (("5H", "6C", "JC", "2S"), ("5C", "6D", "QS", "3H")), ("AH", "7S", "9H", "KC"))),
    3: (DealScript("5S", (("TC", "9C", "8C", "7C"), ("TD", "9D", "8D", "7D"), ("TH", "9H", "8H", "7H")),
                   ("2C", "3C", "4H", "6S")),
        DealScript("4D", (("5H", "6C", "JC", "2S"), ("5C", "6D", "QS", "3H"), ("5D", "6H", "KS", "AS")),
                   ("AH", "7S", "9S", "KC"))),
    4: (DealScript("5S", (("TC", "9C", "8C", "7C"), ("TD", "9D", "8D", "7D"), ("TH", "9H", "8H", "7H"),
                          ("TS", "9S", "8S", "7S")), ("2C", "3C", "4H", "6S")),
        DealScript("4D", (("5H", "6C", "JC", "2S"), ("5C", "6D", "QS", "3H"), ("5D", "6H", "KS", "AS"),
                          ("4C", "7H", "KH", "3S")), ("AH", "7S", "9C", "KC"))),
}


@dataclasses.dataclass(frozen=True)
class Step:
    """What one player does next: ``seat`` (None: anyone at the table) and the action."""

    seat: int | None
    action: str
    what: str = ""  # "crib": a card of the crib


def _count(state) -> int:  # type: ignore[no-untyped-def]
    deal = state.deal
    return sum(min(card.rank, 10) for card in deal.count) if deal is not None and deal.count else 0


def _play_claim(ui: TableUI) -> Step | None:
    """Claim mode: the seat that just laid claims what its card made, before anything else."""
    state = ui.state
    deal = state.deal
    if state.mode is not Mode.CLAIM or deal is None or not deal.played or not deal.unclaimed:
        return None
    seat = deal.played[-1][0]
    moment = claimable(state, seat)
    if moment is not None and moment.points and moment in deal.unclaimed:
        return Step(seat, f"claim {moment.points}")
    return None


def deal_over(ui: TableUI) -> bool:
    """The deal is counted and its screens read: its last step is the OK to the next deal."""
    return ui.state.phase is Phase.DONE and not ui.screens


def next_step(ui: TableUI, deal: DealScript) -> Step:
    """The next step of ``deal`` on the table as it is now."""
    if ui.screens:
        return Step(None, "ok")  # a score, a show, an alert: read, then OK
    state = ui.state
    want = expected(state)
    if state.phase is Phase.CUT:
        return Step(None, f"card {CUTS[len(ui.entry.cards)]}")
    if state.phase is Phase.DONE:
        return Step(None, "ok")  # the deal is counted: the next one
    if state.deal is None:
        raise AssertionError(f"no deal: {state.phase}")
    if state.phase is Phase.STARTER:
        return Step(state.deal.dealer, f"card {deal.starter}")
    claim = _play_claim(ui)
    if claim is not None:
        return claim
    if want.actions == ("claim",) and want.seat is not None:
        moment = claimable(state, want.seat)
        return Step(want.seat, f"claim {moment.points if moment is not None else 0}")
    if "crib" in want.actions:
        return Step(state.deal.dealer, f"card {deal.crib[len(ui.entry.cards)]}", "crib")
    if state.phase is Phase.PLAY and want.seat is not None:
        laid = {card for _, card in state.deal.played}
        count = _count(state)
        fits = [text for text in deal.hands[want.seat]
                if Card.parse(text) not in laid and count + min(Card.parse(text).rank, 10) <= 31]
        return Step(want.seat, f"card {fits[0]}" if fits else "go")
    raise AssertionError(f"no step for {state.phase}, {want}: {ui.screen()}")


def board_actions(step: Step, ui: TableUI) -> list[Action]:
    """The shared keypad's presses for ``step``: a card is its rank key then its suit key, a
    claim PEG with the seat and points then OK (a claim of 0: OK, and OK again when asked)."""
    verb, *args = step.action.split()
    if verb == "card":
        card = Card.parse(args[0])
        return [Action.rank_key(card.rank), Action.suit_key(card.suit)]
    if verb == "claim":
        points = int(args[0])
        assert step.seat is not None
        return [Action.peg(step.seat, points), Action.plain("ok")] if points else [Action.plain("ok")]
    return [Action.plain(verb)]


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """An update that journalled events: the events, and what the LEDs and the OLED showed."""

    events: tuple[str, ...]
    frame: object
    image: bytes

    def __str__(self) -> str:
        return f"{', '.join(self.events)}"


class Recorder:
    """Subscribed after the parts' view: each update with events, as the parts showed it."""

    def __init__(self, parts: MockParts) -> None:
        self.parts = parts
        self.snapshots: list[Snapshot] = []
        self.changed = threading.Condition()
        self.updates = 0

    def __call__(self, update: Update) -> None:
        if update.events:
            image = self.parts.image
            self.snapshots.append(Snapshot(tuple(repr(e) for e in update.events), self.parts.pegboard.frame,
                                           image.tobytes() if image is not None else b""))
        with self.changed:
            self.updates += 1
            self.changed.notify_all()


@dataclasses.dataclass
class Table:
    parts: MockParts
    ui: TableUI
    app: TableApp
    store: Store
    recorder: Recorder
    presses: int = 0  # the shared keypad's presses
    kept: list[str] | None = None  # the journal as it was read back when the table closed

    def journal(self) -> list[str]:
        """Every event of the table's games as the journal (SQLite) has them, read back (in the
        thread that opened it; after the table closed, as it was then)."""
        if self.kept is not None:
            return self.kept
        return [repr(e) for game in sorted(self.store.games(), key=lambda g: g["id"])
                for e in self.store.events(game["id"])]


@contextmanager
def board_table(folder: Path, players: int, mode: Mode, seed: int = 7) -> Iterator[Table]:
    """A table on mock parts with its journal in ``folder``: a fresh game of ``players`` in
    ``mode`` (its cut next)."""
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder / "journal.db")
    parts = open_mock()
    settings = TableSettings(mode=mode, players=players)
    ui = TableUI(settings, store=store, rng=random.Random(seed))
    app = TableApp(parts, ui)
    recorder = Recorder(parts)
    app.subscribe(recorder)
    app.start()
    table = Table(parts, ui, app, store, recorder)
    try:
        yield table
    finally:
        app.close()
        table.kept = table.journal()
        store.close()


def pressed(table: Table, action: Action) -> None:
    """One press of the shared keypad, handled at once (no loop running)."""
    table.presses += 1
    table.app.handle(action)


def play_deals(table: Table, deals: Sequence[DealScript], do: Callable[[Step], None], limit: int = 400,
               ask: Callable[[Table, Callable[[], T]], T] = lambda table, fn: fn()) -> None:
    """The cut, then ``deals`` one after another, each step done by ``do``; ``ask`` reads the
    table (:func:`call` for a table whose loop runs in its own thread)."""
    for deal in deals:
        for _ in range(limit):
            last, step = ask(table, lambda: (deal_over(table.ui), next_step(table.ui, deal)))
            do(step)
            if last:
                break
        else:
            raise AssertionError(f"deal {deal} never ended: {table.ui.screen()}")


def play_on_board(table: Table, deals: Sequence[DealScript]) -> None:
    """The deals keyed on the shared keypad alone."""
    play_deals(table, deals, lambda step: [pressed(table, a) for a in board_actions(step, table.ui)])


def settle(app: TableApp, timeout: float = 10.0) -> None:
    """Wait until every action queued so far has been handled by the running loop: a call
    posted to its mailbox runs in the loop's own thread, between two pumps, so when it finds
    the action queue empty every earlier action was drained and handled (else it asks again)."""
    done = threading.Event()

    def check() -> None:
        if app.queue._queue.empty():  # the loop's thread: no pump is half done
            done.set()
        else:
            app.mailbox.put(check)
    app.mailbox.put(check)
    assert done.wait(timeout), "the table's loop did not handle its queue in time"


class LoopTable:
    """A table built and run in a thread of its own, as the daemon runs it (its loop, timers and
    animations; the journal used from the thread that opened it): the test's thread asks it
    things with :meth:`call` (run in the loop, between two actions) and keys it with
    :func:`sim_key`."""

    def __init__(self, folder: Path, players: int, mode: Mode, setup: Callable[[Table], object] = lambda t: None) -> None:
        self.setup = setup  # run in the loop's thread before the loop (a phones' server subscribed)
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.table: Table | None = None
        self.failed: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(folder, players, mode), daemon=True)

    def _run(self, folder: Path, players: int, mode: Mode) -> None:
        try:
            with board_table(folder, players, mode) as table:
                self.table = table
                self.setup(table)
                self.ready.set()
                table.app.run(should_stop=self.stop.is_set)
        except BaseException as exc:  # noqa: BLE001 - told to the test's thread
            self.failed = exc
            self.ready.set()

    def __enter__(self) -> Table:
        self.thread.start()
        assert self.ready.wait(30) and self.table is not None, self.failed
        return self.table

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.table is not None:
            self.table.app.mailbox.put(lambda: None)  # wakes the loop to see the stop
        self.thread.join(10)
        assert not self.thread.is_alive() and self.failed is None, self.failed


T = TypeVar("T")


def call(table: Table, fn: Callable[[], T], timeout: float = 10.0) -> T:
    """``fn()`` run in the table's loop (between two actions), its result handed back."""
    done = threading.Event()
    box: list[T] = []
    table.app.mailbox.put(lambda: (box.append(fn()), done.set()))
    assert done.wait(timeout), "the table's loop did not answer in time"
    return box[0]


def sim_key(table: Table, action: Action) -> None:
    """A key from the simulator's action queue into the running loop, and handled."""
    table.presses += 1
    table.app.queue.put(action)
    settle(table.app)


class Cable:
    """A phone's way to the table: a TCP forwarder on a free loopback port to ``port``, whose
    connections can be cut (what the phone's live stream sees when its Wi-Fi goes: the
    connection dies; Chromium's offline emulation alone keeps an open stream going)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: set[socket.socket] = set()
        self.quiet: set[socket.socket] = set()  # open, but what they carry is lost
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                phone, _ = self.listener.accept()
            except OSError:
                return  # closed
            try:
                table = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                phone.close()
                continue
            pumps = [2]  # the pumps still using the pair: the last one out closes both
            with self.lock:
                self.open |= {phone, table}
            for a, b in ((phone, table), (table, phone)):
                threading.Thread(target=self._pump, args=(a, b, pumps), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, pumps: list[int]) -> None:
        try:
            while data := source.recv(65536):
                if source not in self.quiet:
                    sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                self._drop(s)  # the other pump's recv ends too
            with self.lock:
                pumps[0] -= 1
                last = pumps[0] == 0
            if last:  # closed only when no thread is in a call on them: their fd numbers cannot
                source.close()  # be taken by a new connection under a pump still reading them
                sink.close()

    def _drop(self, s: socket.socket) -> None:
        """Its connection ends both ways (the pumps close it when they are done)."""
        with self.lock:
            self.open.discard(s)
            self.quiet.discard(s)
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def cut(self) -> None:
        """Every connection through the cable dies now."""
        with self.lock:
            cut = list(self.open)
        for s in cut:
            self._drop(s)

    def connections(self) -> int:
        """The connections open through the cable now."""
        with self.lock:
            return len(self.open) // 2

    def hush(self) -> None:
        """Every connection through the cable goes quiet now: open, no reset and no end, but
        nothing it carries arrives either way (a phone's Wi-Fi gone without a word). A
        connection's end still goes through; new connections carry as before."""
        with self.lock:
            self.quiet |= self.open

    def close(self) -> None:
        self.listener.close()
        self.cut()
