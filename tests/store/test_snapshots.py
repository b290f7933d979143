"""Snapshots: a restart replays only the events after the latest one, restores exactly what a
full replay gives (undos across it included), and a snapshot that cannot be used never breaks
a restore. Journals of schema 1 (no snapshots) still open, restore and continue."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from cribpi.exc import StoreError
from cribpi.game import Game, Mode, NewGame, Peg, Undo
from cribpi.rules import ACC
from cribpi.store import SCHEMA_VERSION, Store
from cribpi.store.snapshot import SnapshotError, decode_state, encode_state, snapshot_format

from store_helpers import extend, journal, random_match

VARIANTS = [
    ("acc", Mode.COUNT, 1),
    ("acc", Mode.CLAIM, 3),
    ("acc", Mode.BOARD, 3),
    ("hoyle", Mode.CLAIM, 1),
    ("five-card", Mode.COUNT, 1),
    (ACC.replace(players=3), Mode.COUNT, 1),
    (ACC.replace(players=4, partnerships=True, muggins="acc", overclaim_penalty=1), Mode.CLAIM, 1),
]


def _with_undos(events: list, seed: int) -> list:  # type: ignore[type-arg]
    """The match with undos of 1-12 steps now and then, each followed by the events it took back."""
    rng = random.Random(seed)
    out, done = list(events[:1]), 1
    while done < len(events):
        if rng.random() < 0.08 and done > 13:
            steps = rng.randint(1, 12)
            out.append(Undo(steps))
            done -= steps
        out.append(events[done])
        done += 1
    return out


def _snapshot_rows(db_path):  # type: ignore[no-untyped-def]
    """(game_id, seq, in_force, format) of every snapshot, in journal order."""
    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT game_id, seq, in_force, format FROM snapshots ORDER BY game_id, seq").fetchall()
    conn.close()
    return rows


def _positions(db_path) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    return [(seq, in_force) for _, seq, in_force, _ in _snapshot_rows(db_path)]


def _reads_from_start(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple]]:  # type: ignore[type-arg]
    """From here on, every read of a game from its start, or from before a snapshot, is listed."""
    calls: list[tuple[str, tuple]] = []  # type: ignore[type-arg]
    for name in ("_earlier", "_replay"):
        def spy(*args, _original=getattr(store, name), _name=name):  # type: ignore[no-untyped-def]
            calls.append((_name, args))
            return _original(*args)
        monkeypatch.setattr(store, name, spy)
    return calls


# -- the codec -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules,mode,games", VARIANTS)
def test_every_state_of_a_match_round_trips(rules, mode, games):
    for _, state in random_match(21, rules, mode, games):
        assert decode_state(encode_state(state)) == state


@pytest.mark.parametrize("text", [
    "", "not json", "[]", "{}", "42", '["d", "State", []]', '["d", "Popen", {}]', '["x", 1]',
    '["e", "Phase", "nowhere"]', '["d", "State", {"names": ["t", "Ann"], "winner": {"a": 1}}]',
    '["c", "ZZ"]', '["d", "Rules", {"players": 9}]', '["d", "DealState", {"number": 1, "dealer": 0}]',
    "[" * 5000 + "]" * 5000,
])
def test_text_that_is_not_a_state_snapshot_is_a_snapshot_error(text):
    with pytest.raises(SnapshotError):
        decode_state(text)


def test_a_value_a_state_cannot_hold_is_a_snapshot_error():
    state = random_match(3)[5][1]
    with pytest.raises(SnapshotError, match="set"):
        encode_state(state.__class__(**{**state.__dict__, "names": {"Ann", "Ben"}}))


def test_the_format_names_the_version_and_the_shape_of_the_state():
    version, encoding, digest = snapshot_format().split("/")
    assert version == __import__("cribpi").__version__ and encoding == "1" and len(digest) == 12


# -- restoring -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules,mode,games", VARIANTS)
def test_a_restore_from_a_snapshot_equals_a_full_replay_and_reads_only_the_tail(
        db_path, monkeypatch, rules, mode, games):
    events = _with_undos([e for e, _ in random_match(8, rules, mode, games)], seed=8)[:400]
    rng = random.Random(1)
    with Store(db_path, snapshot_every=9) as store:
        game_id, game = journal(store, events[:1], table="t")
        done = 1
        while done < len(events):
            step = rng.randint(1, 40)
            extend(store, game_id, game, events[done:done + step])
            done += step
            done = min(done, len(events))
            with Store(db_path, read_only=True) as again:  # as `cribpi stats` reads while a table writes
                full = again.load(game_id)
                reads = _reads_from_start(again, monkeypatch)
                restored = again.restore(game_id)
                assert restored.state == full.state == game.state
                assert len(restored.events) == len(full.events)
                assert len(restored.journal) == len(full.journal) == done
                assert reads == [] or done < 9  # the first snapshot is taken at event 9
                assert restored.events[-1] == full.events[-1]  # read back if before the snapshot
                if rng.random() < 0.2:  # read back in full now and then (a snapshot at a time)
                    assert restored.events == full.events and restored.journal == full.journal


def test_undo_after_a_restore_reaches_back_past_the_snapshot_exactly(db_path):
    events = _with_undos([e for e, _ in random_match(5, "acc", Mode.CLAIM, 1)], seed=5)[:-1]
    with Store(db_path, snapshot_every=10) as store:
        game_id, _ = journal(store, events, table="t")
    with Store(db_path) as store:
        restored, full = store.restore(game_id), store.load(game_id)
        assert len(_positions(db_path)) > 3, "the test needs snapshots to undo through"
        while len(full.events) > 1:  # one step at a time, through the snapshot and on to the start
            assert restored.apply(Undo()) == full.apply(Undo())
            assert restored.state == full.state
            assert restored.events[-1] == full.events[-1]
        assert list(restored.events) == list(full.events)
        assert list(restored.journal) == list(full.journal)


def test_a_long_undo_in_one_step_and_the_game_continues(db_path):
    events = [e for e, _ in random_match(6, "acc", Mode.COUNT, 1)]
    with Store(db_path, snapshot_every=10) as store:
        game_id, _ = journal(store, events[:100], table="t")
        game = store.current("t").game
        extend(store, game_id, game, [Undo(60)])
        extend(store, game_id, game, events[40:70])
        assert game.state == Game(events[:70]).state
    with Store(db_path) as store:
        assert store.current("t").game.state == Game(events[:70]).state
        assert store.current("t").game.events == events[:70]


def test_an_undo_below_the_snapshot_writes_a_new_one_so_restores_never_read_back(db_path, monkeypatch):
    events = [e for e, _ in random_match(9, "acc", Mode.COUNT, 1)]
    with Store(db_path, snapshot_every=20) as store:
        game_id, game = journal(store, events[:45])  # snapshots at events 20 and 40
        assert _positions(db_path) == [(20, 20), (40, 40)]
        extend(store, game_id, game, [Undo(7)])  # back below the latest: a snapshot at once
        assert _positions(db_path) == [(20, 20), (40, 40), (46, 38)]
        extend(store, game_id, game, events[38:40] + [Undo(2)])  # not below the new one: none
        assert _positions(db_path) == [(20, 20), (40, 40), (46, 38)]
    with Store(db_path) as store:
        reads = _reads_from_start(store, monkeypatch)
        assert store.restore(game_id).state == Game(events[:38]).state
        assert reads == []


def test_each_game_has_a_snapshot_every_n_events(db_path):
    with Store(db_path, snapshot_every=5) as store:
        first, _ = journal(store, [e for e, _ in random_match(1, "acc", Mode.COUNT)][:23], table="1")
        second, _ = journal(store, [e for e, _ in random_match(2, "acc", Mode.COUNT)][:12], table="2")
    assert [row[:3] for row in _snapshot_rows(db_path)] == [
        (first, 5, 5), (first, 10, 10), (first, 15, 15), (first, 20, 20), (second, 5, 5), (second, 10, 10)]


def test_older_snapshots_are_thinned_to_one_in_ten(db_path, monkeypatch):
    events = [e for e, _ in random_match(3, "acc", Mode.COUNT)][:61]
    with Store(db_path, snapshot_every=2) as store:
        game_id, game = journal(store, events)
    assert [seq for seq, _ in _positions(db_path)] == [20, 40, 46, 48, 50, 52, 54, 56, 58, 60]
    with Store(db_path) as store:
        restored = store.restore(game_id)
        restored.apply(Undo(50))  # through the sparse ones
        assert restored.state == Game(events[:11]).state


def test_snapshot_every_zero_writes_none(db_path):
    with Store(db_path, snapshot_every=0) as store:
        journal(store, [e for e, _ in random_match(1)][:80])
    assert _snapshot_rows(db_path) == []


# -- snapshots that cannot be used -------------------------------------------------------------


def _corrupt_snapshot(db_path, sql: str, **names: object) -> None:  # type: ignore[no-untyped-def]
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute(sql, names)
    conn.close()


@pytest.mark.parametrize("sql", [
    "UPDATE snapshots SET state='{not json' WHERE game_id=:game",
    """UPDATE snapshots SET state='["d", "State", {"phase": ["e", "Phase", "tea break"]}]'""",
    """UPDATE snapshots SET state='["d", "Rules", {}]'""",
    "UPDATE snapshots SET state=x'00ff' WHERE game_id=:game",
    "UPDATE snapshots SET format='0.0.1/1/000000000000'",  # an older cribpi's
    "UPDATE snapshots SET seq=seq + 1000",  # after the end of the journal
    "UPDATE snapshots SET in_force=seq + 1",
    "UPDATE snapshots SET in_force='many'",
    "UPDATE snapshots SET state=(SELECT state FROM snapshots WHERE game_id!=:game) WHERE game_id=:game",
])
def test_a_snapshot_that_cannot_be_used_falls_back_to_a_full_replay(db_path, sql):
    match = [e for e, _ in random_match(4, "acc", Mode.CLAIM)]
    with Store(db_path, snapshot_every=10) as store:
        game_id, game = journal(store, match[:77], table="t")
        journal(store, [e for e, _ in random_match(5, "acc", Mode.BOARD)][:25], table="other")
    _corrupt_snapshot(db_path, sql, game=game_id)
    with Store(db_path) as store:
        restored = store.current("t")
        assert restored is not None and restored.game.state == game.state
        assert restored.game.events == list(game.events)
        extend(store, game_id, restored.game, match[77:78])  # and the game goes on
        assert store.events(game_id) == match[:78]


def test_an_unreadable_latest_snapshot_is_passed_over_for_the_one_before(db_path, monkeypatch, caplog):
    events = [e for e, _ in random_match(4, "acc", Mode.COUNT)][:57]
    with Store(db_path, snapshot_every=10) as store:
        game_id, game = journal(store, events)
    _corrupt_snapshot(db_path, "UPDATE snapshots SET state='garbage' WHERE seq=50")
    with Store(db_path) as store:
        reads = _reads_from_start(store, monkeypatch)
        assert store.restore(game_id).state == game.state
        assert reads == []
    assert "snapshot of game 1 at event 50 passed over" in caplog.text


def test_a_snapshot_of_another_format_is_replaced_by_the_next_append(db_path, monkeypatch):
    events = [e for e, _ in random_match(4, "acc", Mode.BOARD, 3)]
    with Store(db_path, snapshot_every=10) as store:
        game_id, game = journal(store, events[:25])
    _corrupt_snapshot(db_path, "UPDATE snapshots SET format='0.0.1/1/000000000000'")
    with Store(db_path, snapshot_every=10) as store:
        game = store.restore(game_id)
        extend(store, game_id, game, events[25:26])
    assert [row[1:] for row in _snapshot_rows(db_path)][-1] == (26, 26, snapshot_format())
    with Store(db_path) as store:
        reads = _reads_from_start(store, monkeypatch)
        assert store.restore(game_id).state == Game(events[:26]).state
        assert reads == []


def test_a_snapshot_that_cannot_be_written_never_stops_an_event(db_path, monkeypatch, caplog):
    def broken(state):  # type: ignore[no-untyped-def]
        raise SnapshotError("cannot encode this")
    monkeypatch.setattr("cribpi.store.journal.encode_state", broken)
    events = [e for e, _ in random_match(2)][:30]
    with Store(db_path, snapshot_every=5) as store:
        game_id, game = journal(store, events)
        assert store.events(game_id) == events
        assert store.restore(game_id).state == game.state
    assert _snapshot_rows(db_path) == [] and "cannot encode this" in caplog.text


def test_a_bad_event_after_a_snapshot_is_still_named_by_game_and_seq(db_path):
    events = [e for e, _ in random_match(11)][:33]
    with Store(db_path, snapshot_every=10) as store:
        game_id, _ = journal(store, events)
    _corrupt_snapshot(db_path, "UPDATE events SET data='{\"type\": \"dance\"}', crc=NULL WHERE seq=32")
    with Store(db_path) as store, pytest.raises(StoreError, match=f"game {game_id}, event 32 cannot be read"):
        store.current()


def test_an_event_that_contradicts_the_snapshot_makes_the_journal_replay(db_path):
    """A tail event the snapshot's state refuses: the journal (the truth) is replayed instead."""
    names = ("Ann", "Ben")
    events = [NewGame(names, mode=Mode.BOARD, first_dealer=0)] + [Peg(i % 2, 2) for i in range(12)]
    with Store(db_path, snapshot_every=10) as store:
        game_id, game = journal(store, events)
    snapshot = json.dumps(["d", "State", {"names": ["t", *names], "phase": ["e", "Phase", "cut"]}])
    _corrupt_snapshot(db_path, "UPDATE snapshots SET state=:state", state=snapshot)  # no pegs in the cut
    with Store(db_path) as store:
        assert store.restore(game_id).state == game.state


