"""Tables without players: random complete games through the real engine, told to a
:class:`~cribpi.tournament.table.publisher.TablePublisher` exactly as the app tells its listeners.
For ``cribpi loadgen``, the benchmarks and the tests."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from cribpi.app.listeners import Listener, Update
from cribpi.game import Effect, Event, NewGame, Phase, State, apply
from cribpi.game.events import Confirm
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC

if TYPE_CHECKING:
    from cribpi.tournament.broker import Broker
from cribpi.views.table import board_model, scores_screen

__all__ = ["update_for", "play_match", "start_next", "table_games", "player_names", "table_groups",
           "PER_PROCESS", "probe", "Seating", "seated_games", "WAITING", "first_game_id"]

OVER = (Phase.GAME_OVER, Phase.MATCH_OVER)
#: Tables one process plays. paho's network loop uses select(), which stops at file descriptor
#: 1024, and each table holds a socket, paho's wake-up pair and its outbox's three SQLite files.
PER_PROCESS = 100


def update_for(state: State, event: Event, effects: tuple[Effect, ...], game_id: int) -> Update:
    """What the app tells its listeners after ``event`` (the onlookers' page on its screen)."""
    page = scores_screen(state)
    return Update(screen=page, scores=page, board=board_model(state), state=state, events=(event,),
                  effects=effects, game_id=game_id)


def play_match(names: Sequence[str], rng: random.Random, listener: Listener, game_id: int,
               match_games: int = 1) -> Iterator[State]:
    """Play one random match between ``names`` at a table, one event per step (yielding the
    state after it, so the caller sets the pace); at each game's end every side confirms the
    result, as a tournament table asks. The driver's own names are replaced by ``names``: they
    change nothing it chooses."""
    state = State()
    for event, _ in random_game_events(rng, ACC.replace(players=len(names)), match_games=match_games):
        if isinstance(event, NewGame):
            event = NewGame(tuple(names), event.rules, event.mode, event.match_games)
        over = state.phase in OVER
        state, effects = apply(state, event)
        listener(update_for(state, event, effects, game_id))
        yield state
        if not over and state.phase in OVER:
            for side in range(len(state.scores)):
                state, effects = apply(state, Confirm(side))
                listener(update_for(state, Confirm(side), effects, game_id))
                yield state


def start_next(names: Sequence[str], listener: Listener, game_id: int) -> None:
    """The table starts a new match (after the last game of the one before)."""
    event = NewGame(tuple(names), ACC.replace(players=len(names)))
    state, effects = apply(State(), event)
    listener(update_for(state, event, effects, game_id))


def player_names(table: int) -> tuple[str, str]:
    """The players the load generator seats at table ``t<table>``."""
    return f"P{2 * table - 1:03}", f"P{2 * table:03}"


def table_games(names: Sequence[str], rng: random.Random, listener: Listener, games: int,
                first_game: int = 1) -> Iterator[State]:
    """``games`` one-game matches at a table (game ids from ``first_game``), each result
    confirmed, then the next one started."""
    for game in range(first_game, first_game + games):
        yield from play_match(names, rng, listener, game)
    start_next(names, listener, first_game + games)


def first_game_id(now: float | None = None) -> int:
    """A run's first game id: the time in milliseconds, so a second run (or a second loadgen
    in the room) never reuses the game ids of the first (the director would take its results
    for replays)."""
    return int((time.time() if now is None else now) * 1000)


class _Waiting(State):
    """What a table following the seating yields while no round is seated for it."""


WAITING = _Waiting()


class Seating:
    """The director's seating (``/api/seating`` at ``url``), asked at most once every
    ``every`` seconds however many tables follow it; the last answer while it is unreachable."""

    def __init__(self, url: str, every: float = 1.0) -> None:
        self.url, self.every = url.rstrip("/") + "/api/seating", every
        self.asked: float = -every
        self.last: dict[str, Any] | None = None

    def now(self) -> dict[str, Any] | None:
        import json
        import urllib.request

        if time.monotonic() - self.asked >= self.every:
            self.asked = time.monotonic()
            try:
                with urllib.request.urlopen(self.url, timeout=5) as response:  # noqa: S310 (the director's own URL)
                    self.last = json.loads(response.read())
            except (OSError, ValueError):
                pass
        return self.last


def seated_games(table: str, seating: Seating, rng: random.Random, listener: Listener, first_game: int,
                 rounds: int) -> Iterator[State]:
    """Follow the director's seating for ``rounds`` rounds (counted from the first one seen
    after starting): in each round that seats ``table``, play its match with the players it
    seats there (a qualifying match as its games, one result each; a playoff match as a best-of
    match, over when a side has won it), then wait for the next round (yielding ``WAITING``)."""
    game, done = first_game, 0
    seen: int | None = None
    while done < rounds:
        now = seating.now()
        number = now.get("round") if now else None
        if not isinstance(number, int) or number < 1 or number == seen:
            yield WAITING
            continue
        seen, done = number, done + 1
        seat = next((t for t in now.get("tables", ()) if t.get("table") == table), None) if now else None
        if seat is None:
            continue  # sits out this round
        names, games = seat["players"], int(seat.get("games") or 1)
        if now and now.get("kind") == "playoff":
            yield from play_match(names, rng, listener, game, match_games=games)
            game += 1
        else:
            for _ in range(games):
                yield from play_match(names, rng, listener, game)
                game += 1
        start_next(names, listener, game)


def table_groups(first: int, count: int, per_process: int = PER_PROCESS) -> list[range]:
    """Tables ``first`` .. ``first + count - 1`` split into as few processes' shares as
    ``per_process`` allows, as even as can be (160 tables: 80 and 80, not 100 and 60)."""
    groups = -(-count // per_process)
    size, extra = divmod(count, groups)
    shares, start = [], first
    for n in range(groups):
        end = start + size + (n < extra)
        shares.append(range(start, end))
        start = end
    return shares


def probe(broker: Broker, timeout: float) -> str | None:
    """Connect to ``broker`` once as it says (its user and password): ``None`` when it takes
    the connection, else why not (its refusal, or that it did not answer within ``timeout`` s)."""
    from cribpi.tournament.broker import new_client

    answered = threading.Event()
    said: list[str] = []

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            said.append(f"it refuses {broker.username or 'a client without a user name'}: {reason}")
        answered.set()

    client = new_client(broker)
    client.on_connect = on_connect
    try:
        client.connect_async(broker.host, broker.port, keepalive=15)
        client.loop_start()
        if not answered.wait(timeout):
            return f"no answer within {timeout:g} s"
        return said[0] if said else None
    finally:
        client.disconnect()
        client.loop_stop()
