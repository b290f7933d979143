"""An ``mqtts://`` room: mosquitto with a certificate signed by a CA made for the test (openssl);
the table publishes to it with ``ca`` set, and a table without the CA is refused."""

from __future__ import annotations

import getpass
import random
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribpi.tournament.broker import parse_broker
from cribpi.tournament.table.loadgen import play_match, start_next
from cribpi.tournament.table.outbox import Outbox
from cribpi.tournament.table.publisher import TablePublisher
from cribpi.tournament.director.room import init_event
from tests.sim.conftest import require
from tests.tournament.conftest import EVENT, Mosquitto, free_port
from tests.tournament.test_publisher import wait_for

pytestmark = pytest.mark.mqtt


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA, and a server certificate for 127.0.0.1 signed by it: (ca, cert, key)."""
    openssl = require("openssl")
    ca, ca_key, cert, key, csr = (folder / n for n in ("ca.pem", "ca.key", "server.pem", "server.key", "server.csr"))
    run = lambda *args: subprocess.run([openssl, *args], check=True, capture_output=True)  # noqa: E731
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(ca_key), "-out", str(ca), "-days", "2",
        "-subj", "/CN=cribpi test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    ext = folder / "san.ext"
    ext.write_text("subjectAltName = IP:127.0.0.1\n")
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial", "-out", str(cert),
        "-days", "2", "-extfile", str(ext))
    return ca, cert, key


@pytest.fixture
def tls_broker(tmp_path: Path) -> Iterator[tuple[Mosquitto, Path]]:
    require("mosquitto")
    ca, cert, key = make_certificates(tmp_path)
    room = init_event(tmp_path / "room", EVENT, 2, "admin password", port=free_port(), bind="127.0.0.1",
                      run_as=getpass.getuser(), tls=(cert, key))
    server = Mosquitto(room)
    server.start()
    yield server, ca
    server.stop()


def table(server: Mosquitto, tmp_path: Path, ca: Path | None, name: str) -> TablePublisher:
    url = parse_broker(f"mqtts://127.0.0.1:{server.room.port}", username="t1", password=server.room.credentials["t1"],
                       ca=ca)
    return TablePublisher(url, EVENT, "t1", Outbox(tmp_path / f"{name}.db"), max_delay=1)


def test_a_table_publishes_over_tls_and_one_without_the_ca_is_refused(tls_broker: tuple[Mosquitto, Path],
                                                                      tmp_path: Path) -> None:
    server, ca = tls_broker
    good = table(server, tmp_path, ca, "good")
    good.start()
    for _ in play_match(("Ann", "Ben"), random.Random(3), good, 1):
        pass
    start_next(("Ann", "Ben"), good, 2)  # the result was confirmed by each side at the end
    wait_for(lambda: good.outbox.unsent() == 0)
    good.stop()
    stranger = table(server, tmp_path, None, "stranger")  # the system's CAs do not know the room's
    failed = threading.Event()
    stranger.client.on_connect_fail = lambda c, u: failed.set()  # paho's TLS handshake failed
    stranger.start()
    for _ in play_match(("Ann", "Ben"), random.Random(3), stranger, 1):
        pass
    wait_for(failed.is_set)
    assert not stranger.connected and stranger.outbox.unsent() > 0
    stranger.stop()
