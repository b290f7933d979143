"""Starting in any order: a director that was not following the event when the tables played,
that lost its database, or whose broker lost its store, gets every table's outbox again (its
announced session is new), and counts each result once; a director restarted with its database
gets nothing again. Through a real mosquitto with the room's generated ACL."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from cribpi.game import State, apply
from cribpi.game.events import Confirm
from cribpi.tournament.broker import parse_broker
from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.table.loadgen import play_match, start_next, update_for
from cribpi.tournament.messages import director_topic
from cribpi.tournament.table.publisher import TablePublisher
from cribpi.tournament.director.room import DIRECTOR, EVENT_DB, table_ids
from tests.tournament.conftest import EVENT, Mosquitto
from tests.tournament.test_publisher import Listener, publisher, wait_for

pytestmark = pytest.mark.mqtt
SEATS = {"t1": ("Ann", "Ben"), "t2": ("Cy", "Dee")}


def start_director(broker: Mosquitto, *, register: bool = True) -> Director:
    d = Director(EventDB(broker.room.folder / EVENT_DB))
    if register:
        register_players(d)
    d.connect(parse_broker(broker.url, username=DIRECTOR, password=broker.room.credentials[DIRECTOR]))
    wait_for(d.subscribed.is_set)
    return d


def register_players(d: Director) -> None:
    for names in SEATS.values():
        for name in names:
            d.register(name)


def stop_director(d: Director) -> None:
    d.close()
    d.db.close()


def tables(broker: Mosquitto, tmp_path: Path) -> dict[str, TablePublisher]:
    pubs = {t: publisher(broker, tmp_path, table=t) for t in SEATS}
    for pub in pubs.values():
        pub.start()
    return pubs


def play(pubs: dict[str, TablePublisher], games: int, seed: int) -> dict[str, list[int]]:
    """``games`` one-game matches at each table, then the next started; each player's
    [games, won, game points] as the table's own engine counted them."""
    lines = {name: [0, 0, 0] for names in SEATS.values() for name in names}
    for n, (table, pub) in enumerate(pubs.items()):
        names = SEATS[table]
        for game in range(1, games + 1):
            *_, final = play_match(names, random.Random(seed + 10 * n + game), pub, game)
            won = final.games[-1]
            for name in names:
                lines[name][0] += 1
            lines[names[won.winner]][1] += 1
            lines[names[won.winner]][2] += won.result.game_points
        start_next(names, pub, games + 1)
    for pub in pubs.values():
        wait_for(lambda: pub.outbox.unsent() == 0, timeout=60)
    return lines


def standings(d: Director) -> dict[str, list[int]]:
    return {x["name"]: [x["games"], x["won"], x["points"]] for x in d.ranked()}


def served(pubs: dict[str, TablePublisher], d: Director) -> bool:
    return all(pub.outbox.served() == d.db.get("session") for pub in pubs.values())


def stop(pubs: dict[str, TablePublisher]) -> None:
    for pub in pubs.values():
        pub.stop()


class Peak:
    """The most messages a publisher had in flight, sampled while a replay runs."""

    def __init__(self, pub: TablePublisher) -> None:
        self.pub, self.most, self.done = pub, 0, threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.done.wait(0.001):
            self.most = max(self.most, len(self.pub.inflight))

    def stop(self) -> int:
        self.done.set()
        self.thread.join()
        return self.most


def test_tables_that_played_before_the_director_ever_started_are_all_in_its_standings(
        broker: Mosquitto, tmp_path: Path) -> None:
    pubs = tables(broker, tmp_path)
    played = play(pubs, games=2, seed=40)  # acknowledged by a broker that had no one to keep them for
    assert all(pub.replays == 0 for pub in pubs.values())
    peak = Peak(pubs["t1"])
    d = start_director(broker)
    wait_for(lambda: served(pubs, d) and all(d.newest.get(t) == pub.outbox.newest() for t, pub in pubs.items()),
             timeout=60)
    assert peak.stop() <= 200  # the replay went through the publisher's window, not all at once
    assert d.accepted["result"] == 4 and standings(d) == played
    for table, pub in pubs.items():
        assert pub.replays == 1
        assert d.live[table]["state"]["game"] == 3 and d.live[table]["state"]["players"] == list(SEATS[table])
    assert d.refused == {}  # every id once and in order: nothing went before the announcement came
    stop(pubs)
    stop_director(d)


