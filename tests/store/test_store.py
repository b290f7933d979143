"""The journal: events round-trip, a restart restores the exact state, games finish, errors."""

from __future__ import annotations

import datetime as dt
import json
import os
import pathlib
import sqlite3

import pytest

from cribpi.exc import CribpiError, JournalDamaged, JournalLocked, RulesError, StoreError
from cribpi.game import Game, Lay, Mode, NewGame, Peg, Phase, Undo
from cribpi.rules import ACC, Card
from cribpi.store import APPLICATION_ID, SCHEMA_VERSION, Store, export_game, stats
from cribpi.store.schema import event_crc

from store_helpers import extend, journal, random_match

VARIANTS = [
    ("acc", Mode.COUNT, 1),
    ("acc", Mode.CLAIM, 3),
    ("acc", Mode.BOARD, 1),
    ("hoyle", Mode.CLAIM, 1),
    ("five-card", Mode.COUNT, 1),
    (ACC.replace(players=3), Mode.COUNT, 1),
    (ACC.replace(players=4, partnerships=True), Mode.CLAIM, 1),
]


def _journal(store: Store, events: list) -> int:  # type: ignore[type-arg]
    return journal(store, events, table="1")[0]


@pytest.mark.parametrize("rules,mode,games", VARIANTS)
def test_every_event_round_trips_and_the_state_is_restored(db_path, rules, mode, games):
    match = random_match(7, rules, mode, games)
    events = [e for e, _ in match]
    cut = len(events) // 2
    with Store(db_path) as store:
        game_id = _journal(store, events[:cut])
    with Store(db_path) as store:  # a restart in the middle of the match
        restored = store.current()
        assert restored is not None and restored.game_id == game_id and restored.table == "1"
        assert restored.game.state == match[cut - 1][1]
        assert restored.game.journal == events[:cut]
        extend(store, game_id, restored.game, events[cut:])
        assert store.events(game_id) == events
        assert store.current() is None  # the match is over


def test_the_journal_keeps_undos_and_the_restored_game_has_them_taken_out(db_path):
    names = ("Ann", "Ben")
    events = [NewGame(names, mode=Mode.BOARD, first_dealer=0), Peg(0, 5), Peg(1, 7), Undo(), Peg(1, 3)]
    with Store(db_path) as store:
        game_id = _journal(store, events)
    with Store(db_path) as store:
        assert store.events(game_id) == events
        restored = store.current()
        assert restored is not None
        assert restored.game.state == Game(events).state
        assert restored.game.events == [events[0], events[1], events[4]]
        assert restored.game.state.scores == (5, 3)


def test_append_journals_the_event_the_game_has_just_applied(store):
    game_id, game = journal(store, [NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0), Peg(1, 4)])
    assert store.events(game_id)[-1] == Peg(1, 4)
    with pytest.raises(RulesError, match="apply the peg event to the game before"):
        store.append(game_id, Peg(0, 2), game)  # the game never applied it: the store never checks rules
    with pytest.raises(RulesError):
        game.apply(Lay(0, Card.parse("5H")))  # no cards in board mode: the game refuses it
    assert len(store.events(game_id)) == 2
    extend(store, game_id, game, [Peg(0, 3)])
    assert store.current().game.state.scores == (3, 4)


def test_new_game_takes_only_a_valid_new_game_event(store):
    with pytest.raises(RulesError):
        store.new_game(Peg(0, 2))  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        store.new_game(NewGame(("Ann", "Ann")))
    assert store.games() == []


def test_a_match_finishes_by_itself_with_its_results(store):
    match = random_match(3, "acc", Mode.CLAIM, 3)
    game_id = _journal(store, [e for e, _ in match])
    final = match[-1][1]
    (row,) = store.games()
    assert row["status"] == "finished" and row["finished"] is not None
    assert row["players"] == ["Ann", "Ben"] and row["mode"] == "claim" and row["match_games"] == 3
    assert row["rules"] == {"name": "acc"}
    won = final.games_won()
    assert row["winner"] == final.names[won.index(max(won))]
    assert row["summary"] == json.loads(json.dumps(final.match_summary()))
    results = store._conn.execute(
        "SELECT number, winner_team, kind, game_points FROM results WHERE game_id=? ORDER BY number",
        (game_id,)).fetchall()
    assert results == [(n, g.winner, g.result.kind.value, g.result.game_points)
                       for n, g in enumerate(final.games, 1)]


