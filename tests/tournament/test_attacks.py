"""What a table's own password must not be able to do, tried against a real mosquitto with the
room's generated configuration, as the table's owner would with ``mosquitto_pub``/``_sub``."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cribpi.exc import ConfigError
from cribpi.game import State
from cribpi.tournament.broker import parse_broker
from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.table.loadgen import play_match, start_next
from cribpi.tournament.messages import director_topic, result_problem
from cribpi.tournament.table.publisher import TablePublisher
from cribpi.tournament.director.room import DIRECTOR, EVENT_DB
from tests.tournament.conftest import EVENT, Mosquitto
from tests.tournament.test_publisher import publisher, wait_for

pytestmark = pytest.mark.mqtt
NAMES = ("Ann", "Ben")


def director(broker: Mosquitto, cls: type[Director] = Director) -> Director:
    d = cls(EventDB(broker.room.folder / EVENT_DB))
    for name in NAMES:
        d.register(name)
    d.connect(parse_broker(broker.url, username=DIRECTOR, password=broker.room.credentials[DIRECTOR]))
    wait_for(d.subscribed.is_set)
    return d


class Intruder:
    """A client on a table's own account, asking for any client id it likes."""

    def __init__(self, broker: Mosquitto, user: str, client_id: str, *, clean_session: bool = False) -> None:
        self.connected, self.subscribed = threading.Event(), threading.Event()
        self.messages: list[tuple[str, bytes]] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session)
        self.client.username_pw_set(user, broker.room.credentials[user])
        self.client.on_connect = lambda c, u, f, rc, p: self.connected.set()
        self.client.on_subscribe = lambda c, u, mid, codes, p: self.subscribed.set()
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, bytes(m.payload)))
        self.client.reconnect_delay_set(1, 1)
        self.client.connect("127.0.0.1", broker.room.port)
        self.client.loop_start()
        assert self.connected.wait(30)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_tables_password_cannot_take_over_the_directors_session(broker: Mosquitto, tmp_path: Path) -> None:
    d = director(broker)
    pub = publisher(broker, tmp_path, table="t2")
    pub.start()
    wait_for(lambda: pub.heard)
    # t1's owner asks for the director's client id, with a persistent session, and subscribes
    thief = Intruder(broker, "t1", f"cribpi-director-{EVENT}")
    thief.client.subscribe(director_topic(EVENT), qos=1)
    assert thief.subscribed.wait(30)
    for _ in play_match(NAMES, random.Random(5), pub, 1):
        pass
    start_next(NAMES, pub, 2)
    wait_for(lambda: d.accepted["result"] == 1 and pub.outbox.unsent() == 0)
    assert d.drops["broker"] == 0  # the director was never thrown off the broker
    thief.close()
    pub.stop()
    d.close()
    d.db.close()
    # and nothing of the intruder's is left in the director's session: a restart refuses nothing
    again = director(broker)
    wait_for(lambda: again.accepted["state"] >= 1)
    assert "bad_topic" not in again.refused and again.drops["broker"] == 0
    again.close()
    again.db.close()


def result(msg_id: int, game_number: int, scores: list[int], kind: str, margin: int) -> bytes:
    return json.dumps({"id": msg_id, "game": 1, "game_number": game_number, "players": list(NAMES), "scores": scores,
                       "winner": 0, "kind": kind, "game_points": 2, "margin": margin, "status": "confirmed",
                       "at": 1.0}).encode()


def send(intruder: Intruder, table: str, kind: str, payload: bytes) -> None:
    intruder.client.publish(f"cribpi/{EVENT}/tables/{table}/{kind}", payload, qos=1).wait_for_publish(30)


def line(d: Director, name: str) -> tuple[int, int, int]:
    x = next(x for x in d.ranked() if x["name"] == name)
    return x["games"], x["won"], x["points"]


def test_a_seated_pair_has_no_more_results_in_a_round_than_its_match_has_games(broker: Mosquitto) -> None:
    d = director(broker)
    number, _ = d.seat_round("random", random.Random(1))  # a one-game match (the event's round_games)
    (table,) = d.db.seating(number)
    owner = Intruder(broker, table, "whatever", clean_session=True)
    send(owner, table, "result", result(1, 1, [121, 100], "win", 21))  # the match's game
    wait_for(lambda: d.accepted["result"] == 1)
    for n in (2, 3):  # two more, with new ids and game numbers, 121-0
        send(owner, table, "result", result(n, n, [121, 0], "double_skunk", 121))
    wait_for(lambda: d.refused["too_many"] == 2)
    assert line(d, NAMES[0]) == (1, 1, 2) and line(d, NAMES[1]) == (1, 0, 0)
    kept = [r["status"] for r in d.db.results()]
    assert kept == ["confirmed", "too_many", "too_many"]  # kept for the admin, uncounted
    extra = d.db.results()[1]["id"]
    d.correct(extra, [121, 0], 0, "double_skunk", 121, by="admin", why="they played two games")  # the admin rules
    assert line(d, NAMES[0]) == (2, 2, 5)
    owner.close()
    d.close()
    d.db.close()


