"""A game as its event log: apply, undo any number of steps, replay."""

from __future__ import annotations

from collections.abc import Iterable

from cribpi.exc import RulesError
from cribpi.game.engine import INITIAL, apply
from cribpi.game.events import Event, Undo
from cribpi.game.legal import Expected, expected
from cribpi.game.state import Effect, State

__all__ = ["Game", "replay"]


class Game:
    """The event log of one table and the state it gives.

    ``journal`` holds every event accepted, undos included (what a store persists);
    ``events`` holds the events in force once undos are taken out.
    """

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.journal: list[Event] = []
        self.events: list[Event] = []
        self._states: list[State] = [INITIAL]  # state after each event in force
        for event in events:
            self.apply(event)

    @property
    def state(self) -> State:
        return self._states[-1]

    def apply(self, event: Event) -> tuple[Effect, ...]:
        """Apply one event (an Undo included). Raises RulesError and changes nothing if refused."""
        if isinstance(event, Undo):
            return self._undo(event)
        state, effects = apply(self.state, event)
        self.journal.append(event)
        self.events.append(event)
        self._states.append(state)
        return effects

    def _undo(self, event: Undo) -> tuple[Effect, ...]:
        if not isinstance(event.steps, int) or event.steps < 1:
            raise RulesError(f"undo takes 1 or more steps, not {event.steps!r}")
        if event.steps > len(self.events):
            raise RulesError(f"only {len(self.events)} event(s) can be undone, not {event.steps}")
        del self.events[-event.steps:]
        del self._states[-event.steps:]
        self.journal.append(event)
        return ()

    def expected(self) -> Expected:
        return expected(self.state)


def replay(events: Iterable[Event]) -> State:
    """The state a journal (undos included) leads to."""
    return Game(events).state
