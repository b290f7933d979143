"""The journal is guarded: one writer (real processes), readers while it writes, damage moved aside."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from cribpi.exc import JournalDamaged, JournalLocked, StoreError
from cribpi.game import Game
from cribpi.store import Store

from store_helpers import extend, journal, random_match

#: A writer that journals a match slowly, printing "ready" once it holds the journal. It writes
#: until told to stop (a line on its stdin), however long that takes: the match's last event is
#: never written, so the game stays open, and when the rest run out the match is begun again
#: (new_game abandons the open game and starts the next in one transaction: one is always open).
_WRITER = textwrap.dedent("""
    import select, sys
    sys.path.insert(0, sys.argv[2])
    from store_helpers import extend, journal, random_match
    from cribpi.store import Store
    events = [e for e, _ in random_match(21, games=3)][:-1]
    def write(store):
        game_id, game = journal(store, events[:30], table="main")
        print("ready", flush=True)
        while True:
            for event in events[30:]:  # an event every 20 ms until told to stop
                extend(store, game_id, game, [event])
                if select.select([sys.stdin], [], [], 0.02)[0]:
                    return
            game_id, game = journal(store, events[:30], table="main")
    with Store(sys.argv[1]) as store:
        write(store)
""")


@pytest.fixture
def writer(db_path):  # type: ignore[no-untyped-def]
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(db_path), os.path.dirname(__file__)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    yield proc
    proc.communicate("\n", timeout=30)
    assert proc.returncode == 0


def _cribpi(*args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cribpi", *map(str, args)], capture_output=True, text=True,
                          timeout=60, env={**os.environ, **(env or {})})


def test_a_second_table_on_the_journal_exits_1_naming_it_and_the_holder(writer, db_path, tmp_path):
    config = tmp_path / "cribpi.toml"
    config.write_text(f'db = "{db_path}"\n')
    done = _cribpi("run", "--backend", "mock", env={"CRIBPI_CONFIG": str(config)})
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(db_path) in lines[0] and f"process {writer.pid} (" in lines[0], lines
    assert "-c" in lines[0]  # the holder's command line


def test_readers_work_while_the_table_writes(writer, db_path):
    for _ in range(3):
        listing = _cribpi("export", "--db", db_path, "--list")
        assert listing.returncode == 0 and "open" in listing.stdout, listing.stderr
        record = _cribpi("export", "--db", db_path)
        assert record.returncode == 0 and record.stdout.startswith("["), record.stderr
        assert _cribpi("stats", "--db", db_path).returncode == 0
    with Store(db_path, read_only=True) as reader:  # a consistent prefix of the match, restored
        restored = reader.current("main")
        events = [e for e, _ in random_match(21, games=3)]
        assert restored is not None and restored.game.journal == events[:len(restored.game.journal)]
        assert restored.game.state == Game(restored.game.journal).state


def test_the_lock_goes_with_its_process_however_it_ends(db_path):
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(db_path), os.path.dirname(__file__)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    with pytest.raises(JournalLocked, match=f"in use by process {proc.pid}"):
        Store(db_path)
    proc.kill()
    proc.wait(timeout=30)
    with Store(db_path) as store:  # no stale lock: kill -9 released it
        assert store.current("main") is not None


def test_a_reader_needs_a_journal_and_never_makes_one(tmp_path):
    with pytest.raises(StoreError, match="there is no game journal"):
        Store(tmp_path / "none.db", read_only=True)
    assert os.listdir(tmp_path) == []


# -- damage ---------------------------------------------------------------------------------


def _scribbled(db_path) -> None:  # type: ignore[no-untyped-def]
    """A journal of a whole match with two of its pages overwritten."""
    with Store(db_path) as store:
        journal(store, [e for e, _ in random_match(5)])
    data = bytearray(db_path.read_bytes())
    data[4096:3 * 4096] = b"\xa5" * (2 * 4096)
    db_path.write_bytes(bytes(data))


def test_a_table_moves_a_damaged_journal_aside_and_starts_afresh(db_path):
    _scribbled(db_path)
    damaged = db_path.read_bytes()
    when = dt.datetime(2026, 11, 23, 14, 30, 5, tzinfo=dt.timezone.utc)
    with pytest.raises(JournalDamaged, match=str(db_path)):
        Store(db_path)  # a plain writer refuses it, untouched
    assert db_path.read_bytes() == damaged
    with Store(db_path, recover=True, clock=lambda: when) as store:
        aside = db_path.with_name(db_path.name + ".damaged-20261123-143005")
        assert store.notice is not None and aside.name in store.notice and "damaged" in store.notice
        assert "move it aside" not in store.notice  # done already: the notice says what was wrong
        assert store.games() == []
        journal(store, [e for e, _ in random_match(6)][:10])
    assert aside.read_bytes() == damaged  # kept byte for byte
    with Store(db_path, recover=True) as store:
        assert store.notice is None and len(store.games()) == 1


@pytest.mark.parametrize("command", [["stats"], ["export"], ["export", "--list"]])
def test_stats_and_export_exit_1_naming_the_damaged_file(db_path, command):
    _scribbled(db_path)
    done = _cribpi(*command, "--db", db_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert f"{db_path} is damaged (database disk image is malformed)" in lines[0]


@pytest.mark.parametrize("version", [0, -1, 1000000, 2 ** 31 - 1])
def test_a_mangled_user_version_is_named_never_a_traceback(db_path, version):
    with Store(db_path) as store:
        journal(store, [e for e, _ in random_match(5)][:10])
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version={version}")
    conn.close()
    with pytest.raises(StoreError, match=f"{db_path}.*version {version}") as info:
        Store(db_path)
    done = _cribpi("stats", "--db", db_path)
    assert done.returncode == info.value.exit_code and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("where", ["middle", "first frame"])
def test_rows_lost_from_the_middle_of_the_wal_are_damage(db_path, tmp_path, where):
    """A frame overwritten in mid-WAL makes SQLite drop every later commit: caught at open,
    also when that leaves nothing (the journal's tables were only in the WAL)."""
    events = [e for e, _ in random_match(5)]
    keep = sqlite3.connect(db_path)  # an open reader keeps the WAL from being checkpointed away
    with Store(db_path) as store:
        game_id, game = journal(store, events[:5])
        keep.execute("SELECT count(*) FROM events").fetchone()
        extend(store, game_id, game, events[5:60])
        wal = (tmp_path / "journal.db-wal").read_bytes()
        main = db_path.read_bytes()
    keep.close()
    frame = 24 + 4096
    middle = 32 + ((len(wal) - 32) // frame // 2 * frame if where == "middle" else 0) + 100
    copy = tmp_path / "copy.db"
    copy.write_bytes(main)
    (tmp_path / "copy.db-wal").write_bytes(wal[:middle] + os.urandom(64) + wal[middle + 64:])
    with pytest.raises(JournalDamaged, match="fails its checksum at frame .* committed transaction"):
        Store(copy, read_only=True)
    with Store(copy, recover=True) as store:
        assert store.notice is not None and store.games() == []


def test_a_journal_whose_creator_died_before_its_schema_is_created_by_the_next_writer(db_path):
    """Killed between `PRAGMA journal_mode=WAL` (which writes the file's first page) and the
    schema's commit: not damage, and not "no journal" for a writer; a reader says there is none."""
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    assert db_path.stat().st_size > 0
    with pytest.raises(StoreError, match="there is no game journal"):
        Store(db_path, read_only=True)
    with Store(db_path) as store:
        assert store.notice is None and store.games() == []
        journal(store, [e for e, _ in random_match(5)][:3])


def _hot_journal(folder, name="cribpi.db"):
    """A file as a power cut leaves it in the middle of a rollback-journal transaction: pages
    spilled into the file, their old contents in a hot -journal beside it."""
    work, cut = folder / "work", folder / "cut"
    work.mkdir()
    cut.mkdir()
    conn = sqlite3.connect(work / name, isolation_level=None)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("PRAGMA cache_size=1")  # spill early: the file holds uncommitted pages
    conn.execute("BEGIN")
    conn.execute("CREATE TABLE half (x)")
    conn.executemany("INSERT INTO half VALUES (?)", [("x" * 500,)] * 200)
    for suffix in ("", "-journal"):
        (cut / (name + suffix)).write_bytes((work / (name + suffix)).read_bytes())
    conn.execute("ROLLBACK")
    conn.close()
    assert (cut / (name + "-journal")).stat().st_size > 0
    return cut / name


def test_a_table_starts_on_a_journal_cut_while_it_was_being_made(tmp_path):
    """A power cut while the journal is first made leaves a hot rollback journal, which a
    read-only check cannot roll back ('attempt to write a readonly database'): the writer,
    holding the lock, lets SQLite roll it back, and the table starts on a fresh journal."""
    path = _hot_journal(tmp_path)
    with Store(path, recover=True) as store:
        assert store.notice is None
        assert store.games() == []
    assert not os.path.exists(f"{path}-journal") or os.path.getsize(f"{path}-journal") == 0
