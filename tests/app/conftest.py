"""The table UI tests' ``table``: a started table on mock parts (table_keys.mock_table)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from table_keys import Table, mock_table


@pytest.fixture
def table() -> Iterator[Table]:
    with mock_table() as parts_ui_app:
        yield parts_ui_app
