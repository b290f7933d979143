"""The one way to open a table: resume the game the journal left open, or start a fresh one
set up as the table's last game was (a restart keeps the table's mode, muggins and players).
The next game's set-up chosen in the menu, and the brightness, are kept as they are chosen
(with a :class:`Keeper`): a restart, even after a pulled plug, finds them as they were left."""

from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Callable, Collection, Mapping
from typing import Any, Protocol

from cribpi.app.session import Journal, Session
from cribpi.app.settings import TableSettings, game_length_of, kept_data, settings_of, with_kept
from cribpi.app.ui import TableUI
from cribpi.game import Event, Game, NewGame, State
from cribpi.views.model import MessageScreen

__all__ = ["open_table", "fresh_settings", "resumed_screen", "last_setup", "History", "Keeper", "kept_settings"]

log = logging.getLogger(__name__)


class History(Protocol):
    """What the opening reads of a journal's past games (:class:`cribpi.store.Store` has it)."""

    def games(self, status: str | None = ...) -> list[dict[str, Any]]: ...

    def events(self, game_id: int) -> list[Event]: ...


class Keeper(Protocol):
    """Where a table's settings are kept across a restart (:class:`cribpi.store.Store` keeps
    them in the journal)."""

    def table_settings(self, table: str | None) -> Mapping[str, Any] | None: ...

    def keep_table_settings(self, table: str | None, data: Mapping[str, Any]) -> None: ...


def open_table(store: Journal | None, settings: TableSettings, *, new: bool = False,
               rng: random.Random | None = None, history: History | None = None,
               given: Collection[str] = (), keeper: Keeper | None = None) -> TableUI:
    """The table UI on the game left open for ``settings.table`` (keeping that game's own
    set-up, and saying first which game it is), or on a fresh game when there is none or
    ``new`` is asked. A fresh game takes the set-up of the table's last game in ``history``
    but for the ``given`` fields of ``settings`` (chosen on the command line: those win).
    With a ``keeper``, the settings it kept (the next game's set-up as last chosen, the
    brightness) come before the last game's, and every change or game started is kept; the
    brightness and game length of ``settings`` are the configured ones, kept only when chosen
    otherwise (so a configuration changed later still sets a table where nobody chose them)."""
    session = None if new or store is None else Session.resume(store, settings.table)
    keep = None if keeper is None else _keeping(keeper, settings, given)
    if session is None:
        fresh = fresh_settings(settings, history=history, keeper=keeper, given=given)
        return TableUI(fresh, store=store, rng=rng, on_settings=keep)
    ui = TableUI(_table_setup(session.state, settings, keeper), store=store, session=session, rng=rng,
                 on_settings=keep)
    if session.game_id is not None and ui.confirming() is None:  # a result to confirm is asked first
        ui.screens = [resumed_screen(session.game_id)]
    return ui


def fresh_settings(settings: TableSettings, *, history: History | None = None, keeper: Keeper | None = None,
                   given: Collection[str] = (), quiet: bool = False) -> TableSettings:
    """The set-up a fresh game at ``settings.table`` starts with: the table's last game in
    ``history``, then what ``keeper`` kept, then the ``given`` fields of ``settings``. The
    commands check it before asking anything (``quiet``: a kept choice not used is not logged,
    as the table logs it when it opens)."""
    last = last_setup(history, settings.table) if history is not None else None
    state = Game([last]).state if last is not None else None
    return kept(_table_setup(state, settings, keeper, quiet=quiet), settings, given)


def _table_setup(state: State | None, settings: TableSettings, keeper: Keeper | None, *,
                 quiet: bool = False) -> TableSettings:
    """``settings`` as the table's game ``state`` (open, or the last one) was set up, then as
    ``keeper`` kept them. With a keeper, a game length only the last game had (not kept as a
    choice) gives way to the configured one."""
    chosen = settings
    if state is not None:
        settings = settings_of(state, settings)
    if keeper is None:
        return settings
    return kept_settings(keeper, dataclasses.replace(settings, game_length=chosen.game_length), quiet=quiet)


def kept_settings(keeper: Keeper, settings: TableSettings, *, quiet: bool = False) -> TableSettings:
    """``settings`` with the choices ``keeper`` kept for their table. A kept choice this
    cribpi cannot use (a preset an older version had) is logged in one line (unless ``quiet``)
    and left as ``settings`` has it: the table starts all the same."""
    data = keeper.table_settings(settings.table)
    if data is None:
        return settings
    chosen, problems = with_kept(settings, data)
    if problems and not quiet:
        log.warning("table %s: settings kept from before not used: %s; the table's last game or its "
                    "defaults stand instead", settings.table, "; ".join(problems))
    return chosen


def _keeping(keeper: Keeper, configured: TableSettings, given: Collection[str]) -> Callable[[TableSettings], None]:
    """Keeps the settings as they change and as a game starts with them; the brightness and
    the game length only when made other than the ``configured`` ones (a game length ``given``
    on the command line is a choice, and always kept)."""
    def keep(settings: TableSettings) -> None:
        data = kept_data(settings)
        if settings.brightness == configured.brightness:
            del data["brightness"]
        as_configured = dataclasses.replace(settings, game_length=configured.game_length)
        if "game_length" not in given and game_length_of(settings) == game_length_of(as_configured):
            del data["game_length"]
        keeper.keep_table_settings(configured.table, data)
    return keep


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
