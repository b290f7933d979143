"""A table and the director through a real mosquitto with the room's generated config: a game
reaching the standings, a broker restart mid-game, a table offline for a whole game, a table
spoofing another's topic."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cribpi.tournament.broker import parse_broker
from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.table.loadgen import play_match, start_next
from cribpi.tournament.director.room import DIRECTOR, EVENT_DB
from tests.tournament.conftest import Mosquitto
from tests.tournament.test_publisher import publisher, wait_for

pytestmark = pytest.mark.mqtt
NAMES = ("Ann", "Ben")


def director(broker: Mosquitto, group_seconds: float = 0.005) -> Director:
    d = Director(EventDB(broker.room.folder / EVENT_DB))
    for name in NAMES:
        d.register(name)
    d.connect(parse_broker(broker.url, username=DIRECTOR, password=broker.room.credentials[DIRECTOR]),
              group_seconds=group_seconds)
    wait_for(d.subscribed.is_set)
    return d


def winner(d: Director) -> dict[str, object]:
    return d.ranked()[0]


def test_a_tables_game_reaches_the_standings(broker: Mosquitto, tmp_path: Path) -> None:
    d = director(broker)
    pub = publisher(broker, tmp_path)
    pub.start()
    states = list(play_match(NAMES, random.Random(11), pub, 1))
    start_next(NAMES, pub, 2)
    wait_for(lambda: d.accepted["result"] == 1)
    pub.stop()
    final = states[-1]
    won = final.games[0]
    top = winner(d)
    assert top["name"] == NAMES[won.winner] and top["points"] == won.result.game_points
    assert top["spread"] == won.result.margin
    wait_for(lambda: d.live["t1"]["online"] is False)  # the table's goodbye, delivered after its stop
    assert d.live["t1"]["state"]["game"] == 2
    assert d.refused == {}
    d.close()


def test_broker_restarted_mid_game_nothing_lost_nothing_doubled(broker: Mosquitto, tmp_path: Path) -> None:
    d = director(broker)
    pub = publisher(broker, tmp_path)
    pub.start()
    game = play_match(NAMES, random.Random(12), pub, 1)
    for _ in range(40):
        next(game)
    wait_for(lambda: pub.outbox.unsent() == 0)
    broker.stop()
    for _ in game:  # the rest of the game while the broker is down
        pass
    start_next(NAMES, pub, 2)
    ids = {row for (row,) in pub.outbox.db.execute("SELECT id FROM tournament_outbox")}  # sent rows stay till a restart
    total = max(ids)
    broker.start()
    wait_for(lambda: d.accepted["result"] == 1 and d.newest.get("t1") == total, timeout=60)
    pub.stop()
    assert d.seen["t1"].ids == ids - {r["msg_id"] for r in d.db.results()}
    assert [x["games"] for x in d.ranked()] == [1, 1]
    assert set(d.refused) <= {"replay"}  # a resend whose ack was lost, dropped by (table, id)
    d.close()


def test_a_broker_lost_holding_unacknowledged_messages_still_gets_every_id_in_order(
        broker: Mosquitto, tmp_path: Path) -> None:
    """Paho resends what it held on the lost connection only after the new one's on_connect:
    the publisher's newer messages must not overtake those resends (an out-of-order refusal)."""
    d = director(broker)
    pub = publisher(broker, tmp_path)
    pub.start()
    game = play_match(NAMES, random.Random(12), pub, 1)
    for _ in range(20):
        next(game)
    wait_for(lambda: pub.outbox.unsent() == 0)
    broker.freeze()
    for _ in range(20):  # handed to paho, never acknowledged by the frozen broker
        next(game)
    wait_for(lambda: len(pub.inflight) >= 10)  # the sender handed them over
    broker.stop()
    for _ in game:
        pass
    start_next(NAMES, pub, 2)
    ids = {row for (row,) in pub.outbox.db.execute("SELECT id FROM tournament_outbox")}
    broker.start()
    wait_for(lambda: d.accepted["result"] == 1 and d.newest.get("t1") == max(ids), timeout=60)
    pub.stop()
    assert d.seen["t1"].ids == ids - {r["msg_id"] for r in d.db.results()}
    assert set(d.refused) <= {"replay"}  # never out_of_order: no newer id before a resent older one
    d.close()


