"""Power cuts under the table's tournament outbox: a result the table has finished is kept until
the director has it, so a result whose ``add`` returned must be in the outbox the disk holds
after a cut (crashfs.py keeps only what was made durable). With ``synchronous=NORMAL`` the
outbox lost finished rows at nearly every cut; it is FULL, as the journal is."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from cribpi.tournament.outbox import Outbox

sys.path.insert(0, str(Path(__file__).parent))

from test_power_cuts import _durable_folder, fuse_or_skip  # noqa: E402

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
    from crashfs import CrashFS, mount

    fs = CrashFS()
    where = tmp_path / name
    unmount = mount(fs, where)
    images: list[tuple[int, dict[str, bytes]]] = []
    acked = [0]
    try:
        _durable_folder(where)
        fs.on_cut = lambda image: images.append((acked[0], image))

        def created() -> None:
            fs.ops, fs.cut_at = 0, cut_at

        results(where, acked, created)
    finally:
        unmount()
    return fs.ops, images


def test_every_result_added_before_a_cut_is_in_the_outbox_after_it(tmp_path):
    fuse_or_skip()
    ops, _ = on_crashfs(tmp_path, "count", set())
    cut_at = set(random.Random(7).sample(range(1, ops + 1), min(60, ops)))
    _, images = on_crashfs(tmp_path, "cut", cut_at)
    assert len(images) >= len(cut_at) * 0.9
    for n, (owed, image) in enumerate(images):
        folder = tmp_path / f"cut{n}"
        for path, data in image.items():
            target = folder / path.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        box = Outbox(folder / "state" / "cribpi-outbox.db")
        try:
            box.use_event("ev1")
            kept = box.count("result")
        finally:
            box.close()
        assert kept >= owed, f"cut {n}: {owed} results added before the cut, {kept} kept"


def test_a_new_outbox_survives_a_cut_right_after_it_was_created(tmp_path):
    fuse_or_skip()
    from crashfs import CrashFS, mount

    fs = CrashFS()
    where = tmp_path / "mnt"
    unmount = mount(fs, where)
    try:
        _durable_folder(where)
        box = Outbox(where / "state" / "cribpi-outbox.db")
        box.use_event("ev1")
        box.add("result", {"game": 1, "scores": [121, 90]})
        image = fs.cut()  # the table's first result added, and the power goes
        box.close()
    finally:
        unmount()
    folder = tmp_path / "cut"
    for path, data in image.items():
        target = folder / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    assert (folder / "state" / "cribpi-outbox.db").is_file(), sorted(image)
    box = Outbox(folder / "state" / "cribpi-outbox.db")
    try:
        box.use_event("ev1")
        assert box.count("result") == 1
    finally:
        box.close()
