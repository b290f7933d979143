"""Power cuts under the director's event database (cribpi/tournament/director/eventdb.py), on the file
system that keeps only what was made durable (crashfs.py).

The event is made by ``cribpi director init`` itself, on the crash file system (its folder
new, so every entry from the room's files up to the folder's own in its parent must be made
durable by init), then run as ``director serve`` runs it:
the commits deferred (``group_commits``, as ``connect`` does) and made durable by the flusher,
which acknowledges the tables' messages to the broker only after its fsync. Players are
registered, rounds seated, the tables' results taken as the broker delivers them (one of each
round's disputed, then corrected by the director). The power is cut at random operations;
after each cut the database the disk kept is opened as ``director serve`` opens it, and:

- every result whose message the director acknowledged is there, as the table sent it (or as
  corrected, once the correction returned), and every correction, registration and round
  that returned;
- nothing is there that was not sent, and SQLite finds no damage (``integrity_check``).

The flusher checkpoints the WAL at a lower threshold than the director's (4 MiB, more than
these events write), so the cuts fall in checkpoints too; the slow variant runs three events,
one at the director's own threshold. The regular run cuts about 200 times; the slow one 750 more.
No fsync was found missing: SQLite itself fsyncs the folder when it makes the WAL, and the
flusher's fsync of the WAL holds every commit the director acknowledges.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cribpi import cli
from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.director.room import BROKER_DIR, BROKER_FILES, CREDENTIALS, fresh_event_db

sys.path.insert(0, str(Path(__file__).parent))

pytestmark = pytest.mark.usefixtures("fuse")

EVENT = "open"
TABLES = [f"t{n}" for n in range(1, 5)]
PLAYERS = [f"P{n:02}" for n in range(1, 9)]
FOLDER = "open"  # the event's folder, made by init
DB = f"{FOLDER}/event.db"


def kind(loser: int) -> str:
    return "win" if loser >= 91 else "skunk" if loser >= 61 else "double_skunk"


@dataclass
class Owed:
    """What the director has said it has, durably, at any moment: what a cut may not lose."""
    players: set[str] = field(default_factory=set)
    rounds: int = 0
    results: dict[tuple[str, int], list[int]] = field(default_factory=dict)  # (table, msg id) -> scores
    corrections: dict[tuple[str, int], list[int]] = field(default_factory=dict)  # (table, msg id) -> scores
    sent: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)  # everything sent, acked or not

    def copy(self) -> Owed:
        return Owed(set(self.players), self.rounds, dict(self.results), dict(self.corrections), dict(self.sent))


class Broker:
    """The broker as the director sees it: it records the acknowledgements (each after the flusher's fsync)."""

    def __init__(self, owed: Owed, mutex: threading.Lock) -> None:
        self.owed, self.mutex = owed, mutex
        self.mids: dict[int, tuple[str, int]] = {}

    def ack(self, mid: int, qos: int) -> None:
        with self.mutex:
            key = self.mids.pop(mid)
            self.owed.results[key] = self.owed.sent[key]["scores"]

    def publish(self, *args: Any, **kwargs: Any) -> None:
        pass

    def disconnect(self) -> None:
        pass

    def loop_stop(self) -> None:
        pass


def init_event(where: Path) -> Path:
    """``cribpi director init`` run for the event in a new folder under ``where``; its event.db."""
    if shutil.which("mosquitto_passwd") is None:  # init hashes the broker's passwords with it
        why = "mosquitto_passwd is not installed (apt install mosquitto): director init needs it"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    assert cli.main(["director", "init", EVENT, "--dir", str(where / FOLDER), "--tables", str(len(TABLES))]) == 0
    return where / DB


def serve_event(path: Path, seed: int, rounds: int, owed: Owed, mutex: threading.Lock, over: int) -> None:
    """The director serving the event: players registered, rounds seated, results in through the
    broker, a disputed one each round corrected; the flusher checkpoints the WAL once it holds
    ``over`` bytes (the director's own threshold is 4 MiB, more than these events write)."""
    rng = random.Random(seed)
    director = Director(EventDB(path))
    director.db.checkpoint = lambda: EventDB.checkpoint(director.db, over)  # type: ignore[method-assign]
    broker = Broker(owed, mutex)
    director.client = broker  # type: ignore[assignment]
    director.group_commits()
    ids = dict.fromkeys(TABLES, 0)
    mid = 0
    try:
        for name in PLAYERS:
            director.register(name)
            with mutex:
                owed.players.add(name)
        for _ in range(rounds):
            number, seating = director.seat_round("random", rng)
            with mutex:
                owed.rounds = number
            disputed = rng.choice(sorted(seating))
            for table, players in sorted(seating.items()):
                ids[table] += 1
                loser = rng.randrange(30, 120)
                body = {"id": ids[table], "game": number, "game_number": 1, "players": players,
                        "scores": [121, loser], "winner": 0, "kind": kind(loser), "game_points": 2,
                        "margin": 121 - loser, "status": "disputed" if table == disputed else "confirmed",
                        "at": 1.0}
                mid += 1
                with mutex:
                    owed.sent[(table, ids[table])] = body
                    broker.mids[mid] = (table, ids[table])
                message = SimpleNamespace(topic=f"cribpi/{EVENT}/tables/{table}/result",
                                          payload=json.dumps(body).encode(), retain=False, mid=mid, qos=1)
                director._on_message(broker, None, message)  # type: ignore[arg-type]
            time.sleep(0.01)  # the flusher's group
            row = director.db.result_for_game(disputed, number, 1)
            assert row is not None
            loser = rng.randrange(30, 120)
            director.correct(row["id"], [121, loser], 0, kind(loser), 121 - loser, by="admin", why="the board")
            with mutex:
                owed.corrections[(disputed, ids[disputed])] = [121, loser]
    finally:
        try:
            director.close()
        finally:
            director.db.close()


def on_crashfs(tmp_path: Path, name: str, cut_at: set[int], seed: int, rounds: int,
               over: int) -> tuple[int, list[tuple[Owed, dict[str, bytes]]]]:
    """One event on a fresh crash file system, cut at ``cut_at`` (counted from the start of
    ``director serve``); its operations and the cuts' images with what was owed at each."""
    from crashfs import mounted

    where = tmp_path / name
    owed, mutex = Owed(), threading.Lock()
    images: list[tuple[Owed, dict[str, bytes]]] = []

    def on_cut(image: dict[str, bytes]) -> None:
        with mutex:
            images.append((owed.copy(), image))

    with mounted(where, state=False) as fs:
        path = init_event(where)
        fs.on_cut = on_cut
        fs.arm(cut_at)
        before = fs.fsyncs.get("/" + DB, 0)
        serve_event(path, seed, rounds, owed, mutex, over)
    if over < 1 << 20:  # the flusher checkpointed (fsyncing the database file), so cuts fell in that too
        assert fs.fsyncs.get("/" + DB, 0) > before + 1, fs.fsyncs
    return fs.ops, images


def check_cut(folder: Path, image: dict[str, bytes], owed: Owed) -> None:
    """Open the database the disk kept as ``director serve`` would, and hold it to what was owed."""
    from crashfs import restore

    path = restore(folder, image) / DB
    assert path.is_file(), f"the event database is gone after the cut (kept: {sorted(image)})"
    db = EventDB(path)
    try:
        problems = [r[0] for r in db.db.execute("PRAGMA integrity_check")]
        assert problems == ["ok"], problems
        director = Director(db)  # as serve starts: the standings counted from what is there
        assert director.event == EVENT
        assert set(db.tables()) == set(TABLES)
        assert owed.players <= set(db.players())
        assert db.current_round()[0] >= owed.rounds
        kept = {(r["table_id"], r["msg_id"]): r for r in db.results()}
        corrected = {c["result"]: c["after"]["scores"] for c in db.corrections()}  # the last of each result's
        for key in owed.results:
            assert key in kept, f"result {key} acknowledged to the broker, lost at the cut"
        for key, scores in owed.corrections.items():
            assert kept[key]["scores"] == scores and kept[key]["status"] == "confirmed", (key, kept[key])
            assert corrected[kept[key]["id"]] == scores
        for key, row in kept.items():  # nothing that was not sent, or corrected in the audit trail
            sent = owed.sent[key]
            assert row["players"] == sent["players"]
            assert row["scores"] == corrected.get(row["id"], sent["scores"]), (key, row, sent)
    except sqlite3.DatabaseError as exc:
        pytest.fail(f"the event database after the cut: {exc}")
    finally:
        db.close()


def run_cuts(tmp_path: Path, seed: int, cuts: int, rounds: int = 4, over: int = 64 << 10) -> int:
    from crashfs import count_then_cut

    # the flusher's timing moves the operations a little from one run to the next: 0.8 of the cuts
    images = count_then_cut(lambda name, cut_at: on_crashfs(tmp_path, name, cut_at, seed, rounds, over),
                            seed, cuts, 0.8)
    for n, (owed, image) in enumerate(images):
        check_cut(tmp_path / f"cut{n}", image, owed)
    return len(images)


def test_a_few_hundred_cuts_lose_nothing_the_director_acknowledged(tmp_path):
    checked = run_cuts(tmp_path, seed=22, cuts=200)
    print(f"{checked} power cuts under the event database")


@pytest.mark.slow
def test_more_cuts_under_the_event_database(tmp_path):
    total = sum(run_cuts(tmp_path / str(seed), seed=seed, cuts=250, rounds=6, over=over)
                for seed, over in ((0, 32 << 10), (1, 128 << 10), (2, 4 << 20)))
    assert total >= 600
    print(f"{total} power cuts under the event database")


def check_new_event(folder: Path, image: dict[str, bytes], credentials: dict[str, str]) -> None:
    """The event folder the disk kept after a cut right after init (or serve's fresh event.db):
    the database with its event and tables, the room's passwords and the broker's files."""
    from crashfs import restore

    back = restore(folder, image)
    path = back / DB
    assert path.is_file(), f"the new event database is gone after the cut (kept: {sorted(image)})"
    assert json.loads((back / FOLDER / CREDENTIALS).read_text()) == credentials
    for name in BROKER_FILES:
        assert (back / FOLDER / BROKER_DIR / name).read_bytes(), f"{name} is empty after the cut"
    assert (back / FOLDER / BROKER_DIR / "data").is_dir()
    db = EventDB(path)
    try:
        assert db.get("event") == EVENT and set(db.tables()) == set(TABLES)
        assert [r[0] for r in db.db.execute("PRAGMA integrity_check")] == ["ok"]
    finally:
        db.close()


def test_a_new_event_database_survives_a_cut_right_after_it_was_created(tmp_path):
    from crashfs import mounted

    where = tmp_path / "mnt"
    with mounted(where, state=False) as fs:
        init_event(where)  # init has said the event is made: the power goes
        image = fs.cut()
        credentials = json.loads((where / FOLDER / CREDENTIALS).read_text())
    check_new_event(tmp_path / "cut", image, credentials)


def test_a_fresh_event_database_for_a_room_survives_a_cut_right_after_it_was_made(tmp_path):
    """``director serve`` on a room whose event.db is gone makes a fresh one (fresh_event_db)."""
    from crashfs import mounted

    where = tmp_path / "mnt"
    with mounted(where, state=False) as fs:
        init_event(where)
        for name in ("event.db", "event.db-wal", "event.db-shm"):
            (where / FOLDER / name).unlink(missing_ok=True)
        fresh_event_db(where / FOLDER, "a new admin password")
        image = fs.cut()
        credentials = json.loads((where / FOLDER / CREDENTIALS).read_text())
    check_new_event(tmp_path / "cut", image, credentials)