def test_a_director_whose_database_was_lost_gets_everything_back_once(broker: Mosquitto, tmp_path: Path) -> None:
    d = start_director(broker)
    pubs = tables(broker, tmp_path)
    played = play(pubs, games=1, seed=50)
    wait_for(lambda: d.accepted["result"] == 2 and served(pubs, d))
    before, first = d.ranked(), d.db.get("session")
    assert standings(d) == played
    stop_director(d)
    for suffix in ("", "-wal", "-shm"):  # the machine is gone: a new database, the tables as before
        Path(f"{broker.room.folder / EVENT_DB}{suffix}").unlink(missing_ok=True)
    db = EventDB(broker.room.folder / EVENT_DB, create=True)
    db.put("event", EVENT)
    db.put("open_play", "1")  # as the room's event (the broker fixture's): the tables seat themselves
    db.add_tables(table_ids(4))
    db.close()
    again = start_director(broker, register=False)  # as `serve` starts: the pages, to register, come after
    assert again.db.get("session") not in ("", first)
    kept = {t: {i for i, kind, _ in pub.outbox.pending(0, 10_000, again=True) if kind == "events"}
            for t, pub in pubs.items()}

    def every_event_seen() -> bool:
        return all(ids <= (again.seen[t].ids if t in again.seen else set()) for t, ids in kept.items())

    # (a result may come more than once: sent again after a reconnect, it waits once)
    wait_for(lambda: served(pubs, again) and every_event_seen() and again.refused["unknown_player"] >= 2)
    # What the broker still held for the director's session (delivered, not yet acknowledged, when
    # it stopped) may come before the replay: the replay's older events are then out of order or
    # replays, which no standing depends on. Nothing else is refused.
    assert set(again.refused) <= {"unknown_player", "out_of_order", "replay"}
    assert again.db.results() == []  # the results wait for the players
    register_players(again)
    assert again.ranked() == before and len(again.db.results()) == 2
    assert all(pub.replays == 2 for pub in pubs.values())  # one to each database
    stop(pubs)
    stop_director(again)


def test_a_director_restarted_with_its_database_gets_nothing_again(broker: Mosquitto, tmp_path: Path) -> None:
    d = start_director(broker)
    pubs = tables(broker, tmp_path)
    play(pubs, games=1, seed=60)
    session = d.db.get("session")  # and the director said it has every row: none goes again
    wait_for(lambda: d.accepted["result"] == 2 and served(pubs, d)
             and all(pub.outbox.undelivered(session) == 0 for pub in pubs.values()))
    before, session = d.ranked(), d.db.get("session")
    heard = {t: pub.announced for t, pub in pubs.items()}
    stop_director(d)
    again = start_director(broker)
    assert again.db.get("session") == session
    wait_for(lambda: all(pub.announced > heard[t] for t, pub in pubs.items()))  # each table heard it again
    start_next(SEATS["t1"], pubs["t1"], 99)  # one event more, after the announcement
    wait_for(lambda: again.accepted["events"] == 1)
    assert all(pub.replays == 1 for pub in pubs.values())
    # Besides that event, only the tables' retained boards and statuses came: no replay.
    assert set(again.accepted) <= {"events", "state", "status"} and again.refused == {}
    assert again.accepted["state"] <= 3 and again.accepted["status"] <= 2
    assert again.ranked() == before
    stop(pubs)
    stop_director(again)


def test_a_broker_that_lost_its_store_gets_a_replay_that_does_not_undo_a_correction(
        broker: Mosquitto, tmp_path: Path) -> None:
    d = start_director(broker)
    pubs = tables(broker, tmp_path)
    pub, names = pubs["t1"], SEATS["t1"]
    state = State()
    for state in play_match(names, random.Random(70), pub, 1):
        if state.phase.value in ("game_over", "match_over"):
            break
    for side, agree in ((0, True), (1, False)):  # Ben disputes the result
        state, effects = apply(state, Confirm(side, agree))
        pub(update_for(state, Confirm(side, agree), effects, 1))
    start_next(names, pub, 2)
    wait_for(lambda: len(d.db.results()) == 1 and served(pubs, d))
    (disputed,) = d.db.results()
    assert disputed["status"] == "disputed" and d.ranked()[0]["games"] == 0
    loser = 1 - disputed["winner"]  # the director rules the other way
    scores = [121 if n == loser else 100 for n in range(2)]
    d.correct(disputed["id"], scores, loser, "win", 21, by="admin", why="miscounted crib")
    corrected, ruled, old = d.db.result(disputed["id"]), d.ranked(), d.db.get("session")
    wait_for(lambda: pub.outbox.unsent() == 0)
    broker.stop()
    (broker.room.data / "mosquitto.db").unlink()  # the broker comes back knowing no one
    broker.start()
    wait_for(lambda: d.db.get("session") != old and served(pubs, d), timeout=60)
    assert pub.replays == 2
    # every row again (and what the director had not said it had when the broker went: sent again too)
    wait_for(lambda: d.refused["replay"] >= len(pub.outbox.pending(0, 10_000, again=True))
             and pub.outbox.undelivered(d.db.get("session")) == 0)
    assert d.db.results() == [corrected] and d.ranked() == ruled and len(d.db.corrections()) == 1
    assert set(d.refused) == {"replay"}  # the disputed result too: the director ruled on that game
    stop(pubs)
    stop_director(d)


