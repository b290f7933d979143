"""``cribpi director init --rooms`` and ``cribpi loadgen --room`` from the command line (no
broker running: tests/tournament/test_bridge.py runs the brokers init writes), and the
director's record of a room out of reach across a restart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cribpi.cli import main
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.director.roomlink import Reach
from tests.sim.conftest import require

pytestmark = pytest.mark.bridge


def test_init_rooms_numbers_the_tables_on_and_says_each_rooms_command(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    require("mosquitto_passwd")
    folder = tmp_path / "open26"
    assert main(["director", "init", "open26", "--dir", str(folder), "--rooms", "hall:2,annex:3:1884",
                 "--bridge-to", "192.168.10.1:1883"]) == 0
    out = capsys.readouterr().out
    assert "room annex (t3-t5)" in out and f"mosquitto -c {folder}/rooms/annex/broker/mosquitto.conf" in out
    creds = json.loads((folder / "credentials.json").read_text())
    assert set(creds) == {"director", "room-hall", "room-annex", "t1", "t2", "t3", "t4", "t5"}
    rooms = json.loads((folder / "rooms.json").read_text())["rooms"]
    assert rooms == {"hall": {"tables": ["t1", "t2"], "port": 1883}, "annex": {"tables": ["t3", "t4", "t5"], "port": 1884}}
    db = EventDB(folder / "event.db")
    assert db.tables() == ["t1", "t2", "t3", "t4", "t5"] and json.loads(db.get("rooms"))["annex"] == ["t3", "t4", "t5"]
    db.close()
    annex = (folder / "rooms" / "annex" / "broker" / "mosquitto.conf").read_text()
    assert "listener 1884 0.0.0.0\n" in annex and "address 192.168.10.1:1883\n" in annex
    director = (folder / "broker" / "passwd").read_text()
    assert [line.split(":")[0] for line in director.splitlines()] == ["director", "room-hall", "room-annex"]


@pytest.mark.parametrize("more, says", [
    (["--rooms", "hall:2"], "--rooms needs --bridge-to HOST[:PORT]"),
    (["--rooms", "hall:2,hall:3", "--bridge-to", "x"], "room 'hall' is named twice"),
    (["--rooms", "Hall:2", "--bridge-to", "x"], "--rooms 'Hall:2' is not valid: NAME:TABLES[:PORT]"),
    (["--rooms", "hall:0", "--bridge-to", "x"], "--rooms 'hall:0' is not valid: 1-2000 tables"),
    (["--rooms", "hall:2", "--tables", "3", "--bridge-to", "x"], "--tables and --rooms do not go together"),
    (["--rooms", "hall:2", "--bridge-to", "x:99999"], "--bridge-to 'x:99999' is not valid: HOST[:PORT]"),
    (["--rooms", "hall:2", "--bridge-to", "bad host"], "--bridge-to 'bad host' is not valid"),
    (["--rooms", "hall:2", "--bridge-to", "::1"], "--bridge-to '::1' is not valid"),
    (["--bridge-to", "x"], "--bridge-to and --bridge-ca go with --rooms"),
])
def test_bad_rooms_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          more: list[str], says: str) -> None:
    assert main(["director", "init", "ev", "--dir", str(tmp_path / "ev"), *more]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_loadgen_room_is_checked_against_the_events_rooms(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require("mosquitto_passwd")
    folder = tmp_path / "ev"
    assert main(["director", "init", "ev", "--dir", str(folder), "--rooms", "hall:2,annex:3", "--bridge-to", "x"]) == 0
    capsys.readouterr()
    base = ["loadgen", "--broker", "mqtt://127.0.0.1:1", "--event", "ev"]
    for more, says in ((["--room", "annex"], "--room needs --credentials"),
                       (["--room", "gym", "--credentials", str(folder / "credentials.json")],
                        "--room 'gym' is not a room of the event: hall, annex"),
                       (["--room", "annex", "--tables", "4", "--credentials", str(folder / "credentials.json")],
                        "--room annex has 3 tables (t3-t5)"),
                       (["--room", "hall", "--credentials", str(tmp_path / "ev" / "broker" / "passwd")],
                        "no rooms.json beside --credentials")):
        assert main(base + more) == 2
        err = capsys.readouterr().err
        assert says in err and len(err.strip().splitlines()) == 1, err


def test_a_room_out_of_reach_is_still_said_since_when_after_the_director_restarts(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "event.db", create=True)
    db.put("rooms", json.dumps({"hall": ["t1"], "annex": ["t2"]}))
    now = [1000.0]
    reach = Reach(db, lambda: now[0])
    assert [r["room"] for r in reach.out_of_reach()] == ["hall", "annex"]  # not heard from yet: since the start
    assert reach.said("hall", b"1", retained=True)["reachable"] is True
    now[0] = 1010.0
    assert reach.said("hall", b"0", retained=False) == {"room": "hall", "tables": ["t1"], "reachable": False,
                                                         "heard": True, "since": 1010.0}
    assert reach.said("hall", b"0", retained=False) is None  # no change
    assert reach.said("hall", b"up", retained=False) is None and reach.said("gym", b"1", retained=False) is None
    now[0] = 2000.0
    again = Reach(db, lambda: now[0])  # the director restarted; the bridge's will is retained
    assert again.said("hall", b"0", retained=True)["since"] == 1010.0
    assert "room hall is out of reach since" in again.warnings()[0]
    assert again.said("hall", b"1", retained=False)["since"] == 2000.0
    assert Reach(db, lambda: 3000.0).rooms["hall"]["since"] == 3000.0  # back up: no old since kept
    db.close()


def test_serve_makes_a_fresh_database_for_an_event_of_rooms_with_each_rooms_tables(tmp_path: Path) -> None:
    require("mosquitto_passwd")
    from cribpi.tournament.director.room import fresh_event_db, room_warnings

    folder = tmp_path / "ev"
    assert main(["director", "init", "ev", "--dir", str(folder), "--rooms", "hall:2,annex:1", "--bridge-to", "x"]) == 0
    (folder / "event.db").unlink()
    assert fresh_event_db(folder, "a new admin pw") == ["t1", "t2", "t3"]
    db = EventDB(folder / "event.db")
    assert db.get("event") == "ev" and json.loads(db.get("rooms")) == {"hall": ["t1", "t2"], "annex": ["t3"]}
    db.close()
    assert room_warnings(folder) == []  # the director's broker has no table: nothing of a one-room event lacking