# -- journals from before snapshots ------------------------------------------------------------

_SCHEMA_1 = """
CREATE TABLE games (id INTEGER PRIMARY KEY, status TEXT NOT NULL DEFAULT 'open'
    CHECK (status IN ('open', 'finished', 'abandoned')), table_name TEXT, event_name TEXT,
    players TEXT NOT NULL, rules TEXT NOT NULL, mode TEXT NOT NULL, match_games INTEGER NOT NULL,
    started TEXT NOT NULL, finished TEXT, winner TEXT, summary TEXT);
CREATE INDEX games_open ON games (status, table_name);
CREATE TABLE events (game_id INTEGER NOT NULL REFERENCES games (id), seq INTEGER NOT NULL,
    type TEXT NOT NULL, data TEXT NOT NULL, recorded TEXT NOT NULL, PRIMARY KEY (game_id, seq))
    WITHOUT ROWID;
CREATE TABLE results (game_id INTEGER NOT NULL REFERENCES games (id), number INTEGER NOT NULL,
    winner TEXT NOT NULL, winner_team INTEGER NOT NULL, scores TEXT NOT NULL, kind TEXT NOT NULL,
    game_points INTEGER NOT NULL, margin INTEGER NOT NULL, PRIMARY KEY (game_id, number));
PRAGMA application_id=1129464400;
PRAGMA user_version=1;
"""


