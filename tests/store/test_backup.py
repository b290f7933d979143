"""backup(store_path, dest_dir, keep=N): consistent copies while a table writes, the last N kept."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import textwrap

import pytest

from cribpi.exc import JournalDamaged, StoreError
from cribpi.game import Game
from cribpi.store import Store, backup, backups

from store_helpers import journal, random_match

_EVENTS = [e for e, _ in random_match(31, games=3)]

#: Journals the match an event at a time as fast as it can, printing "ready" after the first few.
_WRITER = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[2])
    from store_helpers import extend, journal, random_match
    from cribpi.store import Store
    events = [e for e, _ in random_match(31, games=3)]
    with Store(sys.argv[1], snapshot_every=7) as store:
        game_id, game = journal(store, events[:5])
        print("ready", flush=True)
        extend(store, game_id, game, events[5:])
""")


def _clock(*seconds: int):  # type: ignore[no-untyped-def]
    times = iter(dt.datetime(2026, 11, 23, 3, 0, s, tzinfo=dt.timezone.utc) for s in seconds)
    return lambda: next(times)


def test_copies_taken_while_a_table_writes_are_each_a_consistent_prefix(db_path, tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(db_path), os.path.dirname(__file__)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    copies = []
    while proc.poll() is None and len(copies) < 40:
        copies.append(backup(db_path, tmp_path / "backups", keep=1000))
    proc.wait(timeout=60)
    assert proc.returncode == 0
    copies.append(backup(db_path, tmp_path / "backups", keep=1000))
    lengths = []
    for copy in copies:
        assert not os.path.exists(f"{copy}-wal")  # one self-contained file
        with Store(copy, read_only=True) as store:
            events = store.events(1)
            assert events == _EVENTS[:len(events)]
            assert store.restore(1).state == Game(events).state  # its snapshots agree with its events
            lengths.append(len(events))
    assert lengths == sorted(lengths) and lengths[-1] == len(_EVENTS)
    assert len(set(lengths)) > 3, "the copies were not taken while the table wrote"


def test_only_the_newest_n_are_kept_and_named_by_the_time(store, db_path, tmp_path):
    journal(store, _EVENTS[:20])
    folder = tmp_path / "b"
    clock = _clock(1, 2, 2, 3, 4)
    made = [backup(db_path, folder, keep=3, clock=clock) for _ in range(5)]
    assert [p.name for p in made] == ["journal-20261123-030001.db", "journal-20261123-030002.db",
                                      "journal-20261123-030002-2.db", "journal-20261123-030003.db",
                                      "journal-20261123-030004.db"]
    assert backups(folder, "journal") == made[2:]
    assert sorted(os.listdir(folder)) == sorted(p.name for p in made[2:])


def test_a_damaged_journal_is_not_backed_up_and_the_old_copies_stay(store, db_path, tmp_path):
    journal(store, _EVENTS)
    store.close()
    folder = tmp_path / "b"
    good = backup(db_path, folder, keep=1, clock=_clock(1))
    data = bytearray(db_path.read_bytes())
    data[4096:3 * 4096] = b"\xa5" * (2 * 4096)
    db_path.write_bytes(bytes(data))
    with pytest.raises(JournalDamaged, match=str(db_path)):
        backup(db_path, folder, keep=1, clock=_clock(2))
    assert os.listdir(folder) == [good.name]


@pytest.mark.parametrize("keep", [0, -1, True, 1.5, "3"])
def test_keep_is_a_whole_number_from_1(store, db_path, tmp_path, keep):
    with pytest.raises(StoreError, match="keep=.*1 or more"):
        backup(db_path, tmp_path / "b", keep=keep)
    assert not (tmp_path / "b").exists()


def test_no_journal_no_backup(tmp_path):
    with pytest.raises(StoreError, match="no game journal"):
        backup(tmp_path / "none.db", tmp_path / "b")
    assert not (tmp_path / "none.db").exists()
