"""One event across two rooms: three real mosquittos on loopback ports (the director's and two
rooms'), bridged exactly as ``cribpi director init --rooms`` writes them (only each room's
``address`` rewritten, to a relay that can cut its link: :mod:`tests.tournament.linkcut`).
A whole seated round played across both rooms by ``cribpi loadgen --room`` with one room's
link cut mid-round; a room's broker killed (SIGKILL) with results queued for its bridge; the
ACL across the bridge (a table of one room against another's, a bridge user against another
room's topics). The brokers, the director and its pages start once for the module."""

from __future__ import annotations

import getpass
import json
import random
import re
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cribpi.tournament.broker import parse_broker
from cribpi.tournament.director import Director
from cribpi.tournament.director.casting import follow
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.director.room import DIRECTOR, EVENT_DB, Room
from cribpi.tournament.director.rooms import RoomSpec, bridge_user, init_rooms
from cribpi.tournament.table.loadgen import play_match, start_next
from cribpi.tournament.table.outbox import Outbox
from cribpi.tournament.table.publisher import TablePublisher
from tests.sim.conftest import require
from tests.tournament.conftest import ADMIN_PASSWORD, EVENT, Mosquitto, free_port
from tests.tournament.linkcut import LinkCut
from tests.tournament.test_browser import Server
from tests.tournament.test_publisher import wait_for

pytestmark = [pytest.mark.mqtt, pytest.mark.bridge]
CUT_SECONDS = 3.0  # how long a room's link is cut in a test (the benchmark cuts it for 30 s)
HALL, ANNEX = "hall", "annex"
PLAYERS = [f"P{n:03}" for n in range(1, 13)]  # 6 tables, 3 a room


@dataclass
class Event:
    folder: Path
    director: Director
    server: Server
    brokers: dict[str, Mosquitto]  # "" (the director's), hall, annex
    links: dict[str, LinkCut]  # each room's link to the director's broker
    credentials: dict[str, str]
    rooms: dict[str, list[str]]

    def api(self, path: str) -> Any:
        with urllib.request.urlopen(self.server.url(path), timeout=10) as answer:
            return json.loads(answer.read())

    def reachable(self, room: str) -> bool:
        return bool(next(r for r in self.api("/api/rooms") if r["room"] == room)["reachable"])


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Event]:
    require("mosquitto")
    require("mosquitto_passwd")
    folder = tmp_path_factory.mktemp("bridge") / "event"
    port = free_port()
    specs = [RoomSpec(HALL, 3, free_port()), RoomSpec(ANNEX, 3, free_port())]
    made = init_rooms(folder, EVENT, specs, ADMIN_PASSWORD, to=("127.0.0.1", port), port=port, bind="127.0.0.1",
                      room_bind="127.0.0.1", run_as=getpass.getuser())
    (folder / "credentials.json").write_text(json.dumps(made.credentials))
    links = {spec.name: LinkCut(port) for spec in specs}
    for spec in specs:  # only the address: each room's link goes through a relay the test can cut
        conf = made.confs[spec.name]
        text = conf.read_text()
        assert f"address 127.0.0.1:{port}\n" in text
        conf.write_text(text.replace(f"address 127.0.0.1:{port}\n", f"address 127.0.0.1:{links[spec.name].port}\n"))
    brokers = {"": Mosquitto(Room(folder, port, {}))}
    brokers |= {spec.name: Mosquitto(Room(folder / "rooms" / spec.name, spec.port, {})) for spec in specs}
    for broker in brokers.values():
        broker.start()
    director = Director(EventDB(folder / EVENT_DB))
    for name in PLAYERS:
        director.register(name)
    director.connect(parse_broker(brokers[""].url, username=DIRECTOR, password=made.credentials[DIRECTOR]))
    wait_for(director.subscribed.is_set)
    follow(director)  # each round's seating to its tables, as `director serve` does
    server = Server(director)
    e = Event(folder, director, server, brokers, links, made.credentials, made.rooms)
    wait_for(lambda: e.reachable(HALL) and e.reachable(ANNEX), what="both rooms' bridges up")
    yield e
    server.stop()
    director.close()
    director.db.close()
    for broker in brokers.values():
        broker.stop()
    for link in links.values():
        link.cut()


