"""Rule options as data, the named presets, and game-result classification.

>>> get_rules("hoyle").overclaim_penalty
2
>>> classify_result(121, 85, ACC).kind
<ResultKind.SKUNK: 'skunk'>
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Final

from cribpi.exc import RulesError

__all__ = [
    "Rules", "ResultScheme", "ResultKind", "GameResult", "MugginsScope",
    "ACC", "ACC_TOURNAMENT", "HOYLE", "LEAFLET", "FIVE_CARD", "PRESETS",
    "get_rules", "classify_result",
]


class ResultScheme(str, enum.Enum):
    """How a won game is graded."""

    ACC = "acc"  # skunk below 91, double skunk below 61; game points 2 / 3 / 3
    HOYLE = "hoyle"  # lurch below 61 = double game
    LEAFLET = "leaflet"  # skunk doubles the game, double skunk quadruples it


class ResultKind(str, enum.Enum):
    WIN = "win"
    SKUNK = "skunk"
    DOUBLE_SKUNK = "double skunk"
    LURCH = "lurch"


class MugginsScope(str, enum.Enum):
    """Which under-claims an opponent may take (``OFF`` disables muggins)."""

    OFF = "off"
    ACC = "acc"  # ACC Rule 10: play, hand and crib; never heels
    HOYLE = "hoyle"  # "in some localities": the show only
    LEAFLET = "leaflet"  # hands, the play and his heels

    @property
    def moments(self) -> frozenset[str]:
        """The scoring moments (``play``, ``hand``, ``crib``, ``heels``) it covers."""
        return _MUGGINS_MOMENTS[self]


_MUGGINS_MOMENTS: Final = {
    MugginsScope.OFF: frozenset[str](),
    MugginsScope.ACC: frozenset({"play", "hand", "crib"}),
    MugginsScope.HOYLE: frozenset({"hand", "crib"}),
    MugginsScope.LEAFLET: frozenset({"play", "hand", "crib", "heels"}),
}


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """Every option in which the sources disagree. Instances are frozen; use :meth:`replace`."""

    name: str = "acc"
    game_length: int = 121
    players: int = 2
    partnerships: bool = False
    crib_four_flush: bool = False
    result_scheme: ResultScheme = ResultScheme.ACC
    muggins: MugginsScope = MugginsScope.OFF
    overclaim_penalty: int = 0  # extra points the opponent pegs after a corrected overclaim
    heels_peg_out: bool = True
    five_card: bool = False
    tournament: bool = False  # tournament presets disable coaching aids such as the discard review

    def __post_init__(self) -> None:
        object.__setattr__(self, "result_scheme", _coerce(ResultScheme, self.result_scheme, "result_scheme"))
        object.__setattr__(self, "muggins", _coerce(MugginsScope, self.muggins, "muggins"))
        if self.game_length not in (61, 121):
            raise RulesError(f"game_length {self.game_length!r} is not allowed: use 121 or 61")
        if self.players not in (2, 3, 4):
            raise RulesError(f"players {self.players!r} is not allowed: use 2, 3 or 4")
        if self.partnerships and self.players != 4:
            raise RulesError(f"partnerships need 4 players, not {self.players}")
        if self.five_card and self.players != 2:
            raise RulesError(f"five-card cribbage is for 2 players, not {self.players}")
        if self.overclaim_penalty < 0:
            raise RulesError(f"overclaim_penalty {self.overclaim_penalty!r} must be 0 or more")

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like the original)."""
        return dataclasses.replace(self, **changes)

    @property
    def cards_dealt(self) -> int:
        return 6 if self.players == 2 and not self.five_card else 5

    @property
    def cards_held(self) -> int:
        """Cards kept in hand for the play and the show."""
        return 3 if self.five_card else 4

    @property
    def discards_each(self) -> int:
        return self.cards_dealt - self.cards_held

    @property
    def crib_from_pack(self) -> int:
        """Cards the dealer adds to the crib from the pack (one with three players)."""
        return 1 if self.players == 3 else 0

    @property
    def teams(self) -> int:
        """Number of scoring sides (tracks on the board)."""
        return 2 if self.partnerships else self.players

    @property
    def skunk_line(self) -> int:
        """A loser below this is skunked (ACC and leaflet)."""
        return 91 if self.game_length == 121 else 31

    @property
    def double_skunk_line(self) -> int | None:
        """A loser below this is double skunked (None: no double skunk in a 61-point game)."""
        return 61 if self.game_length == 121 else None

    @property
    def lurch_line(self) -> int:
        """Hoyle: a loser who has not reached half way is lurched."""
        return (self.game_length + 1) // 2

    def as_dict(self) -> dict[str, object]:
        out = dataclasses.asdict(self)
        out["result_scheme"] = self.result_scheme.value
        out["muggins"] = self.muggins.value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rule option(s) {', '.join(unknown)}: known are {', '.join(sorted(known))}")
        return cls(**data)