def test_undoing_the_winning_points_reopens_the_game(store):
    game_id, game = journal(store, [NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0), Peg(0, 121)])
    assert store.games()[0]["status"] == "finished"
    extend(store, game_id, game, [Undo()])
    row = store.games()[0]
    assert row["status"] == "open" and row["winner"] is None and row["finished"] is None
    assert store.current().game.state.phase is Phase.BOARD


def test_finish_abandons_an_unfinished_game_and_it_takes_no_more_events(store):
    game_id, game = journal(store, [NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0)])
    assert store.finish(game_id) == "abandoned"
    assert store.current() is None
    with pytest.raises(StoreError, match=f"game {game_id} was abandoned"):
        extend(store, game_id, game, [Peg(0, 1)])


def test_finish_marks_a_match_that_is_over_finished(store):
    game_id, _ = journal(store, [e for e, _ in random_match(4, "acc", Mode.BOARD)])
    assert store.finish(game_id) == "finished"


def test_a_new_game_at_a_table_abandons_the_one_left_open_there(store):
    first = store.new_game(NewGame(("Ann", "Ben")), table="1")
    other = store.new_game(NewGame(("Cat", "Dan")), table="2")
    second = store.new_game(NewGame(("Ann", "Ben")), table="1")
    statuses = {row["id"]: row["status"] for row in store.games()}
    assert statuses == {first: "abandoned", other: "open", second: "open"}
    assert store.current("1").game_id == second
    assert store.current("2").game_id == other
    assert store.current().game_id == second  # the newest open game


def test_timestamps_come_from_the_clock(db_path):
    when = dt.datetime(2024, 5, 1, 19, 30, tzinfo=dt.timezone.utc)
    with Store(db_path, clock=lambda: when) as store:
        store.new_game(NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0), event_name="Club night")
        row = store.games()[0]
    assert row["started"].startswith("2024-05-01T19:30:00") and row["event_name"] == "Club night"


def test_a_second_writer_is_refused_and_a_reader_sees_the_journal(db_path):
    with Store(db_path) as one:
        game_id, _ = journal(one, [NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0), Peg(0, 2)])
        with pytest.raises(JournalLocked, match=f"{db_path} is in use by process {os.getpid()}"):
            Store(db_path)
        with Store(db_path, read_only=True) as reader:
            assert reader.current().game.state.scores == (2, 0)
            with pytest.raises(StoreError):
                reader.new_game(NewGame(("Cy", "Di"), mode=Mode.BOARD, first_dealer=0))
    with Store(db_path) as again:  # the lock went with the first writer
        assert again.events(game_id) == [NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0), Peg(0, 2)]


def test_a_journal_written_behind_the_writer_s_back_is_refused_not_forked(db_path):
    """The lock keeps cribpi to one writer; a game journalled further by anything else (here
    raw SQL) is still refused by the next append rather than forked."""
    with Store(db_path) as store:
        game_id, game = journal(store, [NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0), Peg(0, 2)])
        store._conn.execute("INSERT INTO events (game_id, seq, type, data, recorded) "
                            "SELECT game_id, 3, type, data, recorded FROM events WHERE seq=2")
        with pytest.raises(StoreError, match="another program is writing"):
            extend(store, game_id, game, [Peg(1, 3)])


def test_the_file_is_wal_with_full_sync_and_versioned(store, db_path):
    assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


# -- files that are not journals -------------------------------------------------------------


def test_a_file_that_is_not_a_database_is_a_clear_store_error(db_path):
    db_path.write_bytes(b"hello, this is a shopping list\n" * 200)
    with pytest.raises(StoreError, match="not a cribpi game journal") as info:
        Store(db_path)
    assert str(db_path) in str(info.value) and "not an SQLite file" in str(info.value)
    assert info.value.exit_code == 2  # the wrong file given: nothing a table would move aside
    assert isinstance(info.value, OSError) and isinstance(info.value, CribpiError)


def test_another_programs_database_is_refused_untouched(db_path):
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not a cribpi game journal"):
        Store(db_path)
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("recipes",)]
    conn.close()


