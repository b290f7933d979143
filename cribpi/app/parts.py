"""What each part of the table UI (card entry, claims, menus) needs of the table it serves."""

from __future__ import annotations

from typing import Protocol

from cribpi.game import Effect, Event, State

__all__ = ["Table"]


class Table(Protocol):
    """The game now, and the one way to change it.

    ``apply`` raises :class:`~cribpi.exc.CribpiError` for an event the game refuses and then
    changes nothing; the part decides what of its own input to keep for another try.
    """

    @property
    def state(self) -> State: ...

    def apply(self, event: Event) -> tuple[Effect, ...]: ...
