"""One game at the table, journalled event by event (the app never imports the store)."""

from __future__ import annotations

from typing import Protocol

from cribpi.game import Effect, Event, Game, NewGame, State

__all__ = ["Journal", "Session"]


class Journal(Protocol):
    """What the app needs of :class:`cribpi.store.Store` (so the app never imports it)."""

    def new_game(self, first_event: NewGame, *, table: str | None = ..., event_name: str | None = ...) -> int: ...

    def append(self, game_id: int, event: Event) -> tuple[Effect, ...]: ...


class Session:
    """One game, journalled event by event when a store is given."""

    def __init__(self, first: NewGame, store: Journal | None = None, table: str | None = None,
                 game: Game | None = None, game_id: int | None = None) -> None:
        self.store = store
        if game is not None:
            self.game, self.game_id = game, game_id
            return
        self.game = Game()
        self.game_id = store.new_game(first, table=table) if store else None
        self.game.apply(first)

    @property
    def state(self) -> State:
        return self.game.state

    def apply(self, event: Event) -> tuple[Effect, ...]:
        """Check, journal (committed before anything is shown), then apply."""
        if self.store is None or self.game_id is None:
            return self.game.apply(event)
        effects = self.store.append(self.game_id, event)
        self.game.apply(event)  # the store's own copy accepted it, so this one does too
        return effects


