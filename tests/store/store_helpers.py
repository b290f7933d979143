"""Helpers shared by the store tests (imported by name: pytest puts this folder on sys.path)."""

from __future__ import annotations

import random

from cribpi.game import Event, Mode, State
from cribpi.game.simulate import random_game_events
from cribpi.rules import Rules, get_rules


def random_match(seed: int, rules: Rules | str = "acc", mode: Mode = Mode.COUNT,
                 games: int = 1) -> list[tuple[Event, State]]:
    """(event, state after it) for one seeded random match, start to finish."""
    rules = get_rules(rules) if isinstance(rules, str) else rules
    return list(random_game_events(random.Random(seed), rules, mode, games))