def test_a_table_coming_online_after_the_director_sends_each_message_once(broker: Mosquitto, tmp_path: Path) -> None:
    """Its rows wait for the director's announcement (retained, right after the subscription's
    acknowledgement), so the replay it asks for is their first sending, not a second one."""
    d = start_director(broker)
    pub = publisher(broker, tmp_path)
    for _ in play_match(SEATS["t1"], random.Random(90), pub, 1):  # no network yet
        pass
    start_next(SEATS["t1"], pub, 2)
    rows = len(pub.outbox.pending(0, 10_000))
    pub.start()
    wait_for(lambda: d.accepted["result"] == 1 and served({"t1": pub}, d))
    wait_for(lambda: d.accepted["events"] + d.accepted["result"] == rows)  # the last rows may follow the result
    assert d.refused == {}
    pub.stop()
    stop_director(d)


def test_an_announcement_that_comes_while_the_table_goes_online_is_served_by_the_replay_alone(
        broker: Mosquitto, tmp_path: Path) -> None:
    """The race a loaded machine showed: the sender read 'no replay wanted', then paho's thread
    had the announcement and the SUBACK after it before the sender sent its rows as new ones;
    the replay then sent each of them again. Here the sender is held in that moment (while it
    says online) until the announcement is in."""
    d = start_director(broker)
    pub = publisher(broker, tmp_path)
    for _ in play_match(SEATS["t1"], random.Random(90), pub, 1):  # no network yet
        pass
    start_next(SEATS["t1"], pub, 2)
    rows = len(pub.outbox.pending(0, 10_000))
    publish = pub._publish

    def online_then_announced(kind: str, payload: bytes, **kw: object) -> bool:
        if kind == "status" and payload == b"online":
            wait_for(lambda: pub.heard and pub.announced > 0, what="the director's announcement at the table")
        return publish(kind, payload, **kw)  # type: ignore[arg-type]

    pub._publish = online_then_announced  # type: ignore[method-assign]
    pub.start()
    wait_for(lambda: d.accepted["result"] == 1 and served({"t1": pub}, d))
    wait_for(lambda: d.accepted["events"] + d.accepted["result"] == rows)
    assert d.refused == {}, "rows were sent as new, then again in the replay"
    pub.stop()
    stop_director(d)


def test_only_the_director_announces_a_session(broker: Mosquitto, tmp_path: Path) -> None:
    seen = Listener(broker)
    pubs = tables(broker, tmp_path)
    play(pubs, games=1, seed=80)
    t2 = pubs["t2"]
    t2.client.publish(director_topic(EVENT), b'{"session": "0123456789abcdef"}', qos=1, retain=True).wait_for_publish(5)
    t2.client.publish(t2.topic("status"), b"marker", qos=1).wait_for_publish(30)
    wait_for(lambda: (t2.topic("status"), b"marker", False) in seen.messages)  # after the fake announcement
    stop(pubs)
    assert not [t for t, _, _ in seen.messages if t == director_topic(EVENT)]
    assert all(pub.replays == 0 for pub in pubs.values())
    seen.close()


def test_a_room_made_before_replays_works_as_before(broker: Mosquitto, tmp_path: Path) -> None:
    """Its acl lets no table read the announcement (mosquitto grants the subscription and
    delivers nothing): the table publishes as ever, and the director's announcement is dropped."""
    broker.stop()
    broker.room.acl.write_text(f"pattern write cribpi/{EVENT}/tables/%u/#\n\n"
                                            f"user {DIRECTOR}\ntopic read cribpi/{EVENT}/#\n")
    broker.start()
    d = start_director(broker)
    pub = publisher(broker, tmp_path)
    pub.start()
    wait_for(lambda: pub.heard)
    play({"t1": pub}, games=1, seed=95)
    wait_for(lambda: d.accepted["result"] == 1)
    assert pub.announced == 0 and pub.replays == 0 and pub.outbox.served() is None and d.refused == {}
    pub.stop()
    stop_director(d)
