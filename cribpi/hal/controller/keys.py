"""The controller's events as the app's actions: a key down gives its action (ranks and suits
build a card as on the Pi's keypad), a held UNDO gives ``undo_long``, a card from a reader on
the controller gives the card. Key up, and holds of other keys, give nothing.
"""

from __future__ import annotations

from cribpi.exc import CribpiError
from cribpi.hal.actions import Action, Kind
from cribpi.hal.protocol import Line

__all__ = ["action_for", "KEY_NAMES"]

RANK_KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUIT_KEYS = ("C", "D", "H", "S")
PLAIN_KEYS = ("go", "ok", "undo", "menu")
#: Every key name the host understands (the firmware's key map uses these).
KEY_NAMES = RANK_KEYS + SUIT_KEYS + PLAIN_KEYS


def action_for(event: Line) -> Action | None:
    """The action for one event line, None when it means nothing to the app; a key or card
    the host does not know becomes a ``REJECTED`` action naming it."""
    arg = event.args[0] if len(event.args) == 1 else " ".join(event.args)
    try:
        if event.verb == "CARD":
            return Action.of_card(arg)
        if event.verb == "KH":
            return Action(Kind.UNDO_LONG) if arg == "undo" else None
        if event.verb != "KD":
            return None
        if arg in RANK_KEYS:
            return Action.rank_key(arg)
        if arg in SUIT_KEYS:
            return Action.suit_key(arg)
        if arg in PLAIN_KEYS:
            return Action.plain(arg)
    except CribpiError as exc:
        return Action.rejected(f"controller sent {event.verb} {arg[:16]!r}: {exc}")
    return Action.rejected(f"controller key {arg[:16]!r} is not one of {' '.join(KEY_NAMES)}")
