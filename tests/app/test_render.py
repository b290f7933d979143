"""`cribpi render`: a board and an OLED picture after every event of a record."""

import subprocess
import sys
from pathlib import Path

from PIL import Image

RECORDS = Path(__file__).resolve().parents[1] / "game" / "records"


def test_render_writes_two_pictures_per_event(tmp_path):
    record = RECORDS / "003_interesting_play.crib"
    out = tmp_path / "pics"
    done = subprocess.run([sys.executable, "-m", "cribpi", "render", "--record", str(record), "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    boards = sorted(out.glob("*-board.png"))
    oleds = sorted(out.glob("*-oled.png"))
    assert len(boards) == len(oleds) >= 10
    last_board = Image.open(boards[-1]).convert("RGB")
    assert len(last_board.getcolors(maxcolors=1 << 16) or ()) > 3  # holes, marks and pegs in colour
    oled = Image.open(oleds[0])
    assert oled.size == (128 * 3, 64 * 3)


def test_render_refuses_a_missing_record(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cribpi", "render", "--record", str(tmp_path / "nope.crib"),
                           "--out", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert "nope.crib" in done.stderr and len(done.stderr.strip().splitlines()) == 1
