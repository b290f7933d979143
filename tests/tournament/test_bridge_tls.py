"""A room's bridge across someone else's network: ``init --rooms ... --tls-cert --tls-key
--bridge-ca`` makes the director's broker TLS-only and turns on the bridge's TLS lines; two real
mosquittos (the director's and a room's) and a CA made for the test (openssl)."""

from __future__ import annotations

import getpass
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cribpi.tournament.director.room import DIRECTOR, Room
from cribpi.tournament.director.rooms import RoomSpec, init_rooms
from tests.sim.conftest import require
from tests.tournament.conftest import ADMIN_PASSWORD, EVENT, Mosquitto, free_port
from tests.tournament.test_publisher import wait_for
from tests.tournament.test_tls import make_certificates

pytestmark = [pytest.mark.mqtt, pytest.mark.bridge]


def test_a_bridge_with_the_directors_ca_crosses_over_tls(tmp_path: Path) -> None:
    require("mosquitto")
    ca, cert, key = make_certificates(tmp_path)
    port, room_port = free_port(), free_port()
    made = init_rooms(tmp_path / "event", EVENT, [RoomSpec("annex", 1, room_port)], ADMIN_PASSWORD,
                      to=("127.0.0.1", port), port=port, bind="127.0.0.1", room_bind="127.0.0.1",
                      run_as=getpass.getuser(), tls=(cert, key), bridge_ca=ca)
    conf = made.confs["annex"].read_text()
    assert "\nbridge_cafile " in conf and "\nbridge_insecure false\n" in conf and "\n#bridge_cafile" not in conf
    assert f"certfile {cert.resolve()}" in made.conf.read_text()
    brokers = [Mosquitto(Room(tmp_path / "event", port, {})),
               Mosquitto(Room(tmp_path / "event" / "rooms" / "annex", room_port, {}))]
    for broker in brokers:
        broker.start()
    seen: list[tuple[str, bytes]] = []
    ready = threading.Event()
    director = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=DIRECTOR)
    director.username_pw_set(DIRECTOR, made.credentials[DIRECTOR])
    director.tls_set(ca_certs=str(ca))

    def connected(client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        client.subscribe([(f"cribpi/{EVENT}/rooms/+", 1), (f"cribpi/{EVENT}/tables/+/+", 1)])
        ready.set()

    director.on_connect = connected
    director.on_message = lambda c, u, m: seen.append((m.topic, bytes(m.payload)))
    director.connect("127.0.0.1", port)
    director.loop_start()
    try:
        assert ready.wait(30)
        wait_for(lambda: (f"cribpi/{EVENT}/rooms/annex", b"1") in seen, what="the annex's bridge up over TLS")
        table = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="t1")
        table.username_pw_set("t1", made.credentials["t1"])
        table.connect("127.0.0.1", room_port)  # the room's own network: plain MQTT to its broker
        table.loop_start()
        table.publish(f"cribpi/{EVENT}/tables/t1/status", b"online", qos=1).wait_for_publish(30)
        wait_for(lambda: (f"cribpi/{EVENT}/tables/t1/status", b"online") in seen, what="t1 across the TLS bridge")
        table.disconnect()
        table.loop_stop()
    finally:
        director.disconnect()
        director.loop_stop()
        for broker in brokers:
            broker.stop()
    log = (tmp_path / "event" / "mosquitto.log").read_text()
    assert "New bridge connected" in log and "OpenSSL Error" not in log