def test_init_writes_a_bridge_per_room_for_its_own_tables_only(event: Event) -> None:
    hall = (event.folder / "rooms" / HALL / "broker" / "mosquitto.conf").read_text()
    assert event.rooms == {HALL: ["t1", "t2", "t3"], ANNEX: ["t4", "t5", "t6"]}  # ids unique across the rooms
    assert re.findall(r"^topic (\S+) (in|out) 1$", hall, re.MULTILINE) == [
        (f"cribpi/{EVENT}/director", "in"),
        *[(f"cribpi/{EVENT}/{what}", way) for n in (1, 2, 3)
          for what, way in ((f"tables/t{n}/#", "out"), (f"acks/t{n}", "in"), (f"seats/t{n}", "in"))]]
    for line in ("connection room-hall", "remote_username room-hall", "cleansession false", "notifications true",
                 f"notification_topic cribpi/{EVENT}/rooms/hall", "try_private true", "#bridge_cafile"):
        assert f"\n{line}" in hall
    assert event.credentials[bridge_user(HALL)] in hall  # the bridge's own password on the director's broker
    assert (event.folder / "rooms" / HALL / "broker" / "mosquitto.conf").stat().st_mode & 0o077 == 0
    room_creds = json.loads((event.folder / "rooms" / ANNEX / "credentials.json").read_text())
    assert sorted(room_creds) == ["t4", "t5", "t6"]  # a room's credential set: its tables only
    assert event.api("/api/seating")["round"] == 0