def test_a_journal_from_a_newer_cribpi_asks_for_an_upgrade(db_path):
    Store(db_path).close()
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match="newer cribpi.*upgrade"):
        Store(db_path)


def test_a_damaged_file_is_a_store_error_naming_it(db_path):
    with Store(db_path) as store:
        _journal(store, [e for e, _ in random_match(5)])
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(db_path.read_bytes())
    page = 4096
    assert len(data) > 3 * page
    data[page:3 * page] = b"\xa5" * (2 * page)  # scribble over two pages
    db_path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged") as info:
        with Store(db_path) as store:
            store.current()
            stats(store)
    assert str(db_path) in str(info.value)


def test_a_missing_folder_is_a_store_error(tmp_path):
    with pytest.raises(StoreError, match="cannot open"):
        Store(tmp_path / "no" / "such" / "journal.db")


def test_a_journal_event_that_no_longer_applies_names_game_and_seq(db_path):
    match = random_match(11)
    with Store(db_path) as store:
        game_id = _journal(store, [e for e, _ in match[:20]])
    conn = sqlite3.connect(db_path)
    seq, data = conn.execute("SELECT seq, data FROM events WHERE type='lay' ORDER BY seq LIMIT 1").fetchone()
    bad = json.loads(data) | {"seat": 9}
    conn.create_function("event_crc", 4, event_crc)  # written by a (buggy) cribpi: its checksum is right
    conn.execute("UPDATE events SET data=? WHERE seq=?", (json.dumps(bad), seq))
    conn.execute("UPDATE events SET crc=event_crc(game_id, seq, type, data)")
    conn.commit()
    conn.close()
    with Store(db_path) as store, pytest.raises(StoreError, match=f"game {game_id}, event {seq} .*no longer applies"):
        store.current()


def test_a_journal_event_that_cannot_be_read_names_game_and_seq(db_path):
    with Store(db_path) as store:
        game_id = _journal(store, [e for e, _ in random_match(11)[:5]])
    conn = sqlite3.connect(db_path)
    conn.create_function("event_crc", 4, event_crc)
    conn.execute("UPDATE events SET data='{\"type\": \"dance\"}' WHERE seq=3")
    conn.execute("UPDATE events SET crc=event_crc(game_id, seq, type, data)")
    conn.commit()
    conn.close()
    with Store(db_path) as store:
        with pytest.raises(StoreError, match=f"game {game_id}, event 3 cannot be read"):
            store.events(game_id)
        with pytest.raises(StoreError, match=f"game {game_id}, event 3"):
            store.current()


@pytest.mark.parametrize("sql,what", [
    ("UPDATE events SET data=replace(data, '\"seat\": 1', '\"seat\": 0') WHERE seq=4", "event 4 fails its checksum"),
    ("DELETE FROM events WHERE seq=3", "event 3 is missing"),
])
def test_an_event_changed_or_lost_behind_cribpi_s_back_is_damage_not_a_different_game(db_path, sql, what):
    """A byte changed inside a page passes integrity_check: each row's checksum catches it."""
    with Store(db_path) as store:
        game_id = _journal(store, [e for e, _ in random_match(11)[:8]])
    conn = sqlite3.connect(db_path)
    assert conn.execute(sql).rowcount == 1
    conn.commit()
    conn.close()
    with Store(db_path, read_only=True) as store:
        for read in (lambda: store.events(game_id), store.current, lambda: store.load(game_id)):
            with pytest.raises(JournalDamaged, match=f"{db_path} is damaged: game {game_id}, {what}"):
                read()


def test_an_unknown_game_id_is_a_store_error(store):
    with pytest.raises(StoreError, match="no game 42"):
        store.events(42)
    game = Game([NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0), Peg(0, 1)])
    with pytest.raises(StoreError, match="no game 42"):
        store.append(42, Peg(0, 1), game)
    with pytest.raises(StoreError, match="no game 42"):
        export_game(store, 42)


# -- export ----------------------------------------------------------------------------------


def test_export_writes_a_record_that_parses_back_to_the_events_in_force(store):
    record = pytest.importorskip("cribpi.record")
    events = [e for e, _ in random_match(2, "acc", Mode.CLAIM)]
    game_id = _journal(store, events[:30] + [Undo()] + events[29:])
    text = export_game(store, game_id)
    parsed = record.parse_record(text)
    tags, back = (parsed.tags, parsed.events) if hasattr(parsed, "events") else parsed
    assert list(back) == events
    assert tags.get("Table") == "1"