def test_a_director_that_dies_before_acknowledging_gets_the_result_again_and_counts_it_once(
        broker: Mosquitto, tmp_path: Path) -> None:
    d = director(broker, group_seconds=3)  # its fsync and acks wait 3 s: the director dies first
    pub = publisher(broker, tmp_path)
    pub.start()
    for _ in play_match(NAMES, random.Random(11), pub, 1):
        pass
    wait_for(lambda: d.accepted["result"] == 1)
    assert d.db.unsynced() and d.unacked and winner(d)["games"] == 1  # taken and counted, not acknowledged
    d.stopping = True  # dies: no fsync of its own, no acknowledgement
    assert d.client is not None
    d.client.disconnect()
    d.client.loop_stop()
    pub.stop()
    again = director(broker)
    assert winner(again)["games"] == 1  # its commit was kept (the director died, not the machine)
    wait_for(lambda: again.refused["replay"] >= 1)  # the broker delivers the unacknowledged result again
    assert len(again.db.results()) == 1 and winner(again)["games"] == 1 and again.accepted["result"] == 0
    again.close()
    again.db.close()
    d.db.close()


def test_a_table_offline_for_a_whole_game_then_reconnecting(broker: Mosquitto, tmp_path: Path) -> None:
    d = director(broker)
    pub = publisher(broker, tmp_path)
    for _ in play_match(NAMES, random.Random(13), pub, 1):  # never started: no network at all
        pass
    start_next(NAMES, pub, 2)
    assert d.accepted["result"] == 0
    pub.start()
    wait_for(lambda: d.accepted["result"] == 1)
    pub.stop()
    assert [x["games"] for x in d.ranked()] == [1, 1]
    d.close()


def test_a_spoofed_table_is_dropped_by_the_broker_and_never_shown(broker: Mosquitto, tmp_path: Path) -> None:
    d = director(broker)
    t2 = publisher(broker, tmp_path, table="t2")
    t2.start()
    wait_for(lambda: t2.connected)
    fake = b'{"id":1,"game":1,"game_number":1,"players":["Ann","Ben"],"scores":[121,0],"winner":0,' \
           b'"kind":"double_skunk","game_points":3,"margin":121,"status":"confirmed","at":1.0}'
    t2.client.publish("cribpi/open/tables/t1/result", fake, qos=1).wait_for_publish(5)
    t2.client.publish("cribpi/open/tables/t1/status", b"online", qos=1).wait_for_publish(5)
    t2.client.publish("cribpi/open/tables/t2/status", b"online", qos=1).wait_for_publish(5)
    wait_for(lambda: d.live["t2"]["online"])
    t2.stop()
    assert d.live["t1"]["online"] is False and d.live["t1"]["state"] is None
    assert all(x["games"] == 0 for x in d.ranked())
    d.close()


