"""The pictures in docs/img show the screens as cribpi draws them now: a screen that changes
fails here until ``python docs/pictures.py`` is run again and the new pictures are committed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _pictures():  # docs/ is not a package: load the script as the docs run it
    spec = importlib.util.spec_from_file_location("docs_pictures", DOCS / "pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_documented_pictures_match_the_screens_drawn_now(tmp_path: Path) -> None:
    pictures = _pictures()
    made = pictures.write(tmp_path)
    assert len(made) >= 13  # every picture docs/usage.md and README.md show from the table
    documented = {line for doc in (DOCS / "usage.md", DOCS.parent / "README.md")
                  for line in doc.read_text(encoding="utf-8").split("img/")[1:]}
    assert all(any(line.startswith(name) for line in documented) for name in made), "a picture no doc shows"
    assert pictures.stale() == []
