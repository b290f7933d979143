"""cribpi.record as a library: the doctests of its modules pass (tests/test_layers.py checks
that it stands on the rules and the game alone, and that nothing below imports it)."""

from __future__ import annotations

import doctest
import importlib
import pathlib

import pytest

import cribpi.record

MODULES = sorted(f"cribpi.record.{p.stem}" for p in pathlib.Path(cribpi.record.__file__).parent.glob("*.py")
                 if p.stem != "__init__")


@pytest.mark.parametrize("name", ["cribpi.record", *MODULES])
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_public_api() -> None:
    assert set(cribpi.record.__all__) >= {"Record", "export_record", "parse_record", "GAME_TAGS", "RecordError"}
    assert all(hasattr(cribpi.record, name) for name in cribpi.record.__all__)
