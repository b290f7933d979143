"""Rule options as data, the named presets, their one codec, and game-result classification.

>>> get_rules("hoyle").overclaim_penalty
2
>>> classify_result(121, 85, ACC).kind
<ResultKind.SKUNK: 'skunk'>
>>> rules_from_dict(rules_to_dict(HOYLE.replace(game_length=61))) == HOYLE.replace(game_length=61)
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

from cribpi.exc import RulesError
from cribpi.rules.values import frozen, replace

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing (3 ms) just to be False
if TYPE_CHECKING:
    from typing import Any, Final

__all__ = [
    "Rules", "ResultScheme", "ResultKind", "GameResult", "MugginsScope",
    "ACC", "ACC_TOURNAMENT", "HOYLE", "LEAFLET", "FIVE_CARD", "PRESETS", "OPTION_TYPES",
    "RuleOptionError", "RuleConflictError",
    "get_rules", "classify_result", "rules_to_dict", "rules_from_dict",
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
#: What the numeric options accept (checked in Rules, named in its errors).
_ACCEPTED: Final = {"game_length": "121 or 61", "players": "2, 3 or 4", "overclaim_penalty": "0 or more"}


class RuleOptionError(RulesError):
    """A rule option that is unknown, of the wrong type or out of range.

    ``key`` names the option, ``value`` is what was given and ``accepted`` says what would
    be; ``reason`` is the sentence without ``source``, which names where the options came
    from (a file, a record's tags) when they were read from one.
    """

    def __init__(self, key: str, value: object, accepted: str, *, reason: str | None = None,
                 source: str | None = None) -> None:
        self.key = key
        self.value = value
        self.accepted = accepted
        self.reason = reason or f"{key} {value!r} is not allowed: use {accepted}"
        self.source = source
        super().__init__(f"{source}: {self.reason}" if source else self.reason)

    def at(self, source: str) -> RuleOptionError:
        """The same error, its message naming where the options came from."""
        return type(self)(self.key, self.value, self.accepted, reason=self.reason, source=source)


class RuleConflictError(RuleOptionError):
    """An option allowed on its own but not with the others (partnerships with 3 players)."""


@frozen
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
            raise RuleOptionError("game_length", self.game_length, _ACCEPTED["game_length"])
        if self.players not in (2, 3, 4):
            raise RuleOptionError("players", self.players, _ACCEPTED["players"])
        if self.partnerships and self.players != 4:
            raise RuleConflictError("partnerships", True, "4 players",
                                    reason=f"partnerships need 4 players, not {self.players}")
        if self.five_card and self.players != 2:
            raise RuleConflictError("five_card", True, "2 players",
                                    reason=f"five-card cribbage is for 2 players, not {self.players}")
        if self.overclaim_penalty < 0:
            raise RuleOptionError("overclaim_penalty", self.overclaim_penalty, _ACCEPTED["overclaim_penalty"],
                                  reason=f"overclaim_penalty {self.overclaim_penalty!r} must be 0 or more")

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like the original)."""
        return replace(self, **changes)

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


def _coerce(enum_type: type[enum.Enum], value: object, field: str) -> Any:
    try:
        return enum_type(value)
    except ValueError:
        raise RuleOptionError(field, value, _choices(enum_type)) from None


def _choices(enum_type: type[enum.Enum]) -> str:
    return ", ".join(str(m.value) for m in enum_type)


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


# -- the codec: rules as a mapping (the journal's JSON, a record's tags, the config file) -----

#: The type of each rule option's value in a mapping, in field order (a bool is not an int).
OPTION_TYPES: Final[Mapping[str, type]] = MappingProxyType({
    "game_length": int, "players": int, "partnerships": bool, "crib_four_flush": bool,
    "result_scheme": ResultScheme, "muggins": MugginsScope, "overclaim_penalty": int,
    "heels_peg_out": bool, "five_card": bool, "tournament": bool,
})


def rules_to_dict(rules: Rules, base: Rules | None = None) -> dict[str, object]:
    """``name`` and the options that differ from ``base``, as JSON values.

    ``base`` is by default the preset ``rules`` is named after, or ACC for a name of one's own;
    :func:`rules_from_dict` reads the mapping back.

    >>> rules_to_dict(HOYLE.replace(muggins=MugginsScope.HOYLE))
    {'name': 'hoyle', 'muggins': 'hoyle'}
    """
    if base is None:
        base = _preset_or_acc(rules.name)
    out: dict[str, object] = {"name": rules.name}
    for key in OPTION_TYPES:
        value = getattr(rules, key)
        if value != getattr(base, key):
            out[key] = value.value if isinstance(value, enum.Enum) else value
    return out


def rules_from_dict(data: Mapping[str, object], *, source: str = "rules") -> Rules:
    """Rules from a mapping of ``name``, ``base`` and options (:data:`OPTION_TYPES`), strictly.

    ``base`` is the preset the options change: by default the preset called ``name``, or ACC
    for a name of one's own. ``name`` defaults to the base's name (``acc`` without a base).
    An unknown key, a value of the wrong type (``1`` for a yes/no option, ``"121"`` or
    ``121.0`` for a number) or out of range raises RuleOptionError naming ``source``, the
    key, the value and what is accepted; choices may be given in any case.

    >>> rules_from_dict({"base": "hoyle", "game_length": 61}, source="cribpi.toml [game]").name
    'hoyle'
    >>> rules_from_dict({"players": True}, source="cribpi.toml [game]")
    Traceback (most recent call last):
    ...
    cribpi.rules.presets.RuleOptionError: cribpi.toml [game]: players True is not allowed: use 2, 3 or 4
    """
    _check_keys(data, source)
    base = _base(data, source)
    name = _text(data, "name", base.name if "base" in data else "acc", source)
    options = {key: _option(key, value, source) for key, value in data.items() if key in OPTION_TYPES}
    try:
        rules = base.replace(name=name, **options)
    except RuleOptionError as exc:
        raise exc.at(source) from None
    return base if rules == base else rules


def _check_keys(data: Mapping[str, object], source: str) -> None:
    known = ("name", "base", *OPTION_TYPES)
    for key in data:
        if key not in known:
            raise RuleOptionError(key, data[key], ", ".join(known), source=source,
                                  reason=f"unknown rule option {key!r}: known are {', '.join(known)}")


def _preset_or_acc(name: str) -> Rules:
    return PRESETS.get(name.strip().lower(), ACC)


def _base(data: Mapping[str, object], source: str) -> Rules:
    if "base" not in data:
        return _preset_or_acc(_text(data, "name", "acc", source))
    name = _text(data, "base", "", source)
    preset = PRESETS.get(name.strip().lower())
    if preset is None:
        raise RuleOptionError("base", name, "a rule preset: " + ", ".join(PRESETS), source=source)
    return preset


def _text(data: Mapping[str, object], key: str, default: str, source: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise RuleOptionError(key, value, "a name (text)", source=source)
    return value


def _option(key: str, value: object, source: str) -> object:
    kind = OPTION_TYPES[key]
    if issubclass(kind, enum.Enum):
        return _choice(kind, key, value, source)
    if type(value) is not kind:  # so True is not taken for 1, nor 1 for True
        raise RuleOptionError(key, value, _accepted(key), source=source)
    return value


def _choice(kind: type[enum.Enum], key: str, value: object, source: str) -> enum.Enum:
    if isinstance(value, kind):
        return value
    try:
        return kind(value.lower() if isinstance(value, str) else value)
    except ValueError:
        raise RuleOptionError(key, value, _accepted(key), source=source) from None


def _accepted(key: str) -> str:
    kind = OPTION_TYPES[key]
    if kind is bool:
        return "true or false"
    if issubclass(kind, enum.Enum):
        return _choices(kind)
    return _ACCEPTED[key]


@frozen
class GameResult:
    """How a game was won, what it is worth in game points, and the spread."""

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
