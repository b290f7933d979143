"""A game as its event log: apply, undo any number of steps, replay, roll back.

A game can also be resumed from a state saved part-way (a store's snapshot): the events
before it are read back, a snapshot at a time, only when something reaches back past it, such
as an undo.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import overload

from cribpi.exc import RulesError
from cribpi.game.engine import INITIAL, apply
from cribpi.game.events import Event, Undo
from cribpi.game.legal import Expected, expected
from cribpi.game.state import Effect, State

__all__ = ["Game", "EventLog", "replay"]


class Game:
    """The event log of one table and the state it gives.

    ``journal`` holds every event accepted, undos included (what a store persists);
    ``events`` holds the events in force once undos are taken out. Both are read-only views.
    """

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._journal: list[Event] = []
        self._events: list[Event] = []
        self._states: list[State] = [INITIAL]  # the state before _events[0], then after each
        self._earlier: _Earlier | None = None  # the start of a resumed game, not read back yet
        self._last: tuple[list[Event], list[State]] | None = None  # what rollback() restores
        self.journal = EventLog(self, everything=True)
        self.events = EventLog(self, everything=False)
        for event in events:
            self.apply(event)
        self._last = None  # what the game was built from is not an apply to roll back

    @classmethod
    def resume(cls, state: State, journal_length: int, in_force: int, earlier: Callable[[], Game]) -> Game:
        """A game whose first ``journal_length`` journal events (``in_force`` of them still in
        force) led to ``state``. ``earlier()`` returns the game of just those events (itself
        perhaps resumed); it is called only when an undo reaches back past ``state`` or those
        events are read. Should that game disagree with ``state``, it wins: the journal is the
        truth, and the events since are applied to it again."""
        if not 0 <= in_force <= journal_length:
            raise RulesError(f"a resumed game has 0-{journal_length} events in force, not {in_force}")
        game = cls()
        game._states = [state]
        game._earlier = _Earlier(journal_length, in_force, earlier)
        return game

    @property
    def state(self) -> State:
        return self._states[-1]

    def apply(self, event: Event) -> tuple[Effect, ...]:
        """Apply one event (an Undo included). Raises RulesError and changes nothing if refused."""
        if isinstance(event, Undo):
            return self._undo(event)
        state, effects = apply(self.state, event)
        self._journal.append(event)
        self._events.append(event)
        self._states.append(state)
        self._last = ([], [])
        return effects

    def rollback(self) -> None:
        """Take back the last ``apply`` as if it never happened, journal included (unlike an
        Undo): for an event its store could not keep. Only the latest apply can be rolled back."""
        if self._last is None:
            raise RulesError("nothing to roll back: no event applied since the game was made or rolled back")
        undone_events, undone_states = self._last
        self._last = None
        self._journal.pop()
        if undone_events:  # an Undo: its events and states come back
            self._events.extend(undone_events)
            self._states.extend(undone_states)
        else:
            self._events.pop()
            self._states.pop()

    def _undo(self, event: Undo) -> tuple[Effect, ...]:
        if not isinstance(event.steps, int) or event.steps < 1:
            raise RulesError(f"undo takes 1 or more steps, not {event.steps!r}")
        if event.steps > len(self.events):
            raise RulesError(f"only {len(self.events)} event(s) can be undone, not {event.steps}")
        while event.steps >= len(self._states) and self._earlier is not None:
            self._reveal()  # the undo reaches back past a resumed game's start
        self._last = (self._events[-event.steps:], self._states[-event.steps:])
        del self._events[-event.steps:]
        del self._states[-event.steps:]
        self._journal.append(event)
        return ()

    def _reveal(self) -> None:
        """Read back the game before a resumed game's start (one snapshot further back)."""
        hidden = self._earlier
        if hidden is None:
            return
        below = hidden.load()
        if len(below.journal) != hidden.journal_length:
            raise RulesError(f"the game before the resumed state has {len(below.journal)} journal "
                             f"event(s), not {hidden.journal_length}")
        if len(below.events) == hidden.in_force and below.state == self._states[0]:
            self._journal[:0] = below._journal
            self._events[:0] = below._events
            self._states[:1] = below._states
        else:  # the state resumed from disagrees with the journal: the journal wins
            for event in self._journal:
                below.apply(event)
            self._journal, self._events, self._states = below._journal, below._events, below._states
            self._last = None
        self._earlier = below._earlier

    def _reveal_all(self) -> None:
        while self._earlier is not None:
            self._reveal()

    def _hidden(self, everything: bool) -> int:
        """How many events of the journal (or in force) a resumed game has not read yet."""
        if self._earlier is None:
            return 0
        return self._earlier.journal_length if everything else self._earlier.in_force

    def _known(self, everything: bool) -> list[Event]:
        return self._journal if everything else self._events

    def expected(self) -> Expected:
        return expected(self.state)


class _Earlier:
    """The start of a resumed game's journal: how long it is, and how to read it."""

    __slots__ = ("journal_length", "in_force", "load")

    def __init__(self, journal_length: int, in_force: int, load: Callable[[], Game]) -> None:
        self.journal_length = journal_length
        self.in_force = in_force
        self.load = load


class EventLog(Sequence[Event]):
    """A read-only view of a game's journal or of its events in force.

    Its length and its latest events never read back the start of a resumed game; earlier
    items read back as far as they reach, slices and iteration all of it (once).
    """

    __slots__ = ("_game", "_everything")

    def __init__(self, game: Game, *, everything: bool) -> None:
        self._game = game
        self._everything = everything

    def __len__(self) -> int:
        return self._game._hidden(self._everything) + len(self._game._known(self._everything))

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return self._all()[index]
        hidden, known = self._game._hidden(self._everything), self._game._known(self._everything)
        position = index + hidden + len(known) if index < 0 else index
        while position < hidden and self._game._earlier is not None:
            self._game._reveal()  # only as far back as the index reaches
            hidden, known = self._game._hidden(self._everything), self._game._known(self._everything)
        if hidden <= position < hidden + len(known):
            return known[position - hidden]
        return self._all()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._all())

    def _all(self) -> list[Event]:
        self._game._reveal_all()
        return list(self._game._known(self._everything))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EventLog, list, tuple)):
            return len(self) == len(other) and self._all() == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"EventLog({self._all()!r})"


def replay(events: Iterable[Event]) -> State:
    """The state a journal (undos included) leads to."""
    return Game(events).state
