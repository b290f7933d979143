"""Golden files: OLED screens as PNG, LED frames as JSON, compared exactly.

``CRIBPI_REGENERATE_GOLDEN=1`` rewrites them and then fails every test that wrote one, so the
switch can never be left on in CI.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("CRIBPI_REGENERATE_GOLDEN") == "1"


def _regenerated(path: Path) -> None:
    pytest.fail(f"regenerated {path.name}; unset CRIBPI_REGENERATE_GOLDEN and run again", pytrace=False)


def _missing(path: Path) -> None:
    pytest.fail(f"no golden {path.name}: run with CRIBPI_REGENERATE_GOLDEN=1, look at it, commit it")


def frame_json(data: dict[str, Any]) -> str:
    """One track (or counter row) a line: reviewable diffs, small files."""
    lines = ["{"]
    for key in ("tracks", "games"):
        rows = ",\n".join(f"    {json.dumps(row, separators=(',', ':'))}" for row in data[key])
        lines.append(f'  "{key}": [\n{rows}\n  ]' + ("," if key == "tracks" else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


class Golden:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path

    def png(self, name: str, image: Image.Image) -> None:
        path = GOLDEN / f"{name}.png"
        if REGENERATE:
            image.save(path)
            _regenerated(path)
        if not path.exists():
            _missing(path)
        with Image.open(path) as expected:
            expected.load()
            if expected.mode != image.mode or expected.size != image.size or expected.tobytes() != image.tobytes():
                actual = self.tmp_path / f"{name}.actual.png"
                image.save(actual)
                diff = sum(a != b for a, b in zip(expected.convert("1").tobytes(), image.convert("1").tobytes()))
                pytest.fail(f"{path.name} differs ({diff} bytes of packed pixels); got {actual}")

    def json(self, name: str, data: dict[str, Any]) -> None:
        path = GOLDEN / f"{name}.json"
        if REGENERATE:
            path.write_text(frame_json(data))
            _regenerated(path)
        if not path.exists():
            _missing(path)
        assert json.loads(path.read_text()) == data, f"{path.name} differs"


@pytest.fixture
def golden(tmp_path: Path) -> Golden:
    return Golden(tmp_path)
