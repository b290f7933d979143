"""Power cuts, not only kill -9: the table's journal (its snapshots and its checkpoint thread
included) written on a file system that keeps only what was made durable (crashfs.py), cut at
random points between and inside its writes. After each cut the journal, as the disk would
hold it, is opened as ``cribpi run`` opens it (recover=True): every event acknowledged before
the cut (its append returned) must be there, and the journal must be sound or its damage
detected and said (a notice), never silently wrong.

A kill -9 leaves the kernel's page cache, so it cannot show a missing fsync; these cuts can.
The regular run cuts a few hundred times; ``-m slow`` runs more than a thousand.

The random cuts fall once the journal holds its first game; a cut right after that is its own
test. A cut *while* the journal file is first being made (its schema written under a rollback
journal, before WAL mode) leaves a hot ``-journal`` that a read-only check cannot roll back;
the writer rolls it back first (cribpi/store/guard.py), tested in tests/store/test_guard.py.
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cribpi.game import Game, Mode
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC
from cribpi.store import Store
from cribpi.store.journal import CHECKPOINT_EVERY

sys.path.insert(0, str(Path(__file__).parent))

pytestmark = pytest.mark.usefixtures("fuse")


def match(seed: int, games: int = 3) -> list:  # type: ignore[type-arg]
    return [e for e, _ in random_game_events(random.Random(seed), ACC, Mode.CLAIM, games)]


def journal_match(where: Path, events: list, acked: list[int],  # type: ignore[type-arg]
                  created: Callable[[], None] = lambda: None) -> None:
    """Journal ``events`` as the table does (each applied, then appended), counting in ``acked``
    the events whose append returned; ``created`` is called once the journal holds the game."""
    store = Store(where / "state" / "cribpi.db", snapshot_every=7)
    game = Game(events[:1])
    game_id = store.new_game(events[0], table="main")
    acked[0] = 1
    created()
    for event in events[1:]:
        game.apply(event)
        store.append(game_id, event, game)
        acked[0] += 1
        if acked[0] % CHECKPOINT_EVERY == 0:  # the players think: the checkpoint thread folds the WAL in
            time.sleep(0.3)
    store.close()


def on_crashfs(tmp_path: Path, name: str, cut_at: set[int], events: list,  # type: ignore[type-arg]
               unsynced: float = 0.0, seed: int = 0) -> tuple[int, list]:  # type: ignore[type-arg]
    """One run of the match on a fresh crash file system; its operations and the cuts' images."""
    from crashfs import mounted

    where = tmp_path / name
    images: list[tuple[int, dict[str, bytes]]] = []
    acked = [0]  # events whose append returned: the journal owes them to the player
    # which unsynced writes a cut keeps: the run's seed and where it cuts (not only how often)
    with mounted(where, unsynced=unsynced, seed=seed * 1_000_003 + min(cut_at, default=0)) as fs:
        fs.on_cut = lambda image: images.append((acked[0], image))
        # the cuts fall after the journal's creation (see the module's note)
        journal_match(where, events, acked, lambda: fs.arm(cut_at))
    # the checkpoint thread ran during the match (the journal itself is fsynced only by checkpoints)
    assert fs.fsyncs.get("/state/cribpi.db", 0) >= len(events) // CHECKPOINT_EVERY // 2, fs.fsyncs
    return fs.ops, images


def run_cuts(tmp_path: Path, seed: int, cuts: int, unsynced: float = 0.0) -> tuple[int, int]:
    """Journal a seeded match on the crash file system, cut ``cuts`` times at random operations
    (a first run counts them); check every cut. Returns (cuts checked, events journalled).
    ``unsynced``: the share of the writes not yet fsynced that each cut keeps anyway."""
    from crashfs import count_then_cut

    events = match(seed)
    images = count_then_cut(lambda name, cut_at: on_crashfs(tmp_path, name, cut_at, events, unsynced, seed), seed, cuts,
                            0.9)
    for n, (owed, image) in enumerate(images):
        check_cut(tmp_path / f"cut{n}", image, owed, events)
    return len(images), len(events)