# -- layering --------------------------------------------------------------------------------


def test_nothing_below_the_store_imports_it():
    package = pathlib.Path(__import__("cribpi").__file__).parent
    for layer in ("rules", "game", "views"):
        for source in (package / layer).rglob("*.py"):
            text = source.read_text(encoding="utf-8")
            assert "cribpi.store" not in text and "from cribpi import store" not in text, source



def test_backup_is_a_journal_that_restores_the_same_game(store, tmp_path):
    match = random_match(9)
    events = [e for e, _ in match[:40]]
    game_id = _journal(store, events)
    copy = tmp_path / "backup.db"
    store.backup(copy)
    with Store(copy) as restored:
        assert restored.events(game_id) == events
        assert restored.current().game.state == match[39][1]


def test_two_processes_creating_one_journal_at_once(tmp_path):
    """Four writers at once: each creates it or is refused as a second writer, never half."""
    import subprocess
    import sys

    code = ("import sys; from cribpi.store import Store; from cribpi.exc import JournalLocked\n"
            "try: Store(sys.argv[1]).close()\nexcept JournalLocked: sys.exit(3)")
    for round_ in range(3):
        path = tmp_path / f"new{round_}.db"
        procs = [subprocess.Popen([sys.executable, "-c", code, str(path)], stderr=subprocess.PIPE, text=True)
                 for _ in range(4)]
        errors = [p.communicate(timeout=30)[1] for p in procs]
        assert set(p.returncode for p in procs) <= {0, 3} and 0 in [p.returncode for p in procs], errors
        with Store(path, read_only=True) as store:
            assert store.games() == []


def test_checkpoints_run_in_the_table_s_pauses_and_keep_the_wal_small(db_path):
    """No checkpoint inside a commit (SQLite's own only as a far backstop): the writer's thread
    folds the WAL in during a pause after every CHECKPOINT_EVERY commits, so the WAL starts
    again from its beginning instead of growing, and readers see every event throughout."""
    from cribpi.store.checkpoint import BACKSTOP_PAGES
    from cribpi.store.journal import CHECKPOINT_EVERY

    events = [e for e, _ in random_match(61, games=3)]
    assert len(events) > 4 * CHECKPOINT_EVERY
    wal = db_path.with_name(db_path.name + "-wal")
    burst = CHECKPOINT_EVERY
    with Store(db_path) as store:
        assert store._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == BACKSTOP_PAGES
        game_id, game = journal(store, events[:1])
        sizes = []
        for start in range(1, len(events), burst):
            extend(store, game_id, game, events[start:start + burst])
            sizes.append(wal.stat().st_size)
            if len(events[start:start + burst]) == CHECKPOINT_EVERY:  # the players think, and meanwhile
                wait_till_folded_in(db_path)  # the thread folds in all this burst wrote (not the last part of one)
        per_burst = sizes[0]
        assert max(sizes) <= 2 * per_burst + 65536, sizes  # bounded by the commits between pauses
        assert sizes[-1] < sizes[0] * len(sizes) / 2, sizes  # not the whole match's frames
        with Store(db_path, read_only=True) as reader:
            assert reader.events(game_id) == events
    assert not wal.exists()  # the writer's close folded the rest in


def wait_till_folded_in(db_path: pathlib.Path, timeout: float = 30.0) -> None:
    """Poll (not checkpointing itself) till every frame in the WAL has been copied back into the
    journal: the WAL index (the -shm file, https://www.sqlite.org/walformat.html) says so when
    its nBackfill (bytes 96-99) has reached its mxFrame (bytes 16-19), both in native order."""
    import sys
    import time

    shm = db_path.with_name(db_path.name + "-shm")
    deadline = time.monotonic() + timeout
    while True:
        header = shm.read_bytes()[:100]
        frames, backfilled = (int.from_bytes(header[at:at + 4], sys.byteorder) for at in (16, 96))
        if frames and backfilled == frames:
            return
        assert time.monotonic() < deadline, f"the WAL not folded in after {timeout:g} s: {backfilled} of {frames} frames"
        time.sleep(0.01)
