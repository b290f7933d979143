"""The table's publisher against a real mosquitto: what reaches the broker, what waits in the
outbox while it is down, and what the room's ACL refuses."""

from __future__ import annotations

import inspect
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.app.listeners import Update
from cribpi.game import Mode, State
from cribpi.hal import Action
from cribpi.hal.mock import open_mock
from cribpi.tournament.broker import parse_broker
from cribpi.tournament.table.loadgen import play_match, start_next
from cribpi.tournament.table.outbox import Outbox
from cribpi.tournament.table.publisher import TablePublisher
from tests.tournament.conftest import EVENT, Mosquitto

pytestmark = pytest.mark.mqtt


class Listener:
    """A plain MQTT client on the director's account, collecting what it receives."""

    def __init__(self, broker: Mosquitto, user: str = "director") -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self.ready = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.username_pw_set(user, broker.room.credentials[user])
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(f"cribpi/{EVENT}/#", qos=1)
        self.client.on_subscribe = lambda c, u, mid, codes, p: self.ready.set()  # the broker holds it
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, m.payload, m.retain))
        self.client.connect("127.0.0.1", broker.room.port)
        self.client.loop_start()
        assert self.ready.wait(30)

    def of(self, kind: str) -> list[dict[str, object]]:
        return [json.loads(p) for t, p, _ in self.messages if t.endswith("/" + kind)]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def publisher(broker: Mosquitto, tmp_path: Path, table: str = "t1", password: str | None = None) -> TablePublisher:
    creds = broker.room.credentials
    url = parse_broker(broker.url, username=table, password=password or creds[table])
    return TablePublisher(url, EVENT, table, Outbox(tmp_path / f"{table}-outbox.db"), max_delay=1)


def play(pub: TablePublisher, seed: int, game_id: int = 1, match_games: int = 1) -> None:
    for _ in play_match(("Ann", "Ben"), random.Random(seed), pub, game_id, match_games):
        pass