class Client:
    """Someone on a broker with a user's password (a table's owner with mosquitto_pub)."""

    def __init__(self, broker: Mosquitto, user: str, password: str, *, clean: bool = True,
                 client_id: str | None = None) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self.refused: mqtt.ReasonCode | None = None
        self.ready = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or user, clean_session=clean)
        self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, bytes(m.payload)))
        self.client.connect("127.0.0.1", broker.room.port)
        self.client.loop_start()
        assert self.ready.wait(30)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self.refused = reason if reason.is_failure else None
        self.ready.set()

    def send(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(30)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def t(table: str, kind: str) -> str:
    return f"cribpi/{EVENT}/tables/{table}/{kind}"


def test_a_table_of_one_room_cannot_speak_for_another_rooms_table(event: Event) -> None:
    d = event.director
    # asking for the bridge's client id, on the room's broker and as the bridge is known on the
    # director's: the broker gives every client its user name as its id, so the link stays up
    owner = Client(event.brokers[HALL], "t1", event.credentials["t1"], client_id="bridge-hall", clean=False)
    other = Client(event.brokers[HALL], "t2", event.credentials["t2"], client_id=bridge_user(HALL), clean=False)
    before, t4 = d.accepted["status"], dict(d.live["t4"])
    owner.send(t("t4", "status"), b"online")  # t1's password, annex's table: the hall's broker drops it
    owner.send(t("t1", "status"), b"online")  # then its own, over the same bridge, after it
    wait_for(lambda: d.accepted["status"] == before + 1 and d.live["t1"]["online"])
    assert d.live["t4"] == t4 and "bad_topic" not in d.refused
    assert event.reachable(HALL) and all(r["reachable"] for r in d.reach.listed())  # never dropped
    owner.close()
    other.close()
    # nor does a table's password open the other room's broker, or the director's
    for broker in (event.brokers[ANNEX], event.brokers[""]):
        intruder = Client(broker, "t1", event.credentials["t1"])
        assert intruder.refused is not None
        intruder.close()


def test_a_bridge_user_writes_and_reads_only_its_own_rooms_tables(event: Event) -> None:
    """The hall's bridge password on the director's broker (its link cut meanwhile, or the bridge
    and the test would take the client id from each other by turns): another room's tables,
    acks, seats and link are closed to it."""
    d = event.director
    d.seat_round("random", random.Random(1))  # retained seats for every table, on the director's broker
    hall_seat = next(r for r in d.seating()["tables"] if r["table"] in event.rooms[HALL])
    annex_seat = next(r for r in d.seating()["tables"] if r["table"] in event.rooms[ANNEX])
    event.links[HALL].cut()
    wait_for(lambda: not event.reachable(HALL))
    thief = Client(event.brokers[""], bridge_user(HALL), event.credentials[bridge_user(HALL)])
    assert thief.refused is None
    before, t5 = d.accepted["status"], dict(d.live["t5"])
    assert not d.live["t2"]["online"]
    thief.client.subscribe([(f"cribpi/{EVENT}/seats/{annex_seat['table']}", 1), (f"cribpi/{EVENT}/acks/t4", 1),
                            (f"cribpi/{EVENT}/seats/{hall_seat['table']}", 1)])
    thief.send(f"cribpi/{EVENT}/rooms/{ANNEX}", b"0", retain=True)  # says the annex is down: dropped
    thief.send(t("t5", "status"), b"offline")  # another room's table: dropped
    thief.send(t("t2", "status"), b"online")  # its own room's table: taken
    wait_for(lambda: d.live["t2"]["online"] and any("seats" in m[0] for m in thief.messages),
             what="t2's status taken and the hall's seat read")
    assert d.accepted["status"] == before + 1
    assert [m[0] for m in thief.messages] == [f"cribpi/{EVENT}/seats/{hall_seat['table']}"]  # only its room's
    assert event.reachable(ANNEX) and d.live["t5"] == t5 and "bad_topic" not in d.refused
    thief.close()
    event.links[HALL].restore()
    wait_for(lambda: event.reachable(HALL), what="the hall's bridge back")


def outbox_results(folder: Path) -> list[tuple[int, int, str | None]]:
    """Each result in the outboxes in ``folder``: (sent to the room's broker, its id, done: the
    director's session that said it has it)."""
    rows = []
    for path in sorted(folder.glob("t*-outbox.db")):
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            rows += db.execute("SELECT sent, id, done FROM tournament_outbox WHERE kind = 'result'").fetchall()
    return rows


def loadgen(event: Event, room: str, outboxes: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "cribpi", "loadgen", "--room", room, "--broker",
                             event.brokers[room].url, "--event", EVENT, "--credentials",
                             str(event.folder / "credentials.json"), "--director", event.server.url(""),
                             "--rounds", "1", "--pace", "0.01", "--outbox-dir", str(outboxes)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.browser
def test_a_seated_round_across_both_rooms_survives_a_rooms_link_cut(event: Event, tmp_path: Path,
                                                                   chromium_once: Any) -> None:
    d = event.director
    wall = chromium_once.new_page()
    wall.goto(event.server.url("/"))  # the wall, open on the director's screen all along
    wall.wait_for_selector("#conn.live")
    number, _ = d.seat_round("random", random.Random(2))
    annex_boxes = tmp_path / ANNEX
    procs = [loadgen(event, HALL, tmp_path / HALL), loadgen(event, ANNEX, annex_boxes)]
    wait_for(lambda: any(t in d.newest for t in event.rooms[ANNEX]), what="the annex's tables playing")
    event.links[ANNEX].cut()  # mid-round
    cut_at = time.time()
    wait_for(lambda: not event.reachable(ANNEX), what="the page saying the annex is out of reach")
    shown = next(r for r in event.api("/api/rooms") if r["room"] == ANNEX)
    assert cut_at - 1 <= shown["since"] <= time.time() and event.reachable(HALL)
    assert all(x["reachable"] is False for x in event.api("/api/tables") if x["table"] in event.rooms[ANNEX])
    assert any("annex is out of reach since" in w for w in event.api("/api/health")["warnings"])
    wall.wait_for_function("document.getElementById('rooms').textContent.startsWith('annex out of reach since')")
    wall.wait_for_function("document.querySelector('#table-t4 .status').textContent === 'annex out of reach'")
    assert wall.locator("#table-t1 .status").inner_text() != "hall out of reach"
    held = {t: d.newest.get(t) for t in event.rooms[ANNEX]}
    # the annex plays on: its results reach its broker (queued for the bridge), not the director
    wait_for(lambda: len(outbox_results(annex_boxes)) == 3 and all(r[0] for r in outbox_results(annex_boxes)),
             what="the annex's three results with its broker")
    time.sleep(max(0.0, cut_at + CUT_SECONDS - time.time()))
    assert {t: d.newest.get(t) for t in event.rooms[ANNEX]} == held  # nothing crossed the cut link
    assert not any(r[2] for r in outbox_results(annex_boxes))  # none shown delivered: the director has none
    assert not any(r["table_id"] in event.rooms[ANNEX] for r in d.db.results(f"round = {number}"))
    assert not event.reachable(ANNEX)  # the page said so the whole time
    event.links[ANNEX].restore()
    wait_for(lambda: event.reachable(ANNEX), what="the annex reachable again")
    wall.wait_for_function("document.getElementById('rooms').textContent === ''")  # the page, live: back
    wall.close()
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert "3 tables played 3 games" in out
    wait_for(lambda: len(d.db.results(f"round = {number}")) == 6, what="every table's result at the director")
    results = d.db.results(f"round = {number}")
    assert sorted(r["table_id"] for r in results) == [f"t{n}" for n in range(1, 7)]  # once each
    assert all(r["status"] == "confirmed" for r in results)
    assert sum(x["games"] for x in d.ranked()) == 12  # each counted once, in both players' lines
    assert set(d.refused) <= {"replay", "out_of_order"}, d.refused


def seated_tables(event: Event, tmp_path: Path, seed: int) -> tuple[int, dict[str, TablePublisher]]:
    """A Swiss round seated and every table of both rooms on its room's broker."""
    number, _ = event.director.seat_round("swiss", random.Random(seed))
    pubs = {}
    for room, tables in event.rooms.items():
        for table in tables:
            url = parse_broker(event.brokers[room].url, username=table, password=event.credentials[table])
            pubs[table] = TablePublisher(url, EVENT, table, Outbox(tmp_path / f"{table}-outbox.db"), max_delay=1)
            pubs[table].start()
    wait_for(lambda: all(p.heard for p in pubs.values()))
    return number, pubs


def play_cut(event: Event, number: int, pubs: dict[str, TablePublisher], seed: int) -> None:
    """The annex's link cut, then every table plays its match: the hall's results counted."""
    d = event.director
    seats = {row["table"]: row["players"] for row in d.seating()["tables"]}
    event.links[ANNEX].cut()
    wait_for(lambda: not event.reachable(ANNEX))
    for n, (table, pub) in enumerate(pubs.items()):
        for _ in play_match(seats[table], random.Random(seed + n), pub, seed + n):
            pass
        start_next(seats[table], pub, 2 * seed + n)
    wait_for(lambda: len(d.db.results(f"round = {number}")) == 3, what="the hall's results")


def test_a_rooms_tables_send_again_only_what_its_queue_did_not_carry(event: Event, tmp_path: Path) -> None:
    """Back, the bridge's subscription brings the director's announcement to the room's tables
    again (live): each sends again what the director has not said it has, but only once the
    queue has had time to cross, so nothing that crossed goes twice."""
    d = event.director
    number, pubs = seated_tables(event, tmp_path, 4)
    for pub in pubs.values():
        pub.resend_delay = 2.0  # 10 s in a room (LIVE_RESEND_S)
    play_cut(event, number, pubs, 30_000)
    annex = [pubs[t] for t in event.rooms[ANNEX]]
    wait_for(lambda: all(p.outbox.unsent() == 0 for p in annex), what="the annex's results queued in its broker")
    before, heard = d.refused["replay"], [p.announced for p in annex]
    event.links[ANNEX].restore()
    back = time.monotonic()
    wait_for(lambda: len(d.db.results(f"round = {number}")) == 6 and all(p.outbox.undelivered(d.db.get("session")) == 0
                                                                          for p in annex))
    assert [p.announced for p in annex] > heard  # the announcement came again, live
    wait_for(lambda: time.monotonic() > back + 3 and all(p.resend_at is None for p in annex))  # its resend was due
    assert d.refused["replay"] == before and all(p.resends == 0 for p in annex)  # nothing was left to send again
    for pub in pubs.values():
        pub.stop()


def test_a_room_broker_killed_with_results_queued_loses_nothing(event: Event, tmp_path: Path) -> None:
    d = event.director
    number, pubs = seated_tables(event, tmp_path, 3)
    play_cut(event, number, pubs, 10_000)
    annex = [pubs[t] for t in event.rooms[ANNEX]]
    wait_for(lambda: all(p.outbox.unsent() == 0 for p in annex), what="the annex's results queued in its broker")
    event.brokers[ANNEX].kill()  # SIGKILL, the bridge's queue with it (saved or not)
    for pub in annex:  # what the director has not said it has is still the table's, to send again
        rows = pub.outbox.db.execute("SELECT sent, done FROM tournament_outbox WHERE kind = 'result'").fetchall()
        assert rows == [(1, None)]
    assert not any(r["table_id"] in event.rooms[ANNEX] for r in d.db.results(f"round = {number}"))
    event.brokers[ANNEX].start()
    event.links[ANNEX].restore()
    wait_for(lambda: len(d.db.results(f"round = {number}")) == 6, what="the annex's results after its broker's death")
    wait_for(lambda: all(p.outbox.db.execute("SELECT count(*) FROM tournament_outbox WHERE kind = 'result' AND done"
                                             " IS NULL").fetchone()[0] == 0 for p in pubs.values()),
             what="every table told the director has its result")
    assert sorted(r["table_id"] for r in d.db.results(f"round = {number}")) == [f"t{n}" for n in range(1, 7)]
    assert sum(x["games"] for x in d.ranked()) == 36  # three rounds, each result counted once
    for pub in pubs.values():
        pub.stop()


def test_a_cut_past_the_room_brokers_queue_loses_nothing(event: Event, tmp_path: Path) -> None:
    """The room's broker bounds what it queues for the bridge (here to 20 messages, where init
    writes 100,000): past it mosquitto drops the newest; the tables send again, once the link is
    back, what the director has not said it has, so every result still counts once."""
    d = event.director
    annex = event.brokers[ANNEX]
    annex.stop()
    conf = annex.room.conf
    conf.write_text(conf.read_text().replace("max_queued_messages 100000\n", "max_queued_messages 20\n"))
    annex.start()
    number, pubs = seated_tables(event, tmp_path, 5)
    for pub in pubs.values():
        pub.resend_delay = 1.0
    play_cut(event, number, pubs, 40_000)  # some 150 events a table: far past 20
    wait_for(lambda: all(pubs[t].outbox.unsent() == 0 for t in event.rooms[ANNEX]))
    event.links[ANNEX].restore()
    wait_for(lambda: len(d.db.results(f"round = {number}")) == 6, what="the annex's results, past the queue's bound")
    assert any(pubs[t].resends for t in event.rooms[ANNEX])  # what the queue dropped came from the outboxes
    assert sorted(r["table_id"] for r in d.db.results(f"round = {number}")) == [f"t{n}" for n in range(1, 7)]
    for pub in pubs.values():
        pub.stop()
