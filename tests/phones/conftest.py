"""The phones' tests: one table and its phones' server a module (tests/phones/tables.py), and
one Chromium a module (tests/browser.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser import chromium_once  # noqa: F401 - the fixture, for this folder
from tests.phones.tables import Table, running_table


@pytest.fixture(scope="module")
def table() -> Iterator[Table]:
    yield from running_table()
