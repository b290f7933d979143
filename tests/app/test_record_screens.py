"""Every record in tests/game/records/ replayed through the table UI: the OLED's words after
each event (the screens queued to page through with OK, then the resting screen) compared
with golden text files in tests/app/golden/.

To regenerate after an intended change: ``CRIBPI_REGENERATE_GOLDEN=1 .venv/bin/python -m
pytest tests/app/test_record_screens.py``, read the diff (``git diff tests/app/golden``), commit.
The switch fails every test that wrote a file, so it cannot stay on in CI.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from cribpi.app import Session, TableUI
from cribpi.record import parse_record
from cribpi.views.text import screen_text

RECORDS = sorted((Path(__file__).parents[1] / "game" / "records").glob("*.crib"))
GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("CRIBPI_REGENERATE_GOLDEN") == "1"


def table_words(text: str) -> str:
    events = parse_record(text).events
    ui = TableUI(session=Session(events[0]))
    out = []
    for number, event in enumerate(events[1:], start=2):
        ui.handle_event(event)
        out.append(f"== {number} {event.kind}")
        out += [screen_text(screen) for screen in ui.screens]
        ui.screens.clear()  # as if OK paged through them
        out.append("-- at rest")
        out.append(screen_text(ui.screen()))
    return "\n".join(out) + "\n"


def test_there_are_records():
    assert len(RECORDS) >= 4


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_table_shows_the_golden_words_after_each_event(path):
    got = table_words(path.read_text())
    golden = GOLDEN / f"{path.stem}.txt"
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(got)
        pytest.fail(f"regenerated {golden.name}; unset CRIBPI_REGENERATE_GOLDEN and run again", pytrace=False)
    assert golden.exists(), f"no golden {golden.name}: run with CRIBPI_REGENERATE_GOLDEN=1, read it, commit it"
    expected = golden.read_text()
    if got != expected:
        diff = difflib.unified_diff(expected.splitlines(), got.splitlines(), "golden", "got", lineterm="", n=1)
        pytest.fail(f"{golden.name} differs:\n" + "\n".join(list(diff)[:30]), pytrace=False)
