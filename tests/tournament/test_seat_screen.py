"""Where do I sit? (issue 21, item 13): a round the director seats reaches each table over the
room's real broker and shows on its OLED, ``Round 1: Ann v Bob`` / ``Ann, you are Red``; a table
reads only its own seating; a reconnect does not show the same seating twice."""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cribpi.app import TableApp
from cribpi.config import load_config
from cribpi.tournament.table.attach import attach
from cribpi.tournament.director.counting import seat_colours
from cribpi.tournament.director.casting import follow
from cribpi.tournament.seats import Seat, parse_seat, seat_topic
from cribpi.tournament.table.seatcast import listen
from cribpi.views.model import MessageScreen
from cribpi.views.oled import render_screen
from cribpi.views.seat import seat_screen
from tests.app.table_keys import mock_table
from tests.tournament.conftest import EVENT, Mosquitto
from tests.tournament.test_publisher import publisher, wait_for
from tests.tournament.test_room import director


def _run_until(app: TableApp, done: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    app.run(should_stop=lambda: done() or time.monotonic() > deadline)
    assert done(), "timed out"


def test_the_seat_screen_says_who_plays_whom_and_each_seats_colour() -> None:
    screen = seat_screen(2, "t3", ["Ann", "Bob"], ["Red", "Blue"], 1)
    assert screen.lines == ("Round 2: Ann v Bob", "Ann, you are Red", "Bob, you are Blue", "table t3, 1 game")
    playoff = seat_screen(5, "t1", ["Ann", "Bob"], ["Red", "Blue"], 3, playoff=True)
    assert playoff.lines[-1] == "table t1, playoff, best of 3"
    assert seat_screen(2, "t9", [], []).lines == ("No match at table t9 this round.",)
    four = seat_screen(1, "t2", ["Ann", "Bob", "Cat", "Dan"], seat_colours(4), 3)  # partners share a track
    assert four.lines[:3] == ("Round 1: Ann & Cat v Bob & Dan", "Ann & Cat, you are Red", "Bob & Dan, you are Blue")
    three = seat_screen(1, "t2", ["Ann", "Bob", "Cat"], seat_colours(3), 3)
    assert three.lines[:4] == ("Round 1: Ann v Bob v Cat", "Ann, you are Red", "Bob, you are Blue", "Cat, you are Green")
    for s in (screen, playoff, four):
        assert render_screen(s).getbbox() is not None  # drawn on the 128x64 OLED (wrapped, paged)


def test_a_seating_message_is_read_with_care() -> None:
    good = {"round": 2, "table": "t1", "kind": "qualifying", "games": 1, "players": ["Ann", "Bob"],
            "colours": ["Red", "Blue"]}
    assert parse_seat(json.dumps(good).encode()) == Seat(2, "t1", "qualifying", 1, ("Ann", "Bob"), ("Red", "Blue"))
    for bad in (b"", b"{", b"[]", json.dumps({**good, "round": 0}).encode(), json.dumps({**good, "kind": "x"}).encode(),
                json.dumps({**good, "colours": ["Red"]}).encode(), json.dumps({**good, "players": ["x" * 65, "B"]}).encode(),
                b"x" * 5000, b"[" * 2000, b'{"a":' * 400, b"\xff\xfe", json.dumps({**good, "players": [["Ann"], "B"]}).encode()):
        assert parse_seat(bad) is None, bad[:40]  # 2,000 deep (under the size limit): a RecursionError once


def test_no_message_stops_the_tables_mqtt_thread(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """paho re-raises a callback's exception, which ends its thread: a table's callbacks (the
    director's acknowledgements and announcements, a followed seating) drop such a message,
    count it and log the cause once, and handle the next one."""
    import paho.mqtt.client as mqtt

    from cribpi.tournament.broker import Broker
    from cribpi.tournament.messages import acks_topic
    from cribpi.tournament.table.outbox import Outbox
    from cribpi.tournament.table.publisher import TablePublisher

    pub = TablePublisher(Broker("127.0.0.1", 1), EVENT, "t1", Outbox(tmp_path / "outbox.db"))
    seen: list[bytes] = []

    def follower(client: Any, userdata: Any, message: Any) -> None:
        if message.payload == b"boom":
            raise RuntimeError("a bug")
        seen.append(bytes(message.payload))

    pub.follow("elsewhere", follower)
    guarded = pub.client._on_message_filtered["elsewhere"]

    def message(topic: str, payload: bytes) -> mqtt.MQTTMessage:
        m = mqtt.MQTTMessage(topic=topic.encode())
        m.payload = payload
        return m

    for _ in range(3):
        guarded(pub.client, None, message("elsewhere", b"boom"))
        pub.client.on_message(pub.client, None, message(acks_topic(EVENT, "t1"), b"[" * 5000))
    guarded(pub.client, None, message("elsewhere", b"fine"))
    assert seen == [b"fine"] and pub.unexpected >= 3
    assert caplog.text.count("a message on elsewhere could not be handled") == 1
    pub.outbox.close()


@pytest.mark.mqtt
def test_a_seated_round_shows_on_each_tables_oled(broker: Mosquitto, tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="cribpi.tournament.table.seatcast")

    def received(table: str) -> list[str]:  # each seating the table has received, after it was handled
        return [r.getMessage() for r in caplog.records if r.getMessage().startswith(f"table {table}: round ")]

    d = director(broker)  # Ann and Ben registered
    follow(d)
    config_file = broker.table_config(tmp_path)
    other: list[Seat] = []
    t2 = publisher(broker, tmp_path, "t2")
    listen(t2, other.append)
    # t2's password reading t1's seating: the broker's ACL gives it nothing
    spy = publisher(broker, tmp_path, "t2")
    spied: list[bytes] = []
    marks: list[bytes] = []
    spy.follow(seat_topic(EVENT, "t1"), lambda client, userdata, message: spied.append(bytes(message.payload)))
    # and its own, which it may read: subscribed after t1's, and published after t1's each round
    spy.follow(seat_topic(EVENT, "t2"), lambda client, userdata, message: marks.append(bytes(message.payload)))
    t2.start()
    with mock_table() as (parts, ui, app):
        stop = attach(app, load_config(config_file))
        try:
            _run_until(app, lambda: app.marks == frozenset())  # the broker has the table
            number, seating = d.seat_round("random", random.Random(3))
            red, blue = seating["t1"]
            _run_until(app, lambda: isinstance(ui.screen(), MessageScreen) and ui.screen().title == "Your seats")
            assert ui.screen().lines[:3] == (f"Round 1: {red} v {blue}", f"{red}, you are Red", f"{blue}, you are Blue")
            assert ui.screen().lines[3] == "table t1, 1 game"
            assert parts.image.getbbox() is not None
            wait_for(lambda: len(other) == 1)
            assert list(seating) == ["t1"] and other[0].table == "t2"  # two players: t2 sits this one out
            assert other[0].screen().lines == ("No match at table t2 this round.",)
            ui.screens.clear()  # OK put it away
            broker.stop()  # the table reconnects and gets the retained seating again: not shown again
            broker.start()
            _run_until(app, lambda: app.marks == frozenset())
            wait_for(lambda: len(received("t1")) == 2)  # the retained seating has come again, and was handled
            app.run_posts()
            assert not ui.screens
            assert received("t1")[1] == "table t1: round 1's seating again: shown already"
            d.seat_round("swiss", random.Random(4))  # round 2 shows
            _run_until(app, lambda: bool(ui.screens) and ui.screen().lines[0].startswith("Round 2: "))
        finally:
            stop()
            t2.stop()
            d.close()
    spy.start()
    wait_for(lambda: spy.heard and len(marks) == 1)  # every SUBACK, then t2's own retained seating
    spy.stop()
    assert spied == []  # a table's password reads no other table's seating