def test_loadgen_plays_every_table_to_a_confirmed_result(broker: Mosquitto, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from cribpi.tournament.table.loadgen import player_names

    d = director(broker)
    for n in (1, 2, 3):
        for name in player_names(n):
            d.register(name)
    creds = tmp_path / "credentials.json"
    creds.write_text(json.dumps(broker.room.credentials))
    done = subprocess.run([sys.executable, "-m", "cribpi", "loadgen", "--broker", broker.url, "--event", "open",
                           "--tables", "3", "--games", "2", "--seed", "4", "--pace", "0", "--credentials", str(creds),
                           "--outbox-dir", str(tmp_path / "outboxes")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "3 tables played 6 games" in done.stdout
    wait_for(lambda: d.accepted["result"] == 6)
    assert sum(x["games"] for x in d.ranked()) == 12 and d.refused == {}
    d.close()


def test_director_serve_follows_the_broker_and_serves_the_api(broker: Mosquitto, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    import httpx2

    from tests.tournament.conftest import free_port, wait_port

    folder = broker.room.folder
    (folder / "credentials.json").write_text(json.dumps(broker.room.credentials))
    db = EventDB(folder / EVENT_DB)
    for name in NAMES:
        db.add_player(name)
    db.close()
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cribpi", "director", "serve", "--dir", str(folder), "--broker",
                             broker.url, "--host", "127.0.0.1", "--http-port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pub = publisher(broker, tmp_path)
    try:
        wait_port(port, timeout=60)  # serve answers once the broker holds its subscription
        pub.start()
        for _ in play_match(NAMES, random.Random(15), pub, 1):
            pass
        start_next(NAMES, pub, 2)

        def played() -> bool:
            try:
                rows = httpx2.get(f"http://127.0.0.1:{port}/api/standings", timeout=1).json()
            except httpx2.HTTPError:
                return False
            return [r["games"] for r in rows] == [1, 1]

        wait_for(played, timeout=60)
        table = httpx2.get(f"http://127.0.0.1:{port}/api/tables/t1").json()
        assert table["state"]["game"] == 2 and table["state"]["players"] == list(NAMES)
    finally:
        pub.stop()
        proc.terminate()
        proc.communicate(timeout=60)


def test_a_double_skunk_at_the_table_counts_at_the_director(broker: Mosquitto, tmp_path: Path) -> None:
    """The rules grade it "double skunk"; the wire says double_skunk, which the director takes."""
    import json

    from cribpi.app import TableApp, TableSettings, TableUI
    from cribpi.game import Mode
    from cribpi.hal import Action
    from cribpi.hal.mock import open_mock

    d = director(broker)
    pub = publisher(broker, tmp_path)
    settings = TableSettings(names=NAMES, mode=Mode.BOARD, confirm_results=True)
    app = TableApp(open_mock(), TableUI(settings, rng=random.Random(1)))  # a cut of 3C, TC: no tie to cut again
    app.subscribe(pub)
    pub.start()
    app.start()
    try:
        for action in ("ok", "peg 1 60", "ok", "peg 1 61", "ok", "ok", "ok"):  # Ben pegs out at 121-0; both confirm
            app.handle(Action.parse(action))
        wait_for(lambda: d.accepted["result"] == 1)
        sent = [json.loads(p) for _, kind, p in pub.outbox.pending(0, 10_000, again=True) if kind == "result"]
        assert [r["kind"] for r in sent] == ["double_skunk"]  # the wire's name, not the rules' words
    finally:
        app.close()
        pub.stop()
    assert [(x["name"], x["points"], x["spread"]) for x in d.ranked()] == [("Ben", 3, 121), ("Ann", 0, -121)]
    assert d.db.results()[0]["kind"] == "double_skunk" and d.refused == {}
    d.close()


def test_a_table_that_is_off_stays_offline_when_the_director_restarts(broker: Mosquitto, tmp_path: Path) -> None:
    """The broker keeps each table's last board and status (retained) and hands both to a
    director that subscribes: the board is shown, but only a live board or ``online`` says the
    table is on."""
    d = director(broker)
    pub = publisher(broker, tmp_path)
    pub.start()
    for _ in play_match(NAMES, random.Random(5), pub, 1):
        pass
    wait_for(lambda: d.accepted["result"] == 1 and d.live["t1"]["online"] is True)
    pub.stop()
    wait_for(lambda: d.live["t1"]["online"] is False)
    shown = d.live["t1"]["state"]
    d.close()
    again = director(broker)
    wait_for(lambda: again.live["t1"]["state"] is not None and again.accepted["status"] >= 1)
    assert again.live["t1"]["state"] == shown and again.live["t1"]["online"] is False
    back = publisher(broker, tmp_path)  # the table comes back: its status and its live board say so
    back.start()
    wait_for(lambda: again.live["t1"]["online"] is True)
    back.stop()
    again.close()


def test_only_a_live_board_marks_a_table_online(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "event.db", create=True)
    db.put("event", "open")
    db.add_tables(["t1"])
    d = Director(db)
    state = {"game": 1, "players": ["Ann", "Ben"], "scores": [5, 7], "rear": [0, 3], "dealer": 0, "game_number": 1,
             "match_games": 1, "games_won": [0, 0], "last": None, "phase": "play", "status": "playing", "at": 5.0}
    assert d.handle("cribpi/open/tables/t1/status", b"offline", retained=True)
    assert d.handle("cribpi/open/tables/t1/state", json.dumps(state).encode(), retained=True)
    assert d.live["t1"] == {"table": "t1", "online": False, "state": state}
    assert d.handle("cribpi/open/tables/t1/state", json.dumps({**state, "at": 6.0}).encode())
    assert d.live["t1"]["online"] is True
