"""Power cuts under the table's tournament outbox: a result the table has finished is kept until
the director has it, so a result whose ``add`` returned must be in the outbox the disk holds
after a cut (crashfs.py keeps only what was made durable). With ``synchronous=NORMAL`` the
outbox lost finished rows at nearly every cut; it is FULL, as the journal is."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cribpi.tournament.table.outbox import Outbox

sys.path.insert(0, str(Path(__file__).parent))

pytestmark = pytest.mark.usefixtures("fuse")

RESULTS = 12


def results(where: Path, acked: list[int], created) -> None:  # type: ignore[no-untyped-def]
    box = Outbox(where / "state" / "cribpi-outbox.db")
    box.use_event("ev1")
    created()
    for n in range(RESULTS):
        box.add("result", {"game": n + 1, "scores": [121, 100 - n]})
        acked[0] += 1
    box.close()


def on_crashfs(tmp_path: Path, name: str, cut_at: set[int]) -> tuple[int, list[tuple[int, dict[str, bytes]]]]:
    from crashfs import mounted

    where = tmp_path / name
    images: list[tuple[int, dict[str, bytes]]] = []
    acked = [0]
    with mounted(where) as fs:
        fs.on_cut = lambda image: images.append((acked[0], image))
        results(where, acked, lambda: fs.arm(cut_at))
    return fs.ops, images


def test_every_result_added_before_a_cut_is_in_the_outbox_after_it(tmp_path):
    from crashfs import count_then_cut, restore

    images = count_then_cut(lambda name, cut_at: on_crashfs(tmp_path, name, cut_at), 7, 60, 0.9)
    for n, (owed, image) in enumerate(images):
        folder = restore(tmp_path / f"cut{n}", image)
        box = Outbox(folder / "state" / "cribpi-outbox.db")
        try:
            box.use_event("ev1")
            kept = box.count("result")
        finally:
            box.close()
        assert kept >= owed, f"cut {n}: {owed} results added before the cut, {kept} kept"


def test_a_new_outbox_survives_a_cut_right_after_it_was_created(tmp_path):
    from crashfs import mounted, restore

    where = tmp_path / "mnt"
    with mounted(where) as fs:
        box = Outbox(where / "state" / "cribpi-outbox.db")
        box.use_event("ev1")
        box.add("result", {"game": 1, "scores": [121, 90]})
        image = fs.cut()  # the table's first result added, and the power goes
        box.close()
    folder = restore(tmp_path / "cut", image)
    assert (folder / "state" / "cribpi-outbox.db").is_file(), sorted(image)
    box = Outbox(folder / "state" / "cribpi-outbox.db")
    try:
        box.use_event("ev1")
        assert box.count("result") == 1
    finally:
        box.close()
