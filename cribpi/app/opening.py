"""The one way to open a table: resume the game the journal left open, or start a fresh one."""

from __future__ import annotations

import random

from cribpi.app.session import Journal, Session
from cribpi.app.ui import TableUI
from cribpi.app.settings import TableSettings, settings_of

__all__ = ["open_table"]


def open_table(store: Journal | None, settings: TableSettings, *, new: bool = False,
               rng: random.Random | None = None) -> TableUI:
    """The table UI on the game left open for ``settings.table`` (keeping that game's own
    set-up), or on a fresh game when there is none or ``new`` is asked."""
    session = None if new or store is None else Session.resume(store, settings.table)
    if session is not None:
        settings = settings_of(session.state, settings)
    return TableUI(settings, store=store, session=session, rng=rng)
