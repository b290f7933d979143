"""The controller's events as the app's actions, as the Pi's own buttons give them: a key
gives its action when it goes down (ranks and suits build a card), except UNDO, which has a
hold action: released before the controller reports it held it gives ``undo``, held it gives
``undo_long`` instead, once per ``KH`` (the controller repeats ``KH`` while the key stays down). PEG and MUGGINS give the bare ``peg`` and ``muggins`` actions: the app
then takes whose peg or call it is from a suit key and its points from rank keys. A card from a
reader on the controller gives the card.
"""

from __future__ import annotations

from cribpi.exc import CribpiError
from cribpi.hal.actions import Action, Kind
from cribpi.hal.protocol import Line

__all__ = ["KeyEvents", "action_for", "KEY_NAMES"]

RANK_KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUIT_KEYS = ("C", "D", "H", "S")
PLAIN_KEYS = ("go", "ok", "undo", "menu")
ENTRY_KEYS = {"peg": Action.peg_key(), "muggins": Action.muggins_key()}  # open a peg or a muggins call
#: Every key name the host understands (the firmware's key map uses these).
KEY_NAMES = RANK_KEYS + SUIT_KEYS + PLAIN_KEYS + tuple(ENTRY_KEYS)
HOLD_ACTIONS = {"undo": Kind.UNDO_LONG}  # keys whose hold is an action of its own


class KeyEvents:
    """Turns events into actions, remembering which hold-action keys were held."""

    def __init__(self) -> None:
        self.held: set[str] = set()

    def action(self, event: Line) -> Action | None:
        key = event.args[0] if event.args else ""
        if key not in HOLD_ACTIONS or event.verb not in ("KD", "KH", "KU"):
            return action_for(event)
        if event.verb == "KH":
            self.held.add(key)
            return Action(HOLD_ACTIONS[key])
        if event.verb == "KU" and key not in self.held:
            return Action.plain(key)
        self.held.discard(key)
        return None


def action_for(event: Line) -> Action | None:
    """The action for one event line, None when it means nothing to the app; a key or card
    the host does not know becomes a ``REJECTED`` action naming it. (Keys with a hold action
    need :class:`KeyEvents`, which remembers holds.)"""
    arg = event.args[0] if len(event.args) == 1 else " ".join(event.args)
    try:
        if event.verb == "CARD":
            return Action.of_card(arg)
        if event.verb != "KD":
            return None
        if arg in RANK_KEYS:
            return Action.rank_key(arg)
        if arg in SUIT_KEYS:
            return Action.suit_key(arg)
        if arg in PLAIN_KEYS:
            return Action.plain(arg)
        if arg in ENTRY_KEYS:
            return ENTRY_KEYS[arg]
    except CribpiError as exc:
        return Action.rejected(f"controller sent {event.verb} {arg[:16]!r}: {exc}")
    return Action.rejected(f"controller key {arg[:16]!r} is not one of {' '.join(KEY_NAMES)}")
