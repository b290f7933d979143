"""The broker gets only what it reads: its files in the event folder's ``broker/``, handed to
its user, while ``event.db`` (the admin's scrypt hash) and ``credentials.json`` (every password
in clear) stay readable by their owner only."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cribpi.cli import main
from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.director.room import Room
from tests.sim.conftest import require
from tests.tournament.conftest import Mosquitto, free_port
from tests.tournament.test_publisher import wait_for


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def init(folder: Path, *more: str) -> None:
    require("mosquitto_passwd")
    (folder.parent / "pw").write_text("a long admin secret\n")
    assert main(["director", "init", "ev", "--dir", str(folder), "--tables", "2", "--admin-password-file",
                 str(folder.parent / "pw"), *more]) == 0


def test_the_directors_files_are_its_own_and_the_broker_has_a_folder_of_its_own(tmp_path: Path) -> None:
    folder = tmp_path / "ev"
    init(folder, "--broker-user", pwd.getpwuid(os.getuid()).pw_name)
    assert mode(folder / "event.db") == 0o600 and mode(folder / "credentials.json") == 0o600
    broker = folder / "broker"
    assert sorted(p.name for p in broker.iterdir()) == ["acl", "data", "mosquitto.conf", "passwd"]
    assert mode(broker / "passwd") == 0o600 and mode(broker) == 0o700 and mode(broker / "data") == 0o700
    conf = (broker / "mosquitto.conf").read_text()
    paths = [line.split(None, 1)[1] for line in conf.splitlines()
             if line.split(None, 1)[0] in ("password_file", "acl_file", "persistence_location")]
    assert len(paths) == 3 and all(Path(p).resolve().is_relative_to(broker.resolve()) for p in paths)
    d = Director(EventDB(folder / "event.db"))  # its WAL and shared memory: as private as the database
    d.register("Ann")
    assert mode(folder / "event.db-wal") == 0o600 and mode(folder / "event.db-shm") == 0o600
    d.db.close()


def test_an_older_event_db_readable_by_all_is_made_private_when_opened(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "event.db", create=True)
    db.close()
    (tmp_path / "event.db").chmod(0o644)  # as init wrote it before
    EventDB(tmp_path / "event.db").close()
    assert mode(tmp_path / "event.db") == 0o600


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder other users can pass through (pytest's own are root's alone)."""
    base = Path(tempfile.mkdtemp(prefix="cribpi-room-"))
    base.chmod(0o755)
    yield base
    shutil.rmtree(base, ignore_errors=True)


def as_user(user: str, *argv: str) -> int:
    return subprocess.run(list(argv), user=user, capture_output=True).returncode


@pytest.mark.mqtt
def test_root_hands_the_broker_only_its_folder_and_the_broker_runs_as_its_own_user(open_folder: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root: init hands the broker's folder to the user mosquitto drops to")
    try:
        user = pwd.getpwnam("mosquitto")
    except KeyError:
        pytest.skip("no user mosquitto on this machine")
    folder, port = open_folder / "ev", free_port()
    init(folder, "--port", str(port), "--bind", "127.0.0.1")
    broker_dir = folder / "broker"
    assert all(p.stat().st_uid == user.pw_uid for p in (broker_dir, *broker_dir.rglob("*")))
    assert (folder / "event.db").stat().st_uid == 0 and (folder / "credentials.json").stat().st_uid == 0
    assert as_user("mosquitto", "cat", str(broker_dir / "passwd")) == 0
    for secret in ("event.db", "credentials.json"):  # what the broker's user cannot read, let alone write
        assert as_user("mosquitto", "cat", str(folder / secret)) != 0
        assert as_user("mosquitto", "touch", str(folder / secret)) != 0
    creds = json.loads((folder / "credentials.json").read_text())
    server = Mosquitto(Room(folder, port, creds))
    server.start()  # started by root, it drops to mosquitto and reads its passwd and acl
    try:
        connected: list[bool] = []
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        client.username_pw_set("t1", creds["t1"])
        client.on_connect = lambda c, u, f, rc, p: connected.append(not rc.is_failure)
        client.connect("127.0.0.1", port)
        client.loop_start()
        wait_for(lambda: bool(connected))
        client.disconnect()
        client.loop_stop()
        assert connected == [True]
    finally:
        server.stop()
    assert (broker_dir / "data" / "mosquitto.db").exists()  # its store, written as its user


def test_serve_warns_of_a_room_made_by_an_older_init(tmp_path: Path) -> None:
    from cribpi.tournament.director.room import room_warnings

    folder = tmp_path / "ev"
    init(folder, "--broker-user", pwd.getpwuid(os.getuid()).pw_name)
    assert room_warnings(folder) == []
    conf, acl = folder / "broker" / "mosquitto.conf", folder / "broker" / "acl"
    conf.write_text(conf.read_text().replace("use_username_as_clientid true\n", ""))
    acl.write_text("".join(line for line in acl.read_text().splitlines(keepends=True) if "/acks/" not in line))
    said = room_warnings(folder)
    assert len(said) == 2 and "use_username_as_clientid true" in said[0] and "acks/%u" in said[1]
    conf.write_text("".join(line for line in conf.read_text().splitlines(keepends=True) if "max_queued" not in line))
    said = room_warnings(folder)  # a room from before the broker's limits
    assert len(said) == 3 and "lacks the broker's limits" in said[1] and "'max_queued_bytes 67108864'" in said[1]
