"""The room's mosquitto.conf bounds what one table's password can make the broker hold (issue
28, item 3), and the real mosquitto takes it: it starts on it without a complaint, passes a
table's largest message on and drops a larger one, and refuses a connection past the
listener's cap."""

from __future__ import annotations

import socket
import threading
import paho.mqtt.client as mqtt
import pytest

from cribpi.tournament.broker import new_client, parse_broker
from cribpi.tournament.messages import MAX_PAYLOAD
from cribpi.tournament.director.room import DIRECTOR, broker_limits, max_connections
from tests.tournament.conftest import EVENT, Mosquitto
from tests.tournament.test_publisher import wait_for

pytestmark = pytest.mark.mqtt


def client(broker: Mosquitto, user: str) -> mqtt.Client:
    c = new_client(parse_broker(broker.url, username=user, password=broker.room.credentials[user]), user)
    connected = threading.Event()
    c.on_connect = lambda *a: connected.set() if a[3] == 0 else None
    c.connect("127.0.0.1", broker.room.port)
    c.loop_start()
    wait_for(connected.is_set, 20, f"{user} connected")
    return c


def test_the_broker_takes_the_limits_and_drops_what_is_over_them(broker: Mosquitto) -> None:
    conf = broker.room.conf.read_text()
    for key, value in broker_limits().items():
        assert f"\n{key} {value}\n" in conf
    assert f"\nmax_connections {max_connections(4)}\n" in conf
    said = (broker.room.folder / "mosquitto.log").read_text()
    assert "Error" not in said and "Unknown" not in said, said
    got: list[bytes] = []
    director = client(broker, DIRECTOR)
    director.on_message = lambda c, u, m: got.append(bytes(m.payload))
    subscribed = threading.Event()
    director.on_subscribe = lambda *a: subscribed.set()
    director.subscribe(f"cribpi/{EVENT}/tables/+/+", qos=1)
    wait_for(subscribed.is_set)
    table = client(broker, "t1")
    largest, over, after = b"a" * MAX_PAYLOAD, b"b" * (broker_limits()["message_size_limit"] + 1), b"c" * 100
    for payload in (largest, over, after):
        table.publish(f"cribpi/{EVENT}/tables/t1/events", payload, qos=1).wait_for_publish(20)
    wait_for(lambda: after in got)
    assert got == [largest, after]  # the one over the limit was dropped; the table stayed connected
    assert table.is_connected()
    table.loop_stop()
    table.disconnect()
    director.loop_stop()
    director.disconnect()


def test_a_connection_past_the_cap_is_refused(broker: Mosquitto) -> None:
    """mosquitto 2.0.11 (Debian bookworm's) miscounts: each connection it refuses lets one more
    in later (fixed in 2.0.12), so what holds there is that one past the cap is refused."""
    log = broker.room.folder / "mosquitto.log"
    held: list[socket.socket] = []
    try:
        for _ in range(max_connections(4) + 2):  # connections that say nothing, as an attacker's
            held.append(socket.create_connection(("127.0.0.1", broker.room.port), timeout=10))
        wait_for(lambda: "denied: max_connections exceeded" in log.read_text(), 20)
    finally:
        for s in held:
            s.close()
    client(broker, "t1").disconnect()  # room again once they are gone
