"""Helpers shared by the store tests (imported by name: pytest puts this folder on sys.path)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path

from cribpi.game import Event, Game, Mode, NewGame, State
from cribpi.game.simulate import random_game_events
from cribpi.rules import Rules, get_rules
from cribpi.store import Store


def random_match(seed: int, rules: Rules | str = "acc", mode: Mode = Mode.COUNT,
                 games: int = 1) -> list[tuple[Event, State]]:
    """(event, state after it) for one seeded random match, start to finish."""
    rules = get_rules(rules) if isinstance(rules, str) else rules
    return list(random_game_events(random.Random(seed), rules, mode, games))


def journal(store: Store, events: Iterable[Event], table: str | None = None) -> tuple[int, Game]:
    """Journal a game as the app does (each event applied to the game, then appended)."""
    events = list(events)
    assert isinstance(events[0], NewGame)
    game = Game(events[:1])
    game_id = store.new_game(events[0], table=table)
    extend(store, game_id, game, events[1:])
    return game_id, game


def extend(store: Store, game_id: int, game: Game, events: Iterable[Event]) -> None:
    """Apply and journal more events of a game already in the store."""
    for event in events:
        game.apply(event)
        store.append(game_id, event, game)


def fill(folder: Path) -> Path:
    """Write a file in ``folder`` until its disk is full; delete the file to make room again."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as out:
        for chunk in (65536, 4096, 1):
            try:
                while True:
                    out.write(b"x" * chunk)
            except OSError:
                pass
    return filler
