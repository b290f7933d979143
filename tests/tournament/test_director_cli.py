"""``cribpi director init`` and ``cribpi loadgen`` from the command line: what init writes,
and bad input refused with one line and exit code 2, changing nothing."""

from __future__ import annotations

import contextlib
import json
import stat
from pathlib import Path

import pytest

from cribpi.cli import main
from cribpi.tournament.eventdb import EventDB, check_password
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
    passwd = (folder / "passwd").read_text()
    assert all(line.split(":")[1].startswith("$7$") for line in passwd.splitlines())  # hashed by mosquitto_passwd
    assert creds["t1"] not in passwd
    assert stat.S_IMODE((folder / "passwd").stat().st_mode) == 0o600
    assert "pattern write cribpi/open26/tables/%u/#" in (folder / "acl").read_text()
    assert "listener 1999 0.0.0.0" in (folder / "mosquitto.conf").read_text()
    db = EventDB(folder / "event.db")
    assert db.tables() == ["t1", "t2", "t3"] and db.get("event") == "open26"
    assert check_password("a long admin secret", db.get("admin")) and not check_password("guess", db.get("admin"))


@pytest.mark.parametrize("argv, says", [
    (["director", "init", "bad name"], "event 'bad name' is not valid"),
    (["director", "init", "ok", "--tables", "0"], "--tables: '0' is not valid"),
    (["director", "init", "ok", "--best-of", "4"], "--best-of 4 is not valid"),
    (["loadgen", "--broker", "mqtt://x", "--event", "e", "--tables", "2001"], "--tables: '2001' is not valid"),
    (["loadgen", "--broker", "http://x", "--event", "e", "--tables", "200"], "broker 'http://x' is not valid"),
    (["loadgen", "--broker", "mqtt://x", "--event", "e", "--first-table", "1990", "--tables", "20"],
     "--first-table 1990 with --tables 20 ends at t2009: tables go up to t2000"),
    (["loadgen", "--broker", "http://x", "--event", "e"], "broker 'http://x' is not valid"),
    (["loadgen", "--broker", "mqtt://x", "--event", "e", "--pace", "-1"], "--pace -1.0 is not valid"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, argv: list[str], says: str) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) if "--tables:" in says else contextlib.nullcontext():  # argparse exits 2 itself
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # nothing written

