"""``cribpi director init`` and ``cribpi loadgen`` from the command line: what init writes,
and bad input refused with one line and exit code 2, changing nothing."""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from pathlib import Path

import pytest

from cribpi.cli import main
from cribpi.tournament.director.eventdb import EventDB, check_password
from tests.sim.conftest import require


@pytest.mark.mqtt
def test_init_writes_the_event_and_the_room(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require("mosquitto_passwd")
    (tmp_path / "pw").write_text("a long admin secret\n")
    folder = tmp_path / "open26"
    assert main(["director", "init", "open26", "--dir", str(folder), "--tables", "3", "--port", "1999",
                 "--admin-password-file", str(tmp_path / "pw")]) == 0
    out = capsys.readouterr().out
    creds = json.loads((folder / "credentials.json").read_text())
    assert set(creds) == {"director", "t1", "t2", "t3"}
    for table in ("t1", "t2", "t3"):
        assert f"{table}       {table}         {creds[table]}" in out
    assert "admin password" not in out  # it came from the file
    passwd = (folder / "broker" / "passwd").read_text()
    assert all(line.split(":")[1].startswith("$7$") for line in passwd.splitlines())  # hashed by mosquitto_passwd
    assert creds["t1"] not in passwd
    assert stat.S_IMODE((folder / "broker" / "passwd").stat().st_mode) == 0o600
    assert "pattern write cribpi/open26/tables/%u/#" in (folder / "broker" / "acl").read_text()
    assert "listener 1999 0.0.0.0" in (folder / "broker" / "mosquitto.conf").read_text()
    db = EventDB(folder / "event.db")
    assert db.tables() == ["t1", "t2", "t3"] and db.get("event") == "open26"
    assert check_password("a long admin secret", db.get("admin")) and not check_password("guess", db.get("admin"))


@pytest.mark.mqtt
def test_init_leaves_the_new_folder_and_its_files_on_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A power cut right after init said the event is made keeps it: each file init wrote is
    fsynced, and so is each folder that holds a new entry, the new event folder's parent (and a
    parent init made on the way) included. Seen through os.fsync: which inodes it was called on."""
    require("mosquitto_passwd")
    (tmp_path / "pw").write_text("a long admin secret\n")
    folder = tmp_path / "events" / "open26"  # events/ is made too
    synced: list[tuple[int, int]] = []
    fsync = os.fsync

    def spy(fd: int) -> None:
        st = os.fstat(fd)
        synced.append((st.st_dev, st.st_ino))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    assert main(["director", "init", "open26", "--dir", str(folder), "--tables", "2",
                 "--admin-password-file", str(tmp_path / "pw")]) == 0

    def inode(path: Path) -> tuple[int, int]:
        st = path.stat()
        return st.st_dev, st.st_ino

    broker = folder / "broker"
    for path in (tmp_path, tmp_path / "events", folder, broker, broker / "data", folder / "credentials.json",
                 broker / "passwd", broker / "acl", broker / "mosquitto.conf"):
        assert inode(path) in synced, f"{path.relative_to(tmp_path)} never fsynced"
    # the parent's fsync comes after the folder was made with everything in it
    assert synced.index(inode(tmp_path)) > synced.index(inode(folder))


@pytest.mark.parametrize("argv, says", [
    (["director", "init", "bad name"], "event 'bad name' is not valid"),
    (["director", "init", "ok", "--tables", "0"], "--tables: '0' is not valid"),
    (["director", "init", "ok", "--best-of", "4"], "--best-of 4 is not valid"),
    (["director", "init", "ok", "--bind", "1.2.3.4\nallow_anonymous true"],
     "--bind '1.2.3.4\\nallow_anonymous true' is not valid: an IP address"),
    (["director", "init", "ok", "--bind", "foo bar"], "--bind 'foo bar' is not valid: an IP address"),
    (["director", "init", "ok", "--bind", "x..local"], "--bind 'x..local' is not valid"),
    (["director", "init", "ok", "--bind", "1.2.3.999"], "--bind '1.2.3.999' is not valid"),
    (["director", "init", "ok", "--broker-user", "a b"], "--broker-user 'a b' is not valid: a user name"),
    (["director", "init", "ok", "--broker-user", "root\nallow_anonymous true"], "--broker-user 'root\\nallow"),
    (["director", "init", "ok", "--tls-cert", "nonexist.pem", "--tls-key", "x"],
     "--tls-cert: nonexist.pem: no such certificate; expected a readable PEM file"),
    (["director", "serve"], ". holds no event: make one with  cribpi director init EVENT --dir ."),
    (["loadgen", "--broker", "mqtt://x", "--event", "e", "--tables", "2001"], "--tables: '2001' is not valid"),
    (["loadgen", "--broker", "http://x", "--event", "e", "--tables", "200"], "broker 'http://x' is not valid"),
    (["loadgen", "--broker", "mqtt://x", "--event", "e", "--first-table", "1990", "--tables", "20"],
     "--first-table 1990 with --tables 20 ends at t2009: tables go up to t2000"),
    (["loadgen", "--broker", "http://x", "--event", "e"], "broker 'http://x' is not valid"),
    (["loadgen", "--broker", "mqtt://x", "--event", "e", "--pace", "-1"], "--pace: '-1' is not valid"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, argv: list[str], says: str) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) if "--tables:" in says or "--pace:" in says or says.startswith("broker '") \
            else contextlib.nullcontext():  # argparse exits 2 itself (--broker: cribpi.inputs.broker_option)
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # nothing written



@pytest.mark.mqtt
@pytest.mark.parametrize("bind", ["192.168.1.5", "::1", "room.local", "localhost"])
def test_init_takes_an_address_or_a_host_name(tmp_path: Path, capsys: pytest.CaptureFixture[str], bind: str) -> None:
    require("mosquitto_passwd")
    assert main(["director", "init", "ev", "--dir", str(tmp_path / "ev"), "--tables", "1", "--bind", bind,
                 "--broker-user", "nobody"]) == 0
    conf = (tmp_path / "ev" / "broker" / "mosquitto.conf").read_text()
    assert f"listener 1883 {bind}\n" in conf and "user nobody\n" in conf


@pytest.mark.mqtt
def test_init_with_tls_says_mqtts_and_the_key_must_be_readable(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    require("mosquitto_passwd")
    (tmp_path / "cert.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    argv = ["director", "init", "ev", "--dir", str(tmp_path / "ev"), "--tables", "1", "--port", "8883",
            "--tls-cert", str(tmp_path / "cert.pem"), "--tls-key"]
    assert main([*argv, str(tmp_path / "folder-not-a-key")]) == 2
    assert "--tls-key: " in capsys.readouterr().err and not (tmp_path / "ev").exists()
    (tmp_path / "key.pem").write_text("-----BEGIN PRIVATE KEY-----\n")
    assert main([*argv, str(tmp_path / "key.pem")]) == 0
    out = capsys.readouterr().out
    assert "--broker mqtts://HOST:8883" in out and "mqtt://" not in out
    assert f"certfile {tmp_path / 'cert.pem'}\nkeyfile {tmp_path / 'key.pem'}\n" in (tmp_path / "ev" / "broker" / "mosquitto.conf").read_text()


@pytest.mark.mqtt
def test_init_refuses_a_folder_that_holds_a_room_and_serve_makes_its_fresh_database(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cribpi.tournament.director.room import DIRECTOR, fresh_event_db, read_credentials

    require("mosquitto_passwd")
    folder = tmp_path / "ev"
    assert main(["director", "init", "ev", "--dir", str(folder), "--tables", "3"]) == 0
    capsys.readouterr()
    (folder / "event.db").unlink()
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    assert main(["director", "init", "ev", "--dir", str(folder), "--tables", "3", "--port", "1999"]) == 2
    err = capsys.readouterr().err
    assert "holds a room already" in err and "cribpi director serve --dir" in err and len(err.splitlines()) == 1
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before  # passwords kept
    assert fresh_event_db(folder, "a new admin secret") == ["t1", "t2", "t3"]
    db = EventDB(folder / "event.db")
    assert db.get("event") == "ev" and db.tables() == ["t1", "t2", "t3"]
    assert check_password("a new admin secret", db.get("admin"))
    assert set(read_credentials(folder / "credentials.json")) == {DIRECTOR, "t1", "t2", "t3"}


@pytest.mark.parametrize("text, says", [
    ("{not json", "not valid JSON"), ("[1, 2]", "not an object of user names to passwords"),
    ('{"t1": "x"}', "no 'director' password in it"),
])
def test_serve_refuses_a_bad_credentials_file_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          text: str, says: str) -> None:
    (tmp_path / "credentials.json").write_text(text)
    assert main(["director", "serve", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert says in err and "credentials.json" in err and len(err.strip().splitlines()) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["credentials.json"]


@pytest.mark.mqtt
@pytest.mark.parametrize("root, user", [(True, None), (True, "nobody"), (False, None)])
def test_init_as_root_says_how_mosquitto_reads_passwd(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch, root: bool,
                                                      user: str | None) -> None:
    require("mosquitto_passwd")
    monkeypatch.setattr("os.geteuid", lambda: 0 if root else 1000)
    folder = tmp_path / "ev"
    assert main(["director", "init", "ev", "--dir", str(folder), "--tables", "1"]
                + (["--broker-user", user] if user else [])) == 0
    out = capsys.readouterr().out
    handed = f"{folder / 'broker'} (passwd, acl, data/) belongs to the broker's user {user or 'mosquitto'}"
    hint = f"chown -R mosquitto: {folder / 'broker'}"
    if root:  # handed to the broker's user by init (root can), or told how: its folder only, either way
        assert (handed in out) != (hint in out)
    else:
        assert handed not in out and hint not in out
    assert f"chown -R mosquitto: {folder} " not in out  # never the director's files


@pytest.mark.mqtt
def test_serve_makes_a_fresh_database_for_a_room_without_one(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import getpass

    from cribpi.tournament.director.web import server as webserver
    from tests.tournament.conftest import Mosquitto, free_port

    require("mosquitto")
    require("mosquitto_passwd")
    folder, port = tmp_path / "ev", free_port()
    assert main(["director", "init", "ev", "--dir", str(folder), "--tables", "2", "--port", str(port),
                 "--bind", "127.0.0.1", "--broker-user", getpass.getuser()]) == 0
    (folder / "event.db").unlink()
    passwd = (folder / "broker" / "passwd").read_bytes()
    served: list[object] = []
    monkeypatch.setattr(webserver, "serve_app", lambda app, host, port, **kw: served.append(app))
    (tmp_path / "acl").write_bytes((folder / "broker" / "acl").read_bytes())
    (folder / "broker" / "acl").unlink()  # part of a room: serve makes nothing
    argv = ["director", "serve", "--dir", str(folder), "--broker", f"mqtt://127.0.0.1:{port}"]
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "has no event.db and only part of a room (no acl)" in err and not (folder / "event.db").exists()
    (folder / "broker" / "acl").write_bytes((tmp_path / "acl").read_bytes())
    from cribpi.tournament.director.room import Room

    broker = Mosquitto(Room(folder, port, {}))
    broker.start()
    try:
        assert main(argv) == 0
    finally:
        broker.stop()
    out = capsys.readouterr().out
    assert "a fresh event.db" in out and "for the room's 2 tables" in out and len(served) == 1
    # where its pages are, and what it follows (it used to print nothing)
    assert "event ev: its pages" in out and "also http://127.0.0.1:8080/ (this machine)" in out
    for page in ("the wall", "seating", "leaderboard", "bracket", "admin"):  # each page's address
        line = next(x for x in out.splitlines() if x.startswith(f"  {page} "))
        assert re.fullmatch(rf"  {page} +http://\S+:8080/{'' if page == 'the wall' else page}", line), line
    assert f"following the broker mqtt://127.0.0.1:{port}" in out
    password = out.split("admin password (pages /admin): ")[1].split()[0]
    db = EventDB(folder / "event.db")
    assert db.get("event") == "ev" and db.tables() == ["t1", "t2"] and check_password(password, db.get("admin"))
    assert (folder / "broker" / "passwd").read_bytes() == passwd  # the tables' passwords kept
