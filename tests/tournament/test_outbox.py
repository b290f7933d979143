"""The outbox on its own: ids that only grow (across restarts too), held results released as
confirmed or disputed (under a new id, after what was added meanwhile), each side's answer kept
on disk, and what the broker acknowledged kept for a replay while the table serves that event."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from cribpi.tournament.table.outbox import Outbox, outbox_path


def opened(path: Path) -> tuple[Outbox, int]:
    """An outbox and the id before its first row: a new outbox counts from the time it was
    made (in milliseconds), never from 1 again."""
    box = Outbox(path)
    return box, int(box.db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'tournament_outbox'").fetchone()[0])


def test_ids_grow_results_wait_and_sent_rows_stay_for_a_replay(tmp_path: Path) -> None:
    path = outbox_path(tmp_path / "cribpi.db")
    assert path == tmp_path / "cribpi-outbox.db"
    box, b = opened(path)
    assert b > 1_700_000_000_000  # the time it was made, in milliseconds
    assert box.add("events", {"game": 1}) == b + 1
    assert box.add("result", {"game": 1, "status": "confirmed"}, held=True) == b + 2
    assert box.add("events", {"game": 1}) == b + 3
    assert [row - b for row, _, _ in box.pending(0)] == [1, 3]  # the held result waits
    assert box.held() and box.release("disputed") == 1 and not box.held()
    rows = box.pending(0)  # the result goes after what was added while it was held (a new id)
    assert [row - b for row, _, _ in rows] == [1, 3, 4]
    assert json.loads(rows[2][2]) == {"id": b + 4, "game": 1, "status": "disputed"}
    assert [row - b for row, _, _ in box.pending(b + 3)] == [4]
    box.mark_sent([b + 1, b + 3])
    assert box.unsent() == 1 and [row - b for row, _, _ in box.pending(0)] == [4]
    box.close()
    again = Outbox(path)
    assert [row - b for row, _, _ in again.pending(0, again=True)] == [1, 3, 4]  # as they first went
    assert again.pending(0, again=True)[1] == rows[1]
    assert again.add("events", {"game": 2}) == b + 5  # never an id the director has seen
    assert again.newest() == b + 5
    again.close()


def test_a_new_outbox_never_starts_again_under_an_old_ones_ids(tmp_path: Path) -> None:
    old, _ = opened(tmp_path / "a.db")
    last = max(old.add("events", {"game": 1}) for _ in range(3))
    old.close()
    new, _ = opened(tmp_path / "b.db")  # the table's card replaced: a new outbox
    assert new.add("events", {"game": 1}) > last
    new.close()


def test_each_event_has_its_own_rows_and_replayed_session(tmp_path: Path) -> None:
    box, b = opened(tmp_path / "o.db")
    box.use_event("spring")
    box.add("events", {"game": 1})
    box.add("result", {"game": 1, "status": "confirmed"}, held=True)
    box.release("confirmed")  # the released result stays the event's
    box.mark_sent([b + 1, b + 3])
    box.serve("a" * 16)
    assert box.served() == "a" * 16
    box.add("events", {"game": 2})  # unsent: id 4
    box.use_event("autumn")  # the table is configured for another event
    assert box.pending(0, again=True) == [] and box.newest() == 0 and box.served() is None and box.unsent() == 0
    box.add("events", {"game": 1})
    assert [row - b for row, _, _ in box.pending(0)] == [5]
    box.mark_sent([b + 5])
    box.use_event("spring")  # what autumn sent is dropped; what spring had not sent is still there
    assert [row - b for row, _, _ in box.pending(0, again=True)] == [4]
    assert box.served() == "a" * 16
    assert box.db.execute("SELECT count(*) FROM tournament_outbox").fetchone()[0] == 1
    box.close()


def test_an_outbox_from_before_replays_keeps_its_unsent_rows_for_the_event(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE tournament_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL,
            body TEXT NOT NULL, held INTEGER NOT NULL DEFAULT 0, sent INTEGER NOT NULL DEFAULT 0);
        INSERT INTO tournament_outbox (kind, body, sent) VALUES ('events', '{"game":1}', 1);
        INSERT INTO tournament_outbox (kind, body, sent) VALUES ('events', '{"game":1}', 0);""")
    db.commit()
    db.close()
    box = Outbox(path)
    box.use_event("open")
    assert [(row, json.loads(p)) for row, _, p in box.pending(0, again=True)] == [(2, {"id": 2, "game": 1})]
    assert box.add("events", {"game": 1}) == 3
    box.close()


def test_a_held_result_goes_once_every_side_agrees_or_at_once_on_a_dispute_and_answers_survive_a_restart(
        tmp_path: Path) -> None:
    path = tmp_path / "cribpi-outbox.db"
    box = Outbox(path)
    assert box.answer(0, True, 2) is None  # nothing held: an answer changes nothing
    box.add("result", {"game": 1, "status": "confirmed"}, held=True)
    assert box.answer(0, True, 2) is None and box.answer(0, True, 2) is None and box.held()  # Ben still to say
    box.close()
    box = Outbox(path)  # the table restarts between the two answers
    assert box.answer(1, True, 2) == "confirmed" and not box.held()
    box.add("result", {"game": 2, "status": "confirmed"}, held=True)  # a fresh result: fresh answers
    assert box.answer(1, True, 2) is None and box.held()
    assert box.answer(0, False, 2) == "disputed" and not box.held()
    assert [json.loads(p)["status"] for _, kind, p in box.pending(0)] == ["confirmed", "disputed"]
    box.close()
