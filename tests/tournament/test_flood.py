"""What one table's own password must not do to the whole room (issue 28, items 1 and 4), tried
against a real mosquitto and a real director (and uvicorn for the wall's stream), one broker for
the module: a message 4,000 brackets deep on every topic, a message the director fails on, a
flood of events and one of boards. After each, the other tables' messages still count."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from cribpi.tournament.director import Director
from cribpi.tournament.director.limits import RATES, SEEN_WINDOW
from cribpi.tournament.director.web.hub import FRAME_SECONDS
from cribpi.tournament.messages import KINDS, Message
from cribpi.tournament.director.web import create_app
from tests.tournament.conftest import EVENT, Mosquitto, running_room
from tests.tournament.test_attacks import NAMES, Intruder, line, result, send
from tests.tournament.test_attacks import director as start
from tests.tournament.test_browser import Server
from tests.tournament.test_publisher import wait_for

pytestmark = pytest.mark.mqtt
DEEP = b"[" * 4000 + b"]" * 4000
POISON = 666


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mosquitto]:
    yield from running_room(tmp_path_factory.mktemp("flood"), tables=6)


class Faulty(Director):
    """A director with a bug: one event id makes it raise (as any bug of its own would)."""

    def _on_events(self, message: Message) -> None:
        if message.body["id"] == POISON:
            raise RuntimeError("a bug")
        super()._on_events(message)


def stop(d: Director) -> None:
    d.close()
    d.db.close()


def event(msg_id: int) -> bytes:
    return json.dumps({"id": msg_id, "game": 1, "event": {"type": "go", "seat": 0}, "at": time.time()}).encode()


def test_a_message_4000_deep_on_every_topic_stops_nothing(room: Mosquitto) -> None:
    d = start(room)
    d.db.add_round("qualifying", {"t2": list(NAMES)})
    owner = Intruder(room, "t1", "t1-deep", clean_session=True)
    for kind in KINDS:  # with the table's own password, on every topic it may write
        send(owner, "t1", kind, DEEP)
    send(owner, "t1", "events", b'{"":' * 1500 + b"1" + b"}" * 1500)  # 1,500 deep, under the size limit
    wait_for(lambda: d.refused["too_deep"] == 4 and d.refused["bad_status"] == 1)
    other = Intruder(room, "t2", "t2-plays", clean_session=True)
    send(other, "t2", "result", result(int(time.time() * 1e6), 1, [121, 100], "win", 21))  # no restart
    wait_for(lambda: d.accepted["result"] == 1)
    assert line(d, NAMES[0]) == (1, 1, 2)
    health = TestClient(create_app(d)).get("/api/health").json()
    assert health["refused"] == {"too_deep": 4, "bad_status": 1} and health["accepted"] == {"result": 1}
    assert health["warnings"] == [] and d.loop_thread is not None and d.loop_thread.is_alive()
    stop(d)
    again = start(room)  # acknowledged: none of them is delivered again to a director restarted
    send(owner, "t1", "events", event(int(time.time() * 1e6)))
    wait_for(lambda: again.accepted["events"] == 1)
    assert not again.refused, again.refused
    for client in (owner, other):
        client.close()
    stop(again)


def test_a_message_the_director_fails_on_is_dropped_and_never_delivered_again(room: Mosquitto) -> None:
    d = start(room, Faulty)
    owner = Intruder(room, "t3", "t3-poison", clean_session=True)
    first = int(time.time() * 1e6)
    send(owner, "t3", "events", event(POISON))
    send(owner, "t3", "events", event(first))  # after it: taken, the loop goes on
    wait_for(lambda: d.accepted["events"] == 1 and d.refused["error"] == 1)
    assert d.loop_thread is not None and d.loop_thread.is_alive() and d.warnings() == []
    stop(d)
    again = start(room)  # the director's persistent session: anything not acknowledged comes again first
    send(owner, "t3", "events", event(first + 1))
    wait_for(lambda: again.accepted["events"] >= 1)
    assert again.accepted["events"] == 1 and not again.refused, (again.accepted, again.refused)
    owner.close()
    stop(again)


def test_a_tables_events_past_its_rate_are_refused_and_its_replays_caught_in_a_bounded_window(room: Mosquitto) -> None:
    d = start(room)
    owner = Intruder(room, "t4", "t4-flood", clean_session=True)
    base, count = int(time.time() * 1e6), 7_000
    for n in range(count):
        info = owner.client.publish(f"cribpi/{EVENT}/tables/t4/events", event(base + n), qos=1)
        if n % 500 == 499:
            info.wait_for_publish(30)
    wait_for(lambda: d.accepted["events"] + d.refused["rate"] == count)
    rate, burst = RATES["events"]
    assert burst <= d.accepted["events"] < count and d.refused["rate"] >= 500  # the burst, then the rate
    assert len(d.seen["t4"]) <= SEEN_WINDOW  # the ids kept: a window, not every id ever
    bucket = d.rates.buckets[("t4", "events")]
    wait_for(lambda: bucket.tokens + (time.monotonic() - bucket.at) * rate >= 3)  # room for two more
    taken, refused = d.accepted["events"], d.refused["replay"] + d.refused["rate"]
    send(owner, "t4", "events", event(base))  # long out of the window: still a replay
    send(owner, "t4", "events", event(sorted(d.seen["t4"].ids)[SEEN_WINDOW // 2]))  # in it
    wait_for(lambda: d.refused["replay"] + d.refused["rate"] == refused + 2)
    assert d.refused["replay"] == 2 and d.accepted["events"] == taken
    owner.close()
    stop(d)


def rss_mb() -> float:
    for row in Path("/proc/self/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1]) / 1024
    return 0.0


class Wall:
    """The wall's stream (/events) read in a thread: each board's arrival, by table."""

    def __init__(self, url: str) -> None:
        self.boards: dict[str, list[tuple[float, dict[str, Any]]]] = {}
        self.hello = threading.Event()
        self.thread = threading.Thread(target=self.read, args=(url,), daemon=True)
        self.thread.start()
        assert self.hello.wait(30)

    def read(self, url: str) -> None:
        try:
            with httpx2.Client(timeout=None) as client, client.stream("GET", url) as stream:
                kind = ""
                for row in stream.iter_lines():
                    if row.startswith("event:"):
                        kind = row[6:].strip()
                        self.hello.set()
                    elif row.startswith("data:") and kind == "table":
                        live = json.loads(row[5:])
                        if live.get("state"):
                            self.boards.setdefault(live["table"], []).append((time.time(), live["state"]))
        except httpx2.HTTPError:
            pass  # the server stopped


def test_a_board_flood_from_one_table_leaves_the_others_boards_prompt(room: Mosquitto, caplog: Any) -> None:
    d = start(room)
    server = Server(d)
    wall = Wall(server.url("/events"))
    flooder = Intruder(room, "t5", "t5-flood", clean_session=True)
    other = Intruder(room, "t6", "t6-plays", clean_session=True)
    board = {"game": 1, "players": list(NAMES), "scores": [10, 20], "rear": [0, 5], "dealer": 0, "game_number": 1,
             "match_games": 1, "games_won": [0, 0], "last": None, "phase": "play", "status": "playing"}
    seconds, per_second = 3.0, 5_000
    caplog.set_level(logging.INFO, logger="cribpi")
    before, logged = rss_mb(), len(caplog.records)
    base, sent, start_at = int(time.time() * 1e6), 0, time.monotonic()
    t6: dict[int, float] = {}
    while (now := time.monotonic() - start_at) < seconds:
        while sent < now * per_second:  # t5's boards, one in ten malformed
            body = {**board, "id": base + sent, "at": time.time()} if sent % 10 else {**board, "scores": "x"}
            flooder.client.publish(f"cribpi/{EVENT}/tables/t5/state", json.dumps(body).encode(), qos=0)
            sent += 1
        if now * 4 >= len(t6):  # t6's, four a second, as a table plays (under the wall's frames a second)
            msg_id = base + 10**7 + len(t6)
            t6[msg_id] = time.time()
            other.client.publish(f"cribpi/{EVENT}/tables/t6/state",
                                 json.dumps({**board, "id": msg_id, "at": t6[msg_id]}).encode(), qos=0)
        time.sleep(0.001)
    standings = httpx2.get(server.url("/api/standings"), timeout=30)  # the pages answer meanwhile
    wait_for(lambda: wall.boards.get("t6") and wall.boards["t6"][-1][1]["id"] == max(t6), timeout=20,
             what=f"{ {k: len(v) for k, v in wall.boards.items()} } {d.accepted} {d.refused} {d.drops} {sent}")
    assert standings.status_code == 200
    seen = {state["id"]: at for at, state in wall.boards["t6"]}
    late = sorted(at - t6[i] for i, at in seen.items())
    assert len(seen) >= len(t6) * 0.75, (len(seen), len(t6))  # few drawn over
    assert late[int(len(late) * 0.99)] <= 2.0, late[-10:]  # p99 (the target, 0.5 s, is the benchmark's)
    frames = len(wall.boards.get("t5", []))
    assert 1 <= frames <= (seconds + 2) / FRAME_SECONDS + 5, frames  # t5's drawn a few times a second at most
    assert d.drops["board"] >= sent * 0.5 and d.refused["bad_field"] >= sent // 10 * 0.9
    assert rss_mb() - before <= 60  # generous: the test's own publishers share the process
    assert len(caplog.records) - logged <= 30, [r.getMessage() for r in caplog.records[logged:]][:40]
    for client in (flooder, other):
        client.close()
    server.stop()
    stop(d)


def test_a_stopped_mqtt_loop_is_a_warning_not_silence(room: Mosquitto) -> None:
    d = start(room)
    assert d.warnings() == []
    assert d.client is not None
    d.client.loop_stop()  # paho's thread ends (as an exception out of a callback once ended it)
    wait_for(lambda: d.loop_thread is not None and not d.loop_thread.is_alive())
    said = TestClient(create_app(d)).get("/api/health").json()["warnings"]
    assert said == ["the director's MQTT loop has stopped: no table's message is taken; restart the director (its log"
                    " says why)"]
    stop(d)


def test_a_failed_group_commit_is_counted_and_its_messages_acknowledged_after_the_next(
        room: Mosquitto, monkeypatch: pytest.MonkeyPatch) -> None:
    d = start(room)
    real, failed = d.db.sync, threading.Event()

    def full_disk() -> None:  # the first fsync after this fails, as on a full disk
        if not failed.is_set():
            failed.set()
            raise OSError(28, "No space left on device")
        real()

    monkeypatch.setattr(d.db, "sync", full_disk)
    owner = Intruder(room, "t2", "t2-disk", clean_session=True)
    first = int(time.time() * 1e6)
    waits = json.loads(result(first, 9, [121, 100], "win", 21))  # of players not registered: it waits, written
    send(owner, "t2", "result", json.dumps({**waits, "players": ["Xa", "Xb"]}).encode())
    wait_for(lambda: d.drops["flush"] == 1 and d.refused["unknown_player"] == 1)
    wait_for(lambda: not d.unacked and not d.syncing and not d.db.unsynced())  # tried again, acknowledged
    assert d.flusher is not None and d.flusher.is_alive() and d.warnings() == []
    stop(d)
    again = start(room)  # nothing comes again: it was acknowledged once it was durable
    send(owner, "t2", "events", event(first + 1))
    wait_for(lambda: again.accepted["events"] >= 1)
    assert again.accepted["events"] == 1 and not again.refused, (again.accepted, again.refused)
    owner.close()
    stop(again)