def _version_1_journal(db_path, events) -> None:  # type: ignore[no-untyped-def]
    """A journal as cribpi wrote it before snapshots (schema 1), built with raw SQL."""
    conn = sqlite3.connect(db_path)
    conn.executescript(_SCHEMA_1)
    first = events[0]
    with conn:
        conn.execute("INSERT INTO games (table_name, players, rules, mode, match_games, started)"
                     " VALUES ('main', ?, ?, ?, ?, '2024-05-01T19:30:00.000000Z')",
                     (json.dumps(list(first.names)), json.dumps(first.to_dict()["rules"]),
                      first.mode.value, first.match_games))
        conn.executemany("INSERT INTO events VALUES (1, ?, ?, ?, '2024-05-01T19:30:00.000000Z')",
                         [(seq, e.kind, json.dumps(e.to_dict())) for seq, e in enumerate(events, 1)])
    conn.close()


def test_a_version_1_journal_opens_restores_and_continues(db_path, monkeypatch):
    events = _with_undos([e for e, _ in random_match(12, "acc", Mode.CLAIM, 3)], seed=3)
    cut = len(events) // 2
    _version_1_journal(db_path, events[:cut])
    with Store(db_path, snapshot_every=10) as store:
        conn = store._conn
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        restored = store.current("main")
        assert restored is not None and restored.game_id == 1
        assert restored.game.state == Game(events[:cut]).state
        assert restored.game.journal == events[:cut]
        extend(store, 1, restored.game, events[cut:cut + 3])
        assert _snapshot_rows(db_path)[0][1] == cut + 1  # the first append snapshots at once
        extend(store, 1, restored.game, events[cut + 3:])
        assert store.events(1) == events
        assert store.games()[0]["status"] == "finished"
    with Store(db_path) as store:
        reads = _reads_from_start(store, monkeypatch)
        assert store.restore(1).state == Game(events).state
        assert reads == []


def test_two_processes_migrating_one_journal_at_once(tmp_path):
    """Four writers at once: each migrates it or is refused as a second writer, never half."""
    import subprocess
    import sys

    code = ("import sys; from cribpi.store import Store; from cribpi.exc import JournalLocked\n"
            "try: Store(sys.argv[1]).close()\nexcept JournalLocked: sys.exit(3)")
    events = [e for e, _ in random_match(3)][:20]
    for round_ in range(3):
        path = tmp_path / f"old{round_}.db"
        _version_1_journal(path, events)
        procs = [subprocess.Popen([sys.executable, "-c", code, str(path)], stderr=subprocess.PIPE, text=True)
                 for _ in range(4)]
        errors = [p.communicate(timeout=30)[1] for p in procs]
        assert set(p.returncode for p in procs) <= {0, 3} and 0 in [p.returncode for p in procs], errors
        with Store(path) as store:
            assert store.restore(1).state == Game(events).state
