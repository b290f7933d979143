"""A game started from a position, as a chess FEN starts one: the scores, who deals, and the
games each side has already won in the match.

It covers a handicap start, a game taken over from a paper board part-way, and a scenario set
for teaching. The :class:`~cribpi.game.events.Setup` event comes straight after a NewGame that names no first
dealer (the setup names it); the deal it starts is the record's deal 1. Games won before the
setup are known only by their winner (no scores, no game points), so the match standing
counts them as games and nothing more.

>>> from cribpi.game.engine import INITIAL, apply
>>> from cribpi.game.events import NewGame, Setup
>>> state, _ = apply(INITIAL, NewGame(("Ann", "Ben"), match_games=3))
>>> state, _ = apply(state, Setup((85, 102), dealer=1, won=(1, 0)))
>>> state.scores, state.deal.dealer, state.game_number, state.games_won()
((85, 102), 1, 2, (1, 0))
"""

from __future__ import annotations

from cribpi.exc import RulesError
from cribpi.game.dealing import _start_game
from cribpi.game.events import Setup
from cribpi.game.state import GameRecordResult, Phase, State
from cribpi.game.transaction import Tx, check_seat, need_phase
from cribpi.rules import GameResult, ResultKind

__all__ = ["setup"]


#: An earlier game known only by its winner: no scores, no game points, no spread.
_UNKNOWN_RESULT = GameResult(ResultKind.WIN, 0, 0)


def setup(tx: Tx, event: Setup) -> None:
    state = tx.state
    need_phase(state, event, Phase.CUT)
    if state.game_number != 1 or state.games:
        raise RulesError("a setup starts the first game of a record, straight after the new game")
    scores = _checked(state, "scores", event.scores, state.rules.game_length - 1)
    won = _checked(state, "won", event.won or (0,) * len(state.scores), state.match_games // 2)
    if sum(won) >= state.match_games:
        raise RulesError(f"games won {list(won)} leave no game to play in a best of {state.match_games}")
    dealer = check_seat(state, event.dealer)
    earlier = tuple(GameRecordResult(team, (), _UNKNOWN_RESULT, dealer)
                    for team, games in enumerate(won) for _ in range(games))
    tx.set(scores=scores, rear=scores, games=earlier, game_number=1 + len(earlier))
    _start_game(tx, dealer)


def _checked(state: State, name: str, values: tuple[int, ...], top: int) -> tuple[int, ...]:
    """One whole number 0-``top`` per side."""
    sides = len(state.scores)
    if len(values) != sides or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= top
                                   for v in values):
        raise RulesError(f"setup {name} {list(values)!r}: give {sides} whole numbers 0-{top}, one per "
                         f"{'team' if state.rules.partnerships else 'player'} in seat order")
    return values