def wait_for(check: Callable[[], bool], timeout: float = 60.0, what: str | None = None) -> None:
    """Poll ``check`` till it holds; the deadline is generous for a 2-core CI machine with both
    cores loaded. A timeout names what was awaited: ``what``, else the check's own source line."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or described(check)}")
        time.sleep(0.02)


def described(check: Callable[[], object]) -> str:
    """The source line of ``check`` (a lambda's is the wait_for call around it), or its name."""
    try:
        return " ".join(inspect.getsource(check).split())
    except (OSError, TypeError):
        return getattr(check, "__qualname__", repr(check))


def test_a_game_reaches_the_broker_with_ids_in_order_and_a_confirmed_result(broker: Mosquitto, tmp_path: Path) -> None:
    seen = Listener(broker)
    pub = publisher(broker, tmp_path)
    pub.start()
    try:
        play(pub, seed=3)  # each side confirms at the end
        assert not pub.outbox.held()
        start_next(("Ann", "Ben"), pub, game_id=2)
        wait_for(lambda: pub.outbox.unsent() == 0 and len(seen.of("result")) == 1)
    finally:
        pub.stop()
    wait_for(lambda: seen.messages[-1][:2] == (pub.topic("status"), b"offline"))  # the goodbye comes last
    events = seen.of("events")
    ids = [e["id"] for e in events]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert events[0]["event"]["type"] == "new_game"
    assert [e["event"] for e in events if e["event"]["type"] == "confirm"] == [
        {"type": "confirm", "side": 0, "agree": True}, {"type": "confirm", "side": 1, "agree": True}]
    (result,) = seen.of("result")
    assert result["status"] == "confirmed" and result["game"] == 1 and result["players"] == ["Ann", "Ben"]
    assert max(result["scores"]) >= 121 and result["scores"][result["winner"]] == max(result["scores"])
    state = seen.of("state")[-1]
    assert state["game"] == 2 and state["status"] == "playing" and state["players"] == ["Ann", "Ben"]
    statuses = [p for t, p, _ in seen.messages if t.endswith("/status")]
    assert statuses[0] == b"online" and statuses[-1] == b"offline"
    seen.close()


def test_broker_down_for_a_whole_game_then_everything_arrives_once(broker: Mosquitto, tmp_path: Path) -> None:
    pub = publisher(broker, tmp_path)
    pub.start()
    wait_for(lambda: pub.connected)
    broker.stop()
    wait_for(lambda: not pub.connected)
    timer = _Timer(pub)
    for _ in play_match(("Ann", "Ben"), random.Random(5), timer, 1):
        pass
    start_next(("Ann", "Ben"), pub, game_id=2)
    queued = [row for row, _, _ in pub.outbox.pending(0, 10_000)]
    assert len(queued) > 50 and pub.outbox.unsent() == len(queued)
    broker.start()
    seen = Listener(broker)
    try:
        wait_for(lambda: pub.outbox.unsent() == 0)
        wait_for(lambda: len(seen.of("result")) == 1)
        # the next game's events follow the result: the broker's ack is no sign the listener has them
        wait_for(lambda: len(seen.of("events")) + len(seen.of("result")) >= len(queued))
    finally:
        pub.stop()
    ids = [e["id"] for e in seen.of("events")] + [r["id"] for r in seen.of("result")]
    assert sorted(ids) == queued  # every queued message, each once
    # The table never waits on the missing broker (a connect attempt would take a second or
    # more); the bound leaves room for an outbox fsync on a loaded CI disk, which is no wait on it.
    assert timer.slowest < 0.5, f"a listener call took {timer.slowest * 1000:.1f} ms with the broker down"
    seen.close()


class _Timer:
    """Wraps the publisher to time each listener call (the table's thread)."""

    def __init__(self, pub: TablePublisher) -> None:
        self.pub, self.slowest = pub, 0.0

    def __call__(self, update: Update) -> None:
        start = time.perf_counter()
        self.pub(update)
        self.slowest = max(self.slowest, time.perf_counter() - start)


def test_undoing_the_end_of_a_game_publishes_it_as_disputed(broker: Mosquitto, tmp_path: Path) -> None:
    from cribpi.game import Undo
    from cribpi.tournament.table.loadgen import update_for

    seen = Listener(broker)
    pub = publisher(broker, tmp_path)
    pub.start()
    states = list(_to_the_end(play_match(("Ann", "Ben"), random.Random(7), pub, 1)))
    assert pub.outbox.held()  # no side has answered yet
    pub(update_for(states[-2], Undo(1), (), 1))  # the state the undo goes back to
    assert not pub.outbox.held()
    wait_for(lambda: len(seen.of("result")) == 1)
    pub.stop()
    assert seen.of("result")[0]["status"] == "disputed"
    seen.close()


def _to_the_end(states: Iterator[State]) -> Iterator[State]:
    """A match's states up to its first game's end, before any side answers."""
    for state in states:
        yield state
        if state.phase.value in ("game_over", "match_over"):
            return


def test_a_side_disputing_at_the_table_publishes_the_result_as_disputed(broker: Mosquitto, tmp_path: Path) -> None:
    """Through the app: the OK and UNDO presses at the question are Confirm events in its updates."""
    seen = Listener(broker)
    pub = publisher(broker, tmp_path)
    settings = TableSettings(names=("Ann", "Ben"), mode=Mode.BOARD, confirm_results=True)
    app = TableApp(open_mock(), TableUI(settings, rng=random.Random(1)))  # a cut of 3C, TC: no tie to cut again
    app.subscribe(pub)
    pub.start()
    app.start()
    try:
        for action in ("ok", "peg 1 60", "ok", "peg 1 61", "ok"):  # the cut, then Ben pegs out
            app.handle(Action.parse(action))
        app.ui.screens.clear()
        assert pub.outbox.held()
        app.handle(Action.parse("ok"))  # Ann confirms
        assert pub.outbox.held() and app.ui.screen().lines[0] == "Ben: OK confirms"
        app.handle(Action.parse("undo"))  # Ben disputes
        assert not pub.outbox.held()
        wait_for(lambda: len(seen.of("result")) == 1)
    finally:
        app.close()
        pub.stop()
    (result,) = seen.of("result")
    assert result["status"] == "disputed" and result["scores"] == [0, 121] and result["winner"] == 1
    seen.close()


def test_wrong_credentials_are_refused(broker: Mosquitto, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    pub = publisher(broker, tmp_path, password="not-the-password")
    pub.start()
    wait_for(lambda: "broker refused table t1" in caplog.text)  # the broker's answer came
    assert not pub.connected
    play(pub, seed=1)
    assert pub.outbox.unsent() > 0  # kept for when the right password is configured
    pub.stop()


def test_a_table_cannot_publish_under_another_tables_topic(broker: Mosquitto, tmp_path: Path) -> None:
    seen = Listener(broker)
    pub = publisher(broker, tmp_path, table="t2")
    pub.start()
    wait_for(lambda: pub.connected)
    info = pub.client.publish(f"cribpi/{EVENT}/tables/t1/state", b'{"spoof": 1}', qos=1)
    info.wait_for_publish(5)  # mosquitto acknowledges and drops it (MQTT 3.1.1 has no refusal)
    pub.client.publish(f"cribpi/{EVENT}/tables/t2/status", b"marker", qos=1).wait_for_publish(30)
    wait_for(lambda: (f"cribpi/{EVENT}/tables/t2/status", b"marker", False) in seen.messages)  # after the spoof
    pub.stop()
    assert not [t for t, _, _ in seen.messages if "/t1/" in t]
    assert [t for t, _, _ in seen.messages if "/t2/" in t]
    seen.close()


def test_each_game_of_a_match_is_held_until_both_sides_confirm(broker: Mosquitto, tmp_path: Path) -> None:
    seen = Listener(broker)
    pub = publisher(broker, tmp_path)
    pub.start()
    held_while_over = []
    for state in play_match(("Ann", "Ben"), random.Random(21), pub, 1, match_games=3):
        if state.phase.value in ("game_over", "match_over"):
            held_while_over.append(pub.outbox.held())
    games = len(state.games)
    wait_for(lambda: len(seen.of("result")) == games)
    pub.stop()
    # at each game's end, then after the first side's word, held; after the second's, gone
    assert games >= 2 and held_while_over == [True, True, False] * games
    results = seen.of("result")
    assert [r["game_number"] for r in results] == list(range(1, games + 1))
    assert all(r["status"] == "confirmed" for r in results)
    assert [r["winner"] for r in results] == [g.winner for g in state.games]
    seen.close()