def test_a_game_to_61_does_not_count_in_an_event_of_games_to_121(broker: Mosquitto) -> None:
    assert result_problem([61, 0], 0, "skunk", 61) is None  # a possible game to 61
    d = director(broker)
    owner = Intruder(broker, "t1", "whatever", clean_session=True)
    send(owner, "t1", "result", result(1, 1, [61, 0], "skunk", 61))
    send(owner, "t1", "result", result(2, 2, [121, 60], "double_skunk", 61))
    wait_for(lambda: d.accepted["result"] == 1)
    assert d.refused["game_length"] == 1 and len(d.db.results()) == 1
    assert line(d, NAMES[0]) == (1, 1, 3)
    (only,) = d.db.results()
    with pytest.raises(ConfigError, match="games to 121"):  # nor can the admin's correction make one
        d.correct(only["id"], [61, 0], 0, "skunk", 61, by="admin", why="")
    owner.close()
    d.close()
    d.db.close()


def _a_table_ten_moves_in(broker: Mosquitto, tmp_path: Path) -> tuple[Director, TablePublisher, Iterator[State]]:
    """The director, and table t1 ten moves into a game: every board so far is on the wall."""
    d = director(broker)
    pub = publisher(broker, tmp_path)
    pub.start()
    game = play_match(NAMES, random.Random(7), pub, 1)
    for _ in range(10):
        next(game)
    wait_for(lambda: pub.outbox.unsent() == 0 and d.live["t1"]["state"] is not None
             and d.live["t1"]["state"].get("id") == pub.handed)
    return d, pub, game


def test_a_board_from_the_future_does_not_freeze_the_table(broker: Mosquitto, tmp_path: Path) -> None:
    d, pub, game = _a_table_ten_moves_in(broker, tmp_path)
    # the table's owner publishes a board far in the future (by its clock and by its id): refused
    forged = {**d.live["t1"]["state"], "scores": [120, 120], "at": 1e12, "id": 2**53}
    pub.client.publish(pub.topic("state"), json.dumps(forged).encode(), qos=1, retain=True).wait_for_publish(30)
    wait_for(lambda: d.refused["from_the_future"] == 1)
    for _ in range(10):  # the table plays on: its real boards are shown again
        next(game)
    wait_for(lambda: pub.outbox.unsent() == 0 and d.live["t1"]["state"]["id"] == pub.handed)
    assert d.live["t1"]["state"]["scores"] != [120, 120] and "out_of_order" not in d.refused
    pub.stop()
    d.close()
    d.db.close()


def test_a_forged_event_and_board_from_the_future_do_not_freeze_the_table(broker: Mosquitto, tmp_path: Path) -> None:
    """The two-message form: an event with a made-up id far ahead raised the bar a board's id
    could raise it to, and the table's real events and boards were refused as out of order."""
    d, pub, game = _a_table_ten_moves_in(broker, tmp_path)
    forged_id = 9007199254740990
    forged_event = {"id": forged_id, "game": 1, "event": {"type": "go", "seat": 0}, "at": 1.0}
    forged = {**d.live["t1"]["state"], "scores": [99, 0], "id": forged_id}
    for kind, body, retain in (("events", forged_event, False), ("state", forged, True)):
        pub.client.publish(pub.topic(kind), json.dumps(body).encode(), qos=1, retain=retain).wait_for_publish(30)
    wait_for(lambda: d.refused["from_the_future"] == 2)
    for _ in range(10):  # the table plays on: its real events and boards are taken
        next(game)
    wait_for(lambda: pub.outbox.unsent() == 0 and d.live["t1"]["state"]["id"] == pub.handed)
    assert d.live["t1"]["state"]["scores"] != [99, 0] and "out_of_order" not in d.refused
    d.close()
    d.db.close()
    again = director(broker)  # and a director started again shows the table's retained board
    wait_for(lambda: again.live["t1"]["state"] is not None and again.live["t1"]["state"]["id"] == pub.handed)
    assert "out_of_order" not in again.refused and "from_the_future" not in again.refused
    pub.stop()
    again.close()
    again.db.close()
