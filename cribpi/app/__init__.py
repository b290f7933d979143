"""The table UI: logical actions -> game events -> views -> the hardware.

:class:`~cribpi.app.ui.TableUI` is the interaction model (DESIGN.md) with no I/O: it turns
actions into events, keeps the screens to page through, and says what the board and the OLED
show. :class:`~cribpi.app.loop.TableApp` runs it on the parts in one loop. A
:class:`~cribpi.app.session.Session` journals every event before its effects are shown.
"""

from cribpi.app.loop import TableApp
from cribpi.app.session import Journal, Session
from cribpi.app.ui import DEFAULT_NAMES, MODES_CYCLE, TableSettings, TableUI, describe_event, settings_of

__all__ = ["TableSettings", "Session", "Journal", "TableUI", "TableApp", "MODES_CYCLE", "DEFAULT_NAMES",
           "settings_of", "describe_event"]
