"""The table UI: logical actions -> game events -> views -> the hardware.

:class:`~cribpi.app.ui.TableUI` is the interaction model (DESIGN.md) with no I/O: it turns
actions into events, keeps the screens to page through, and says what the board and the OLED
show. It hands each job to its own part: card entry (:mod:`~cribpi.app.entry`), the claim
tally (:mod:`~cribpi.app.claims`), the menus (:mod:`~cribpi.app.menus`), the discard review
(:mod:`~cribpi.app.review`); :mod:`~cribpi.app.settings` holds what a new game starts with.
:class:`~cribpi.app.loop.TableApp` runs it on the parts in one loop and tells its listeners. A
:class:`~cribpi.app.session.Session` journals every event before its effects are shown.
"""

from cribpi.app.listeners import Listener, PartsView, Update
from cribpi.app.loop import TableApp
from cribpi.app.opening import open_table
from cribpi.app.session import Journal, Session
from cribpi.app.settings import DEFAULT_NAMES, MODES_CYCLE, TableSettings, settings_of
from cribpi.app.ui import TableUI, describe_event

__all__ = ["open_table", "Update", "Listener", "PartsView", "TableSettings", "Session", "Journal", "TableUI",
           "TableApp", "MODES_CYCLE", "DEFAULT_NAMES", "settings_of", "describe_event"]
