"""``cribpi director serve`` under the attacks of issue 28, item 5, a real uvicorn in its own
process (started once for the module, with the Pi's open-files limit, 1024), its director
following a real mosquitto: stalled login bodies do not lock the admin out, 1,100 half-open
connections do not shut a new visitor out, deep JSON is refused with 400, a flood of bad
requests writes a few log lines, and with ``--tls-cert``/``--tls-key`` the pages are HTTPS
and the admin's cookie is Secure."""

from __future__ import annotations

import http.client
import json
import re
import resource
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribpi.tournament.director.room import write_credentials
from cribpi.tournament.director.web.guards import BODY_SECONDS
from tests.tournament.conftest import ADMIN_PASSWORD, Mosquitto, free_port, running_room
from tests.tournament.test_publisher import wait_for
from tests.tournament.test_tls import make_certificates

pytestmark = pytest.mark.mqtt

OPEN_FILES = 1024  # a Raspberry Pi's `ulimit -n`


class Serve:
    """``cribpi director serve`` for ``broker``'s room in its own process, its stderr in a file."""

    def __init__(self, broker: Mosquitto, folder: Path, *extra: str, open_files: int | None = None) -> None:
        write_credentials(broker.room.folder, broker.room.credentials)
        self.port, self.log = free_port(), folder / "serve.log"
        limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))) if open_files else None
        self.proc = subprocess.Popen([sys.executable, "-m", "cribpi", "director", "serve", "--dir", str(broker.room.folder),
                                      "--broker", broker.url, "--host", "127.0.0.1", "--http-port", str(self.port),
                                      *extra], stdout=subprocess.DEVNULL, stderr=self.log.open("wb"), preexec_fn=limit)
        deadline = time.monotonic() + 60
        while True:  # up, or gone (saying why in its log)
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                break
            except OSError:
                assert self.proc.poll() is None and time.monotonic() < deadline, self.log.read_text(errors="replace")
                time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    folder = tmp_path_factory.mktemp("limits")
    for broker in running_room(folder):
        server = Serve(broker, folder, open_files=OPEN_FILES)
        yield server
        server.stop()


