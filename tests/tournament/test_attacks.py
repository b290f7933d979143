"""What a table's own password must not be able to do, tried against a real mosquitto with the
room's generated configuration, as the table's owner would with ``mosquitto_pub``/``_sub``."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cribpi.tournament.broker import parse_broker
from cribpi.tournament.director import Director
from cribpi.tournament.eventdb import EventDB
from cribpi.tournament.loadgen import play_match, start_next
from cribpi.tournament.messages import director_topic
from cribpi.tournament.room import DIRECTOR, EVENT_DB
from tests.tournament.conftest import EVENT, Mosquitto
from tests.tournament.test_publisher import publisher, wait_for

pytestmark = pytest.mark.mqtt
NAMES = ("Ann", "Ben")


def director(broker: Mosquitto) -> Director:
    d = Director(EventDB(broker.room.folder / EVENT_DB))
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
    assert d.drops == 0  # the director was never thrown off the broker
    thief.close()
    pub.stop()
    d.close()
    d.db.close()
    # and nothing of the intruder's is left in the director's session: a restart refuses nothing
    again = director(broker)
    wait_for(lambda: again.accepted["state"] >= 1)
    assert "bad_topic" not in again.refused and again.drops == 0
    again.close()
    again.db.close()
