"""Fixtures for the store tests: a fresh journal file per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cribpi.store import Store


@pytest.fixture
def db_path(tmp_path):  # type: ignore[no-untyped-def]
    return tmp_path / "journal.db"


@pytest.fixture
def store(db_path) -> Iterator[Store]:  # type: ignore[no-untyped-def]
    with Store(db_path) as s:
        yield s
