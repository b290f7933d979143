"""An event id set up again (``cribpi director init`` gives every table a new password) is a new
instance: a table's outbox replays to a director only what it wrote for the instance it serves,
so a club's weekly ``club`` never takes last week's games into this week's standings."""

from __future__ import annotations

from pathlib import Path

from cribpi.tournament.broker import parse_broker
from cribpi.tournament.table.outbox import Outbox
from cribpi.tournament.table.publisher import TablePublisher, instance_of


def table(path: Path, password: str | None, event: str = "club") -> TablePublisher:
    """The table's publisher as its config makes it (never connected: only its outbox is read)."""
    broker = parse_broker("mqtt://127.0.0.1:9", username="t1", password=password)
    return TablePublisher(broker, event, "t1", Outbox(path))


def replayed(pub: TablePublisher) -> list[int]:
    """What a replay to a new director's database would send."""
    return [row for row, _, _ in pub.outbox.pending(0, again=True)]


def test_last_weeks_rows_are_not_replayed_to_this_weeks_director(tmp_path: Path) -> None:
    path = tmp_path / "cribpi-outbox.db"
    week1 = table(path, "first-week-password")
    sent = [week1.outbox.add("events", {"game": 1}) for _ in range(3)]
    week1.outbox.mark_sent(sent)
    assert replayed(week1) == sent
    week1.outbox.close()
    again = table(path, "first-week-password")  # a restart the same week: the same instance
    assert replayed(again) == sent
    again.outbox.close()
    week2 = table(path, "second-week-password")  # `director init` again: new passwords
    assert replayed(week2) == []
    new = week2.outbox.add("events", {"game": 1})
    assert replayed(week2) == [new] and new > sent[-1]  # never an id the director has seen
    week2.outbox.close()


def test_an_unsent_row_waits_for_its_own_instance(tmp_path: Path) -> None:
    path = tmp_path / "cribpi-outbox.db"
    week1 = table(path, "a")
    waiting = week1.outbox.add("result", {"game": 1, "status": "confirmed"})
    week1.outbox.close()
    week2 = table(path, "b")
    assert week2.outbox.pending(0) == []  # not sent to the new instance's director
    week2.outbox.close()
    back = table(path, "a")
    assert [row for row, _, _ in back.outbox.pending(0)] == [waiting]
    back.outbox.close()


def test_an_outbox_from_before_instances_keeps_its_rows_for_the_event(tmp_path: Path) -> None:
    path = tmp_path / "cribpi-outbox.db"
    old = Outbox(path)
    old.use_event("club")  # as a table named its rows before: the bare event id
    rows = [old.add("events", {"game": 1}), old.add("events", {"game": 1})]
    old.mark_sent(rows[:1])
    old.close()
    upgraded = table(path, "secret")
    assert replayed(upgraded) == rows
    upgraded.outbox.close()


def test_the_instance_names_the_event_and_hides_the_password() -> None:
    key = instance_of("club", "t1", "secret")
    assert key.startswith("club#") and "secret" not in key
    assert key != instance_of("club", "t1", "other") != instance_of("club", "t2", "secret")
    assert instance_of("club", "t1", None) == "club"  # a broker without passwords: the id alone