def check_cut(folder: Path, image: dict[str, bytes], owed: int, events: list) -> None:  # type: ignore[type-arg]
    """Open the journal the disk kept, as the table would at the next boot."""
    from crashfs import restore

    db = restore(folder, image) / "state" / "cribpi.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    with Store(db, recover=True) as store:
        if store.notice:  # damage seen and said: then nothing owed may have been lost either
            pytest.fail(f"{owed} events acknowledged, the journal was found damaged: {store.notice}")
        games = store.games()
        journal = list(store.load(games[-1]["id"]).journal) if games else []  # open, or finished by the match
        kept = len(journal)
        assert kept >= owed, f"{owed} events acknowledged before the cut, {kept} kept"
        assert journal == events[:kept]  # exactly the match, nothing wrong
    shutil.rmtree(folder)


def test_a_few_hundred_cuts_lose_nothing_acknowledged(tmp_path):
    checked, events = run_cuts(tmp_path, seed=22, cuts=300)
    print(f"{checked} power cuts over {events} events")


def test_cuts_that_keep_some_of_the_unsynced_writes_lose_nothing_acknowledged(tmp_path):
    """A disk that wrote back part of its cache, in its own order, before the power went."""
    checked, events = run_cuts(tmp_path, seed=5, cuts=100, unsynced=0.5)
    print(f"{checked} power cuts keeping half the unsynced writes, over {events} events")


@pytest.mark.slow
def test_more_than_a_thousand_cuts(tmp_path):
    total = 0
    for seed in range(4):
        checked, _ = run_cuts(tmp_path / str(seed), seed=seed, cuts=400)
        total += checked
    assert total >= 1000
    print(f"{total} power cuts")


def test_a_journal_survives_a_cut_right_after_it_was_created(tmp_path):
    from crashfs import mounted

    where = tmp_path / "mnt"
    with mounted(where) as fs:
        events = match(7, games=1)
        with Store(where / "state" / "cribpi.db") as store:
            store.new_game(events[0], table="main")
            image = fs.cut()  # the first event acknowledged, and the power goes
    check_cut(tmp_path / "cut", image, 1, events)


def fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def test_the_crash_file_system_drops_what_was_not_synced(tmp_path):
    """The file system itself: data without fsync and entries without a directory fsync are lost;
    so is a file whose folder's own entry was never made durable, however durable the file; and
    a folder renamed (its new parent fsynced) keeps its children."""
    from crashfs import mounted, restore

    where = tmp_path / "mnt"
    with mounted(where, state=False) as fs:
        (where / "synced").write_bytes(b"kept")
        with open(where / "synced", "rb+") as f:
            os.fsync(f.fileno())
            f.write(b"lost")  # after the fsync: not durable
        (where / "named-only").write_bytes(b"data never synced")
        (where / "old").mkdir()
        (where / "old" / "child").write_bytes(b"child")
        fsync_path(where / "old" / "child")
        fsync_path(where / "old")
        fsync_path(where)
        (where / "old").rename(where / "moved")  # a durable folder renamed, the rename made durable
        fsync_path(where)
        (where / "unnamed").write_bytes(b"synced data, no directory fsync")
        fsync_path(where / "unnamed")
        (where / "orphan").mkdir()  # its entry in the root never made durable...
        (where / "orphan" / "file").write_bytes(b"synced data and entry")
        fsync_path(where / "orphan" / "file")
        fsync_path(where / "orphan")  # ...however durable what is in it
        image = fs.cut()
        assert (where / "synced").read_bytes() == b"lost"  # the programs still see what they wrote
        assert (where / "moved" / "child").read_bytes() == b"child"  # and the renamed folder's children
        assert not (where / "old").exists()
    assert image == {"/synced": b"kept", "/named-only": b"", "/moved/": b"", "/moved/child": b"child"}
    back = restore(tmp_path / "cut", image)
    assert sorted(str(p.relative_to(back)) for p in back.rglob("*")) == ["moved", "moved/child", "named-only", "synced"]


def test_the_crash_file_system_can_keep_a_random_share_of_the_unsynced_writes(tmp_path):
    from crashfs import mounted

    where = tmp_path / "mnt"
    for share, expected in ((1.0, {b"bbaacc"}), (0.0, {b"aaaa"}),
                            (0.5, {b"aaaa", b"bbaa", b"aaaacc", b"bbaacc"})):
        with mounted(where, state=False, unsynced=share, seed=3) as fs:
            (where / "f").write_bytes(b"aaaa")
            fsync_path(where / "f")
            fsync_path(where)
            with open(where / "f", "rb+") as f:
                f.write(b"bb")
                f.flush()
                f.seek(4)
                f.write(b"cc")
            images = {fs.cut()["/f"] for _ in range(40)}
        assert images == expected, (share, images)
