"""One game at the table, journalled event by event (the app never imports the store)."""

from __future__ import annotations

from typing import Protocol

from cribpi.game import Effect, Event, Game, NewGame, State

__all__ = ["Journal", "OpenGame", "Session"]


class OpenGame(Protocol):
    """A game left open in a journal (:class:`cribpi.store.Restored`)."""

    @property
    def game_id(self) -> int: ...

    @property
    def game(self) -> Game: ...


class Journal(Protocol):
    """What the app needs of :class:`cribpi.store.Store` (so the app never imports it)."""

    def new_game(self, first_event: NewGame, *, table: str | None = ..., event_name: str | None = ...) -> int: ...

    def append(self, game_id: int, event: Event, game: Game) -> None: ...

    def current(self, table: str | None = ...) -> OpenGame | None: ...


class Session:
    """One game, journalled event by event when a store is given.

    ``Session(first, store, table)`` starts a game; :meth:`resume` picks up the one a table
    left open. (``game`` and ``game_id`` are the older way to adopt a journalled game: use
    :meth:`resume`.)
    """

    def __init__(self, first: NewGame, store: Journal | None = None, table: str | None = None,
                 game: Game | None = None, game_id: int | None = None) -> None:
        if game is None:
            game = Game([first])  # refuses a bad NewGame before anything is journalled
            game_id = store.new_game(first, table=table) if store else None
        self._adopt(store, game, game_id)

    @classmethod
    def resume(cls, store: Journal, table: str | None = None) -> Session | None:
        """The game left open in ``store`` (at ``table``, if given) as it stood; None if none."""
        restored = store.current(table)
        if restored is None:
            return None
        session = cls.__new__(cls)
        session._adopt(store, restored.game, restored.game_id)
        return session

    def _adopt(self, store: Journal | None, game: Game, game_id: int | None) -> None:
        self.store = store
        self.game = game
        self.game_id = game_id

    @property
    def state(self) -> State:
        return self.game.state

    def apply(self, event: Event) -> tuple[Effect, ...]:
        """Check (the game applies it, or raises and changes nothing), then journal it: the
        effects are returned only once the journal has committed the event. If the journal
        fails, the game is rolled back, so the table never shows an event that was not kept;
        on a full disk the error is a JournalFull whose text ("disk full: this score is not
        saved ...") is what the table shows, and the same event is taken once there is room."""
        effects = self.game.apply(event)
        if self.store is not None and self.game_id is not None:
            try:
                self.store.append(self.game_id, event, self.game)
            except BaseException:
                self.game.rollback()
                raise
        return effects
