"""The one way to open a table: resume the game the journal left open, or start a fresh one."""

from __future__ import annotations

import random

from cribpi.app.session import Journal, Session
from cribpi.app.ui import TableUI
from cribpi.app.settings import TableSettings, settings_of
from cribpi.views.model import MessageScreen

__all__ = ["open_table", "resumed_screen"]


def open_table(store: Journal | None, settings: TableSettings, *, new: bool = False,
               rng: random.Random | None = None) -> TableUI:
    """The table UI on the game left open for ``settings.table`` (keeping that game's own
    set-up, and saying first which game it is), or on a fresh game when there is none or
    ``new`` is asked."""
    session = None if new or store is None else Session.resume(store, settings.table)
    if session is None:
        return TableUI(settings, store=store, rng=rng)
    ui = TableUI(settings_of(session.state, settings), store=store, session=session, rng=rng)
    if session.game_id is not None and ui.confirming() is None:  # a result to confirm is asked first
        ui.screens = [resumed_screen(session.game_id)]
    return ui


def resumed_screen(game_id: int) -> MessageScreen:
    """Which journalled game the table picked up (its number in ``cribpi export --list``)."""
    return MessageScreen((f"resumed game {game_id}", "OK: go on"), "Resumed")
