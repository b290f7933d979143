"""A side's confirmation (or dispute) of a finished game's result.

The engine only checks that the answer is possible: a game has just ended and the side exists.
It changes nothing in the state; who has answered is read from the game's events in force
since the end (:func:`answers`), so an undo takes an answer back like any other event.
"""

from __future__ import annotations

from collections.abc import Sequence

from cribpi.exc import RulesError
from cribpi.game import events as ev
from cribpi.game.state import Phase
from cribpi.game.transaction import Tx, need_phase

__all__ = ["confirm", "answers"]


def confirm(tx: Tx, event: ev.Confirm) -> None:
    state = tx.state
    need_phase(state, event, Phase.GAME_OVER, Phase.MATCH_OVER)
    sides = len(state.scores)
    if not isinstance(event.side, int) or isinstance(event.side, bool) or not 0 <= event.side < sides:
        raise RulesError(f"side {event.side!r} does not exist: sides are 0-{sides - 1}")
    if not isinstance(event.agree, bool):
        raise RulesError(f"a confirmation's agree is true or false, not {event.agree!r}")


def answers(events: Sequence[ev.Event]) -> dict[int, bool]:
    """Each side's answer (True: confirmed) among the Confirm events that end ``events`` (the
    game's events in force); a side that answered twice counts by its first answer."""
    trailing: list[ev.Confirm] = []
    for event in reversed(events):
        if not isinstance(event, ev.Confirm):
            break
        trailing.append(event)
    out: dict[int, bool] = {}
    for answer in reversed(trailing):
        out.setdefault(answer.side, answer.agree)
    return out