def _coerce(enum_type: type[enum.Enum], value: object, field: str) -> Any:
    try:
        return enum_type(value)
    except ValueError:
        accepted = ", ".join(str(m.value) for m in enum_type)
        raise RulesError(f"{field} {value!r} is not allowed: use {accepted}") from None


ACC: Final = Rules()
ACC_TOURNAMENT: Final = Rules(name="acc-tournament", muggins=MugginsScope.ACC, tournament=True)
HOYLE: Final = Rules(name="hoyle", result_scheme=ResultScheme.HOYLE, overclaim_penalty=2)
LEAFLET: Final = Rules(name="leaflet", result_scheme=ResultScheme.LEAFLET)
FIVE_CARD: Final = Rules(name="five-card", game_length=61, five_card=True, result_scheme=ResultScheme.HOYLE)

PRESETS: Final[dict[str, Rules]] = {r.name: r for r in (ACC, ACC_TOURNAMENT, HOYLE, LEAFLET, FIVE_CARD)}


def get_rules(name: str) -> Rules:
    """The preset called ``name`` (case-insensitive)."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise RulesError(f"no rule preset called {name!r}: use {', '.join(PRESETS)}") from None


@dataclasses.dataclass(frozen=True, slots=True)
class GameResult:
    kind: ResultKind
    game_points: int
    margin: int  # the winner's point spread


_GAME_POINTS: Final = {
    ResultScheme.ACC: {ResultKind.WIN: 2, ResultKind.SKUNK: 3, ResultKind.DOUBLE_SKUNK: 3},
    ResultScheme.HOYLE: {ResultKind.WIN: 1, ResultKind.LURCH: 2},
    ResultScheme.LEAFLET: {ResultKind.WIN: 1, ResultKind.SKUNK: 2, ResultKind.DOUBLE_SKUNK: 4},
}


def classify_result(winner_score: int, loser_score: int, rules: Rules = ACC) -> GameResult:
    """Grade a finished game: win, skunk, double skunk or lurch, with its game points.

    ``loser_score`` is the best losing score (with three or more sides, the runner-up's
    score decides, as boards are marked for the whole table).
    """
    if winner_score < rules.game_length:
        raise RulesError(f"winner_score {winner_score} has not reached the game ({rules.game_length})")
    if not 0 <= loser_score < rules.game_length:
        raise RulesError(f"loser_score {loser_score} must be 0-{rules.game_length - 1}")
    kind = _result_kind(loser_score, rules)
    # The game ends in the game hole: points pegged past it do not widen the spread.
    return GameResult(kind, _GAME_POINTS[rules.result_scheme][kind], rules.game_length - loser_score)


def _result_kind(loser_score: int, rules: Rules) -> ResultKind:
    if rules.result_scheme is ResultScheme.HOYLE:
        return ResultKind.LURCH if loser_score < rules.lurch_line else ResultKind.WIN
    double = rules.double_skunk_line
    if double is not None and loser_score < double:
        return ResultKind.DOUBLE_SKUNK
    if loser_score < rules.skunk_line:
        return ResultKind.SKUNK
    return ResultKind.WIN
