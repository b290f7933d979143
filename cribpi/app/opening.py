"""The one way to open a table: resume the game the journal left open, or start a fresh one
set up as the table's last game was (a restart keeps the table's mode, muggins and players)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection
from typing import Any, Protocol

from cribpi.app.session import Journal, Session
from cribpi.app.settings import TableSettings, settings_of
from cribpi.app.ui import TableUI
from cribpi.game import Event, Game, NewGame
from cribpi.views.model import MessageScreen

__all__ = ["open_table", "resumed_screen", "last_setup", "History"]


class History(Protocol):
    """What the opening reads of a journal's past games (:class:`cribpi.store.Store` has it)."""

    def games(self, status: str | None = ...) -> list[dict[str, Any]]: ...

    def events(self, game_id: int) -> list[Event]: ...


def open_table(store: Journal | None, settings: TableSettings, *, new: bool = False,
               rng: random.Random | None = None, history: History | None = None,
               given: Collection[str] = ()) -> TableUI:
    """The table UI on the game left open for ``settings.table`` (keeping that game's own
    set-up, and saying first which game it is), or on a fresh game when there is none or
    ``new`` is asked. A fresh game takes the set-up of the table's last game in ``history``
    but for the ``given`` fields of ``settings`` (chosen on the command line: those win)."""
    session = None if new or store is None else Session.resume(store, settings.table)
    if session is None:
        last = last_setup(history, settings.table) if history is not None else None
        if last is not None:
            settings = kept(settings_of(Game([last]).state, settings), settings, given)
        return TableUI(settings, store=store, rng=rng)
    ui = TableUI(settings_of(session.state, settings), store=store, session=session, rng=rng)
    if session.game_id is not None and ui.confirming() is None:  # a result to confirm is asked first
        ui.screens = [resumed_screen(session.game_id)]
    return ui


def kept(settings: TableSettings, chosen: TableSettings, given: Collection[str]) -> TableSettings:
    """``settings`` with the ``given`` fields as ``chosen`` has them."""
    return dataclasses.replace(settings, **{name: getattr(chosen, name) for name in given})


def last_setup(history: History, table: str | None) -> NewGame | None:
    """How the latest game at ``table`` was started (None: the table has played none)."""
    ids = [row["id"] for row in history.games() if row["table_name"] == table]
    if not ids:
        return None
    first = history.events(ids[-1])[:1]
    return first[0] if first and isinstance(first[0], NewGame) else None


def resumed_screen(game_id: int) -> MessageScreen:
    """Which journalled game the table picked up (its number in ``cribpi export --list``)."""
    return MessageScreen((f"resumed game {game_id}", "OK: go on"), "Resumed")
