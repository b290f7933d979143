"""The OLED's ``offline`` mark follows the table's link to the room's real broker: on from the
start until the broker has the table, on again when the broker stops, off when it is back.
The publisher only posts the change from paho's thread; the table's loop draws it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cribpi.app import TableApp
from cribpi.config import load_config
from cribpi.tournament.table.attach import attach
from cribpi.app.listeners import Update
from cribpi.views.oled import MARKS
from tests.app.table_keys import mock_table
from tests.tournament.conftest import Mosquitto

pytestmark = pytest.mark.mqtt


def _run_until(app: TableApp, done: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    app.run(should_stop=lambda: done() or time.monotonic() > deadline)
    assert done(), "timed out"


def _marked(image) -> bool:  # type: ignore[no-untyped-def]
    corner = ["".join("#" if image.getpixel((x, y)) else "." for x in range(121, 128)) for y in range(7)]
    return corner == list(MARKS["offline"])


def _keep(shown: list[frozenset[str]], update: Update) -> None:
    shown.append(update.marks)


def test_the_offline_mark_shows_while_the_broker_is_stopped(broker: Mosquitto, tmp_path: Path) -> None:
    config_file = broker.table_config(tmp_path)
    with mock_table() as (parts, ui, app):
        shown: list[frozenset[str]] = []
        app.subscribe(lambda update: _keep(shown, update))
        stop = attach(app, load_config(config_file))
        try:
            assert app.marks == frozenset() and not shown  # posted, not drawn: the loop draws
            _run_until(app, lambda: app.marks == frozenset() and len(shown) >= 2)
            assert shown == [{"offline"}, frozenset()]  # offline until the broker had the table
            assert not _marked(parts.image)
            broker.stop()
            _run_until(app, lambda: app.marks == {"offline"})
            assert _marked(parts.image)
            broker.start()
            _run_until(app, lambda: app.marks == frozenset())
            assert not _marked(parts.image)
        finally:
            stop()
