"""``cribpi loadgen`` on bad input: one line and exit 2 before any table starts (a bad event id,
a credentials file that is not the room's, more tables than the room has, a broker that refuses
the tables), and exit 1 naming a broker that does not answer, within a bounded time."""

from __future__ import annotations

import getpass
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribpi.cli import main
from cribpi.commands import loadgen
from cribpi.tournament.director.room import init_event
from tests.sim.conftest import require
from tests.tournament.conftest import ADMIN_PASSWORD, EVENT, Mosquitto, free_port

ROOM = {"director": "d", "t1": "a", "t2": "b", "t3": "c", "t4": "d"}


@pytest.mark.parametrize("options, says", [
    (["--event", "a/b"], "--event 'a/b' is not valid: the event's id, 1-32 letters, digits, - or _"),
    (["--event", ""], "--event '' is not valid"),
    (["--event", "e", "--credentials", "{bad}"], "--credentials: {bad}: not valid JSON"),
    (["--event", "e", "--credentials", "{list}"], "--credentials: {list}: not an object of user names to passwords"),
    (["--event", "e", "--credentials", "{missing}"], "--credentials: {missing}: no such credentials file"),
    (["--event", "e", "--credentials", "{room}", "--tables", "6"],
     "--credentials {room} has no t5 (nor 1 more): the room has 4 tables"),
    (["--event", "e", "--credentials", "{room}", "--first-table", "4", "--tables", "2"], "has no t5: the room has 4"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          options: list[str], says: str) -> None:
    files = {"bad": tmp_path / "bad.json", "list": tmp_path / "list.json", "room": tmp_path / "room.json",
             "missing": tmp_path / "missing.json"}
    files["bad"].write_text("{not json")
    files["list"].write_text("[1, 2]")
    files["room"].write_text(json.dumps(ROOM))
    names = {k: str(v) for k, v in files.items()}
    outbox = tmp_path / "outbox"
    argv = ["loadgen", "--broker", f"mqtt://127.0.0.1:{free_port()}", "--outbox-dir", str(outbox)]
    assert main(argv + [o.format(**names) for o in options]) == 2
    err = capsys.readouterr().err
    assert says.format(**names) in err and len(err.strip().splitlines()) == 1
    assert not outbox.exists()  # no table started


def test_a_broker_that_does_not_answer_is_named_within_the_wait(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    require("mosquitto")  # paho, with the tournament's parts
    monkeypatch.setattr(loadgen, "CONNECT_WAIT_S", 1)
    url = f"mqtt://127.0.0.1:{free_port()}"
    start = time.monotonic()
    assert main(["loadgen", "--broker", url, "--event", "e", "--outbox-dir", str(tmp_path / "o")]) == 1
    assert time.monotonic() - start < 5
    err = capsys.readouterr().err
    assert f"the broker at {url}: no answer within 1 s" in err and len(err.strip().splitlines()) == 1


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Mosquitto]:
    require("mosquitto")
    require("mosquitto_passwd")
    server = Mosquitto(init_event(tmp_path / "room", EVENT, 4, ADMIN_PASSWORD, port=free_port(), bind="127.0.0.1",
                                  run_as=getpass.getuser()))
    server.start()
    yield server
    server.stop()


@pytest.mark.mqtt
@pytest.mark.parametrize("credentials, says", [
    (None, "it refuses a client without a user name: Not authorized; give --credentials"),
    ({**ROOM}, "it refuses t1: Not authorized; check --credentials"),
])
def test_a_broker_that_refuses_the_tables_is_one_line(room: Mosquitto, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      credentials: dict[str, str] | None, says: str) -> None:
    argv = ["loadgen", "--broker", room.url, "--event", EVENT, "--outbox-dir", str(tmp_path / "o")]
    if credentials is not None:
        (tmp_path / "wrong.json").write_text(json.dumps(credentials))
        argv += ["--credentials", str(tmp_path / "wrong.json")]
    start = time.monotonic()
    assert main(argv) == 2
    assert time.monotonic() - start < 5
    err = capsys.readouterr().err
    assert f"the broker at {room.url}: {says}" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()
