"""A full disk (a real, small tmpfs): no SIGBUS, one clear line at open, a refused score taken
again once there is room."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from cribpi.app import Session
from cribpi.exc import JournalFull
from cribpi.store import Store

from store_helpers import fill, journal, random_match

_EVENTS = [e for e, _ in random_match(41, games=3)]

#: Journals the first N events of the match, then dies without closing (the WAL is left).
_KILLED_WRITER = textwrap.dedent("""
    import os, sys
    sys.path.insert(0, sys.argv[3])
    from store_helpers import journal, random_match
    from cribpi.store import Store
    store = Store(sys.argv[1])
    journal(store, [e for e, _ in random_match(41, games=3)][:int(sys.argv[2])], table="main")
    os._exit(0)
""")

_OPEN_FOR_A_TABLE = textwrap.dedent("""
    import sys
    from cribpi.exc import CribpiError
    from cribpi.store import Store
    try:
        with Store(sys.argv[1], recover=True) as store:
            restored = store.current("main")
            print(len(restored.game.journal) if restored else 0, store.notice)
    except CribpiError as exc:
        print(exc, file=sys.stderr)
        sys.exit(exc.exit_code)
""")


def test_a_running_table_refuses_the_score_it_cannot_keep_and_takes_it_once_there_is_room(small_disk):
    disk = small_disk(8192)
    with Store(disk / "cribpi.db", snapshot_every=5) as store:
        session = Session(_EVENTS[0], store, table="main")
        for event in _EVENTS[1:40]:
            session.apply(event)
        filler = fill(disk)
        refused, done = 0, 40
        while done < len(_EVENTS) and refused < 3:
            before = session.state
            try:
                session.apply(_EVENTS[done])
                done += 1
            except JournalFull as exc:
                refused += 1
                assert str(exc).startswith("disk full: this score is not saved")
                assert exc.exit_code == 1
                assert session.state == before  # rolled back: the table shows what is kept
                assert store.current("main").game.state == session.state
        assert refused == 3, "the disk never filled"
        filler.unlink()
        for event in _EVENTS[done:]:  # the refused event first: taken again
            session.apply(event)
        assert store.events(session.game_id) == _EVENTS


@pytest.mark.parametrize("shm", ["kept", "lost"])
def test_opening_on_a_full_disk_is_one_line_or_works_never_sigbus(small_disk, shm):
    """A writer killed with its WAL unfolded, then the disk filled: a table, stats and export
    each either work or say in one line that the disk is full (exit 1)."""
    disk = small_disk(2048)
    db = disk / "cribpi.db"
    subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(db), "200", os.path.dirname(__file__)], check=True)
    assert (disk / "cribpi.db-wal").stat().st_size > 0
    if shm == "lost":
        (disk / "cribpi.db-shm").unlink()
    fill(disk)
    runs = {
        "table": [sys.executable, "-c", _OPEN_FOR_A_TABLE, str(db)],
        "stats": [sys.executable, "-m", "cribpi", "stats", "--db", str(db)],
        "export": [sys.executable, "-m", "cribpi", "export", "--db", str(db), "--list"],
    }
    outcomes = {}
    for name, argv in runs.items():
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert done.returncode != -signal.SIGBUS and "Traceback" not in done.stderr, (name, done.stderr)
        assert done.returncode in (0, 1), (name, done.returncode, done.stderr)
        if done.returncode:
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and f"disk full: cannot open the game journal {db}" in lines[0], (name, lines)
        elif name == "table":
            assert done.stdout.split() == ["200", "None"]  # every event there, nothing moved aside
        outcomes[name] = done.returncode
    assert not [n for n in os.listdir(disk) if ".damaged-" in n]
    print(outcomes)


def test_a_new_journal_on_a_full_disk_is_one_clear_error(small_disk):
    disk = small_disk(512)
    fill(disk)
    with pytest.raises(JournalFull, match=f"disk full.*{disk / 'new.db'}"):
        Store(disk / "new.db")
    with pytest.raises(JournalFull):
        journal_path = disk / "new.db"
        with Store(journal_path) as store:  # if the file was left empty, still refused
            journal(store, _EVENTS[:2])


def test_the_table_says_disk_full_and_takes_the_score_again(small_disk):
    """At the table (TableUI over a journal on the full disk): the refused score is shown as
    "disk full: this score is not saved", the state stays as journalled, and the same event
    goes in once there is room."""
    from cribpi.app import TableSettings, TableUI
    from cribpi.views.model import AlertScreen

    disk = small_disk(8192)
    with Store(disk / "cribpi.db") as store:
        ui = TableUI(TableSettings(names=("Ann", "Ben"), table="main"), store=store)
        events = [e for e, _ in random_match(43)]
        ui.session = Session(events[0], store, table="main")
        for event in events[1:20]:
            ui.handle_event(event)
        filler = fill(disk)
        before = ui.state
        assert ui.handle_event(events[20]) == ()
        screen = ui.screens[0]
        assert isinstance(screen, AlertScreen) and screen.lines[0].startswith("disk full: this score is not saved")
        assert ui.state == before and store.current("main").game.state == before
        filler.unlink()
        ui.handle_event(events[20])
        assert ui.state != before and store.events(ui.session.game_id) == events[:21]
