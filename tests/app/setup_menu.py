"""Helpers for the tests of the table's set-up: the table as `cribpi run` opens it on a
journal, and its menus walked by key."""

from __future__ import annotations

import random

from cribpi.app import TableSettings, TableUI
from cribpi.app.opening import open_table
from cribpi.app.settings import MAIN_TABLE
from cribpi.hal import Action
from cribpi.store import Store

SETTINGS = TableSettings(table=MAIN_TABLE, brightness=0.5)


def opened(db, settings: TableSettings = SETTINGS, **kwargs) -> tuple[Store, TableUI]:
    """The table as `cribpi run` opens it on the journal ``db``."""
    store = Store(db, recover=True)
    return store, open_table(store, settings, history=store, keeper=store, rng=random.Random(1), **kwargs)


def press(ui: TableUI, *keys: str) -> None:
    for key in keys:
        ui.handle(Action.parse(key))


def labels(ui: TableUI) -> list[str]:
    assert ui.menu is not None
    return [label for label, _ in ui.menu.items]


def selected(ui: TableUI) -> str:
    assert ui.menu is not None
    return labels(ui)[ui.menu.selected]


def choose(ui: TableUI, label: str) -> None:
    """GO down to the item that starts with ``label``, then OK."""
    assert any(item.startswith(label) for item in labels(ui)), (label, labels(ui))
    while not selected(ui).startswith(label):
        press(ui, "go")
    press(ui, "ok")


def setup_menu(ui: TableUI) -> list[str]:
    """Open MENU → Next game setup; its items."""
    ui.menus.close()
    ui.screens.clear()
    press(ui, "menu")
    choose(ui, "Next game setup")
    return labels(ui)