def request(port: int, method: str, path: str, body: bytes | None = None, *, source: str = "127.0.0.1",
            timeout: float = 30, context: ssl.SSLContext | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = (http.client.HTTPSConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0), context=context)
            if context else http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0)))
    try:
        conn.request(method, path, body=body, headers={"content-type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def login_within(port: int, seconds: float, **kw: object) -> tuple[int, float]:
    """The admin logging in, again after each 429 as its Retry-After says, for ``seconds``:
    the last status and how long it took."""
    start = time.monotonic()
    while True:
        status, headers, _ = request(port, "POST", "/admin/login", json.dumps({"password": ADMIN_PASSWORD}).encode(),
                                     timeout=seconds, **kw)  # type: ignore[arg-type]
        took = time.monotonic() - start
        if status != 429 or took >= seconds:
            return status, took
        time.sleep(min(float(headers.get("retry-after", "1")), max(0.0, seconds - took)))


def test_stalled_login_bodies_leave_the_admin_logging_in(serve: Serve) -> None:
    stalled = []
    for n in range(40):  # each from its own address, as 40 machines on the Wi-Fi
        s = socket.create_connection(("127.0.0.1", serve.port), timeout=BODY_SECONDS + 10,
                                     source_address=(f"127.0.0.{n + 2}", 0))
        s.sendall(b"POST /admin/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                  b"content-length: 1000\r\n\r\n{")
        stalled.append(s)
    try:
        assert request(serve.port, "GET", "/api/health")[0] == 200  # the server has read them all by now
        status, took = login_within(serve.port, 5.0)
        assert status == 200, f"the admin's login answered {status} after {took:.1f} s"
        start = time.monotonic()
        for s in stalled:  # each stalled body is answered and its connection closed, in seconds
            answer = s.recv(4096)
            assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
            while s.recv(4096):
                pass
        assert time.monotonic() - start < BODY_SECONDS + 5
    finally:
        for s in stalled:
            s.close()


def wait_log(serve: Serve, text: str, seconds: float = 10) -> str:
    deadline = time.monotonic() + seconds
    while text not in (said := serve.log.read_text(errors="replace")) and time.monotonic() < deadline:
        time.sleep(0.05)
    return said


def test_half_open_connections_leave_a_page_for_a_new_visitor(serve: Serve) -> None:
    held = []
    try:
        for n in range(1100):  # more than the director's open files: half say nothing, half half a request
            s = socket.create_connection(("127.0.0.1", serve.port), timeout=10)
            if n % 2:
                s.sendall(b"GET / HTTP/1.1\r\nhost: x\r\n")
            held.append(s)
            if n % 50 == 49:  # answered: the server has taken every connection before it
                assert request(serve.port, "GET", "/api/health", timeout=10)[0] == 200
        start = time.monotonic()
        status, _, page = request(serve.port, "GET", "/leaderboard", timeout=2)
        assert status == 200 and b"<html" in page.lower()
        assert time.monotonic() - start < 2
        for _ in range(20):  # and again while they are still open
            assert request(serve.port, "GET", "/api/standings", timeout=2)[0] == 200
        assert "the oldest waiting for its head closed" in wait_log(serve, "the oldest waiting for its head closed")
    finally:
        for s in held:
            s.close()
    assert serve.proc.poll() is None
    said = serve.log.read_text(errors="replace")
    assert len(said) < 1 << 20 and "Too many open files" not in said
    assert said.count("connections open, the cap") <= 20  # about one line a second, with a count


def test_a_flood_of_bad_requests_writes_a_few_log_lines(serve: Serve) -> None:
    before = serve.log.read_text(errors="replace").count("Invalid HTTP request")
    for _ in range(600):
        with socket.create_connection(("127.0.0.1", serve.port), timeout=10) as s:
            s.sendall(b"GARBAGE\x00 \r\n\r\n")
            assert s.recv(4096).startswith(b"HTTP/1.1 400 ")
    assert request(serve.port, "GET", "/api/health")[0] == 200

    def written() -> tuple[str, int]:  # the log, and how many bad requests its lines account for
        said = serve.log.read_text(errors="replace")
        counts = re.findall(r"Invalid HTTP request received. \(and (\d+) more like it", said)
        return said, sum(map(int, counts)) + said.count("Invalid HTTP request") - before

    wait_for(lambda: written()[1] >= 600, 20, "every bad request accounted for in the log")
    said, total = written()
    assert total == 600 and said.count("Invalid HTTP request") - before <= 20  # about one line a second


@pytest.mark.parametrize("body", [b"[" * 5000, b'{"password": ' + b"[" * 100 + b"]" * 100 + b"}",
                                  b'{"password": "x", "a": ' + b'{"b": ' * 40 + b"1" + b"}" * 41])
def test_deep_json_is_refused_with_400(serve: Serve, body: bytes) -> None:
    status, _, answer = request(serve.port, "POST", "/admin/login", body)
    assert status == 400, answer
    said = json.loads(answer)
    assert said["reason"] == "too_deep" and "deeper than 32" in said["error"]
    assert request(serve.port, "GET", "/api/health")[0] == 200
    assert "Traceback" not in serve.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def tls_serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Serve, Path]]:
    folder = tmp_path_factory.mktemp("tls")
    ca, cert, key = make_certificates(folder)
    for broker in running_room(folder):
        server = Serve(broker, folder, "--tls-cert", str(cert), "--tls-key", str(key))
        yield server, ca
        server.stop()


def test_the_admin_logs_in_over_https_with_a_secure_cookie(tls_serve: tuple[Serve, Path]) -> None:
    serve, ca = tls_serve
    context = ssl.create_default_context(cafile=str(ca))
    status, headers, answer = request(serve.port, "POST", "/admin/login",
                                      json.dumps({"password": ADMIN_PASSWORD}).encode(), context=context)
    assert status == 200, answer
    cookie = headers["set-cookie"]
    assert "; secure" in cookie.lower() and "httponly" in cookie.lower()
    status, _, answer = request(serve.port, "GET", "/admin/session", context=context,
                                headers={"cookie": cookie.split(";")[0]})
    assert status == 200 and json.loads(answer)["csrf"]
    with pytest.raises((http.client.HTTPException, OSError)):  # plain HTTP is not served there
        request(serve.port, "GET", "/api/health", timeout=5)


def test_a_connection_that_never_starts_tls_is_closed_in_seconds(tls_serve: tuple[Serve, Path]) -> None:
    serve, _ = tls_serve
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", serve.port), timeout=30) as s:  # no ClientHello
        assert s.recv(1) == b""
    assert time.monotonic() - start < 10  # asyncio's own limit was 60 s
