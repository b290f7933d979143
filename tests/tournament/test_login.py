"""The pages stay up under a login attack: every request body is bounded (413), the password
hash runs off the event loop, and repeated failures are slowed per client without slowing the
pages. A real uvicorn on loopback, its director following a real mosquitto. (The figures, 50
concurrent wrong logins and a 300 MB body, are in benchmarks/bench_tournament_login.py.)"""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from cribpi.tournament.director.web import guards as webguards
from cribpi.tournament.director import Director
from cribpi.tournament.director.web.guards import MAX_BODY, LoginGate
from tests.tournament.conftest import Mosquitto
from tests.tournament.test_browser import Server
from tests.tournament.test_publisher import wait_for
from tests.tournament.test_replay import start_director, stop_director

pytestmark = pytest.mark.mqtt


@pytest.fixture
def served(broker: Mosquitto) -> Iterator[tuple[Director, Server]]:
    d = start_director(broker)
    server = Server(d)
    yield d, server
    server.stop()
    stop_director(d)


def request(server: Server, method: str, path: str, body: bytes | None = None, *, source: str = "127.0.0.1",
            timeout: float = 30) -> tuple[int, dict[str, str], Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout, source_address=(source, 0))
    try:
        conn.request(method, path, body=body, headers={"content-type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(data) if data else None
    finally:
        conn.close()


def login(server: Server, password: str, source: str = "127.0.0.1") -> tuple[int, dict[str, str], Any]:
    return request(server, "POST", "/admin/login", json.dumps({"password": password}).encode(), source=source)


def test_a_body_over_the_limit_is_refused_before_it_is_read(served: tuple[Director, Server]) -> None:
    _, server = served
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:  # says 300 MB, sends 1 MB
        s.sendall(b"POST /admin/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                  b"content-length: 300000000\r\n\r\n")
        try:
            s.sendall(b"x" * (1 << 20))
        except OSError:
            pass  # the server answered and closed already
        assert s.recv(4096).startswith(b"HTTP/1.1 413 ")
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:  # chunked: no length said
        s.sendall(b"POST /admin/login HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n")
        chunk = b"x" * 4096
        try:
            for _ in range(MAX_BODY // len(chunk) + 2):
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass
        assert s.recv(4096).startswith(b"HTTP/1.1 413 ")
    assert request(server, "GET", "/api/standings")[0] == 200


def test_the_password_hash_does_not_hold_up_the_pages(served: tuple[Director, Server],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _, server = served
    release, calls = threading.Event(), []
    real = webguards.check_password

    def slow_check(password: str, stored: str) -> bool:  # a hash that takes as long as the test says
        calls.append(password)
        release.wait(60)
        return real(password, stored)

    monkeypatch.setattr(webguards, "check_password", slow_check)
    answers: list[int] = []
    attempt = threading.Thread(target=lambda: answers.append(login(server, "wrong guess")[0]))
    attempt.start()
    wait_for(lambda: len(calls) == 1)  # the hash is running
    status, _, standings = request(server, "GET", "/api/standings", timeout=20)
    assert status == 200 and {x["name"] for x in standings} == {"Ann", "Ben", "Cy", "Dee"}  # served meanwhile
    others = [threading.Thread(target=lambda: answers.append(login(server, "another")[0])) for _ in range(9)]
    for t in others:
        t.start()
    for t in others:
        t.join(30)
    assert answers == [429] * 9 and len(calls) == 1  # one attempt in flight per client; no hash for the rest
    release.set()
    attempt.join(30)
    assert answers[-1] == 403


class FakeClock:
    """The gate's clock, moved on by the test: a wait is over when the test says, not when a
    second of a busy machine's time has passed."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_repeated_failures_are_slowed_for_that_client_only(broker: Mosquitto, monkeypatch: pytest.MonkeyPatch) -> None:
    d, clock = start_director(broker), FakeClock()
    server = Server(d, gate=LoginGate(clock=clock))
    calls: list[str] = []
    real = webguards.check_password
    monkeypatch.setattr(webguards, "check_password", lambda p, s: calls.append(p) or real(p, s))
    try:
        for n in range(3):  # a few typos cost only the usual pause
            assert login(server, f"guess {n}")[0] == 403
        status, headers, body = login(server, "guess 4")
        assert status == 429 and int(headers["retry-after"]) >= 1 and "try again" in body["error"]
        assert len(calls) == 3  # refused without hashing
        assert login(server, "guess 5", source="127.0.0.2")[0] == 403  # another client is not slowed
        assert request(server, "GET", "/api/standings")[0] == 200
        assert login(server, "correct horse")[0] == 429  # however long that took, the clock has not moved
        clock.now += 1.0
        assert login(server, "correct horse")[0] == 200  # once the wait is over, the password works
        assert len(calls) == 5
    finally:
        server.stop()
        stop_director(d)


def test_the_right_password_gets_in_while_other_addresses_flood_wrong_ones(served: tuple[Director, Server],
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Each flooding address pauses 1 s after each wrong password; the pause held a place in the
    queue of attempts to hash, so 8 of them turned the admin away (429)."""
    _, server = served
    calls: list[str] = []
    real = webguards.check_password
    monkeypatch.setattr(webguards, "check_password", lambda p, s: calls.append(p) or real(p, s))
    stop = threading.Event()

    def flood(source: str) -> None:
        while not stop.is_set():
            login(server, "wrong", source=source)

    flooders = [threading.Thread(target=flood, args=(f"127.0.0.{n}",)) for n in range(2, 14)]
    for t in flooders:
        t.start()
    try:
        wait_for(lambda: len(calls) >= 8)  # the flood's first wrong passwords are hashed: their pauses begin
        answers = [login(server, "correct horse", source="127.0.0.100")[0] for _ in range(5)]
    finally:
        stop.set()
        for t in flooders:
            t.join(30)
    assert answers == [200] * 5
