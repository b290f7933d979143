"""What a new game at the table is started with, and the menu's steps through each choice.

Each step is a function from settings to settings, so the menu can offer it as it is:

>>> next_mode(TableSettings()).mode.value
'claim'
>>> next_players(TableSettings(players=4, partnerships=True)).players
2
>>> toggle_muggins(TableSettings()).new_game().rules.muggins.value
'acc'
>>> next_game_length(TableSettings()).new_game().rules.game_length
61
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from cribpi.exc import CribpiError
from cribpi.game import Game, Mode, NewGame, State
from cribpi.rules import PRESETS, MugginsScope, Rules, get_rules

__all__ = [
    "TableSettings", "settings_of", "MAIN_TABLE", "MODES_CYCLE", "PLAYER_SETUPS", "BRIGHTNESS_STEPS", "MATCH_LENGTHS",
    "DEFAULT_NAMES", "next_mode", "next_players", "next_rules", "next_brightness", "next_match",
    "toggle_review", "toggle_muggins", "muggins_on", "kept_data", "with_kept", "GAME_LENGTHS", "game_length_of",
    "seated", "Seating", "seating_data", "seating_from",
    "fixed_game_length", "next_game_length", "review_allowed",
    "SPEECH_VOICES", "SPEECH_VOLUMES", "SPEECH_SPEEDS", "next_speech", "next_speech_say", "next_speech_volume",
    "next_speech_voice", "next_speech_speed", "speech_words",
]

MODES_CYCLE = (Mode.COUNT, Mode.CLAIM, Mode.BOARD)
PLAYER_SETUPS = ((2, False), (3, False), (4, False), (4, True))  # players, partnerships
BRIGHTNESS_STEPS = (0.1, 0.25, 0.5, 0.75, 1.0)
MATCH_LENGTHS = (1, 3, 5, 7)
GAME_LENGTHS = (121, 61)
DEFAULT_NAMES = ("Red", "Blue", "Green", "Yellow")
MAIN_TABLE = "main"  # the table `cribpi run` and `cribpi sim` both play at: one open game per journal
TWO_HANDED_ONLY = "five-card"
FALLBACK_RULES = "acc"
#: The speaker's choices the menu steps through (the configuration may set any other).
SPEECH_CYCLE = (None, True, False)  # as configured (off under a tournament preset), on, off
SPEECH_VOICES = ("en", "en-us", "en-gb-scotland", "en-gb-x-rp", "en-029")
SPEECH_VOLUMES = (25, 50, 75, 100)
SPEECH_SPEEDS = (120, 140, 160, 180, 220)
SPEECH_SAY = ("scores", "everything")  # as cribpi.config has them (not imported: the commands start faster)


@dataclasses.dataclass(frozen=True)
class Seating:
    """The tournament seating the table plays (:mod:`cribpi.tournament.table.seatcast`): the round,
    its kind and the games the director seated, the table's names for the seated players, the
    length of each match the table plays for it, and the journal's first game that may be one
    of them (None: the table keeps no journal), and the event that seated them (the table's
    tournament as its publisher names it; None: kept before the event was, which no event's
    seating is). Kept with the set-up, so that after a restart the table still knows which of
    its journalled games were played under this seating, in this event."""

    round: int
    kind: str
    games: int
    players: tuple[str, ...]
    match_games: int = 1
    since: int | None = None
    event: str | None = None

    @property
    def matches(self) -> int:
        """The matches the seating has: a qualifying round's games, each one game; one
        playoff match."""
        return 1 if self.kind == "playoff" else self.games


@dataclasses.dataclass(frozen=True)
class TableSettings:
    """What a new game is started with (the MENU changes these)."""

    names: tuple[str, ...] = DEFAULT_NAMES
    players: int = 2
    partnerships: bool = False
    rules: str = "acc"
    mode: Mode = Mode.COUNT
    review: bool = False
    match_games: int = 1
    brightness: float = 0.5
    table: str | None = None
    muggins: bool | None = None  # None: as the preset says; True/False: switched on or off in the menu
    game_length: int | None = None  # None: as the preset says (121; five-card's 61, which is fixed)
    confirm_results: bool = False  # each side confirms a finished game (a table publishing to a tournament)
    # The speaker (a table with one): None is as configured. Not a rule of the game: a change
    # is heard at once. ``speaker`` says the table has one (the menu offers these only then).
    speaker: bool = False
    speech: bool | None = None
    speech_say: str | None = None
    speech_volume: int | None = None
    speech_voice: str | None = None
    speech_speed: int | None = None
    seating: Seating | None = None  # a tournament's seating being played (not a rule of the game)

    def new_game(self) -> NewGame:
        rules = _with_muggins(get_rules(self.rules), self.muggins).replace(
            players=self.players, partnerships=self.partnerships, game_length=game_length_of(self))
        names = tuple(self.names[:self.players])
        review = self.review and not rules.tournament
        return NewGame(names, rules, self.mode, self.match_games, review=review)


def settings_of(state: State, base: TableSettings) -> TableSettings:
    """The settings a resumed game was started with, so "New game" keeps the table's set-up.
    A seat the game did not have keeps ``base``'s name for it, or its colour's default name
    (never a name another seat has: seat 3 pegs green, so it is never called "Red")."""
    if not state.names:
        return base
    rules = state.rules.name if state.rules.name in PRESETS else base.rules
    length = state.rules.game_length
    game_length = base.game_length if game_length_of(dataclasses.replace(base, rules=rules)) == length else length
    return dataclasses.replace(
        base, names=_seat_names(state.names, base.names), players=state.seats, partnerships=state.rules.partnerships,
        rules=rules, mode=state.mode, review=state.review, match_games=state.match_games,
        muggins=state.rules.muggins is not MugginsScope.OFF, game_length=game_length)


def _seat_names(names: tuple[str, ...], base: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` for their seats, then a name for each further seat that no other seat has."""
    out = list(names)
    for seat in range(len(names), len(DEFAULT_NAMES)):
        candidates = [*base[seat:seat + 1], DEFAULT_NAMES[seat], *DEFAULT_NAMES, f"Seat {seat + 1}"]
        out.append(next(name for name in candidates if name not in out))
    return tuple(out)


def seated(settings: TableSettings, names: tuple[str, ...], *, partnerships: bool = False,
           match_games: int = 1) -> TableSettings:
    """``settings`` for the players a tournament's director seated at the table: ``names`` in
    seat order (seat 1 pegs the first track), as many players, in partnerships or not, playing
    matches of ``match_games``; a two-handed-only rule set falls back as the menu's does.

    >>> s = seated(TableSettings(), ("Ann", "Bob", "Cy", "Di"), partnerships=True, match_games=3)
    >>> s.new_game().names, s.new_game().rules.partnerships, s.match_games
    (('Ann', 'Bob', 'Cy', 'Di'), True, 3)
    >>> seated(TableSettings(), ("Ann", "Bob")).names
    ('Ann', 'Bob', 'Green', 'Yellow')
    """
    players = len(names)
    rules = settings.rules if players == 2 or settings.rules != TWO_HANDED_ONLY else FALLBACK_RULES
    return dataclasses.replace(settings, names=_seat_names(tuple(names), settings.names), players=players,
                               partnerships=partnerships, rules=rules, match_games=match_games)


def next_mode(settings: TableSettings) -> TableSettings:
    i = MODES_CYCLE.index(settings.mode)
    return dataclasses.replace(settings, mode=MODES_CYCLE[(i + 1) % len(MODES_CYCLE)])


def next_players(settings: TableSettings) -> TableSettings:
    """2, 3, 4, then 4 in pairs; a two-handed-only rule set falls back when seats are added."""
    i = PLAYER_SETUPS.index((settings.players, settings.partnerships))
    players, pairs = PLAYER_SETUPS[(i + 1) % len(PLAYER_SETUPS)]
    rules = settings.rules if players == 2 or settings.rules != TWO_HANDED_ONLY else FALLBACK_RULES
    return dataclasses.replace(settings, players=players, partnerships=pairs, rules=rules)


def next_rules(settings: TableSettings) -> TableSettings:
    """The next preset, with its own muggins (the Muggins item switches it after)."""
    names = [n for n in PRESETS if n != TWO_HANDED_ONLY or settings.players == 2]
    i = names.index(settings.rules) if settings.rules in names else -1
    return dataclasses.replace(settings, rules=names[(i + 1) % len(names)], muggins=None)


def next_brightness(settings: TableSettings) -> TableSettings:
    """The first step above the brightness now (a configured 0.4 goes to 0.5, not 0.75), and
    from the top step (or above it) round to the lowest."""
    above = [step for step in BRIGHTNESS_STEPS if step > settings.brightness + 1e-9]
    return dataclasses.replace(settings, brightness=above[0] if above else BRIGHTNESS_STEPS[0])


def next_match(settings: TableSettings) -> TableSettings:
    """Best of 1, 3, 5, 7 and round again; a length the menu does not offer goes back to 1."""
    if settings.match_games not in MATCH_LENGTHS:
        return dataclasses.replace(settings, match_games=1)
    i = MATCH_LENGTHS.index(settings.match_games)
    return dataclasses.replace(settings, match_games=MATCH_LENGTHS[(i + 1) % len(MATCH_LENGTHS)])


def review_allowed(settings: TableSettings) -> bool:
    """The discard review is a coaching aid: a tournament preset does not allow it."""
    return not get_rules(settings.rules).tournament


def toggle_review(settings: TableSettings) -> TableSettings:
    """Review on or off; under a tournament preset it stays as it is (and is not used)."""
    if not review_allowed(settings):
        return settings
    return dataclasses.replace(settings, review=not settings.review)


def fixed_game_length(settings: TableSettings) -> bool:
    """Whether the preset fixes the game's length (five-card cribbage is played to 61)."""
    return get_rules(settings.rules).five_card


def game_length_of(settings: TableSettings) -> int:
    """The points the next game is played to: as chosen, else as the preset says.

    >>> game_length_of(TableSettings()), game_length_of(TableSettings(game_length=61))
    (121, 61)
    >>> game_length_of(TableSettings(rules="five-card", game_length=121))
    61
    """
    preset = get_rules(settings.rules).game_length
    return preset if settings.game_length is None or fixed_game_length(settings) else settings.game_length


def next_game_length(settings: TableSettings) -> TableSettings:
    """121 or 61 points; a preset that fixes the length (five-card's 61) keeps it."""
    if fixed_game_length(settings):
        return settings
    now = game_length_of(settings)
    return dataclasses.replace(settings, game_length=GAME_LENGTHS[(GAME_LENGTHS.index(now) + 1) % len(GAME_LENGTHS)])


def muggins_on(settings: TableSettings) -> bool:
    """Whether the next game plays muggins: as switched in the menu, else as its preset says."""
    if settings.muggins is not None:
        return settings.muggins
    return get_rules(settings.rules).muggins is not MugginsScope.OFF


def toggle_muggins(settings: TableSettings) -> TableSettings:
    return dataclasses.replace(settings, muggins=not muggins_on(settings))


def _with_muggins(rules: Rules, on: bool | None) -> Rules:
    """Muggins switched on keeps a preset's own scope (Hoyle's covers the show only) and
    otherwise takes ACC Rule 10's (the play, hands and crib; never his heels)."""
    if on is None or on == (rules.muggins is not MugginsScope.OFF):
        return rules
    return rules.replace(muggins=MugginsScope.ACC if on else MugginsScope.OFF)


V = TypeVar("V")


def _next(values: tuple[V, ...], now: V) -> V:
    return values[(values.index(now) + 1) % len(values)] if now in values else values[0]


def next_speech(settings: TableSettings) -> TableSettings:
    """As configured, on, off, and round again."""
    return dataclasses.replace(settings, speech=_next(SPEECH_CYCLE, settings.speech))


def speech_words(settings: TableSettings) -> str:
    """``auto`` (as configured), ``on`` or ``off``."""
    return {None: "auto", True: "on", False: "off"}[settings.speech]


def next_speech_say(settings: TableSettings) -> TableSettings:
    return dataclasses.replace(settings, speech_say=_next(SPEECH_SAY, settings.speech_say))


def next_speech_volume(settings: TableSettings) -> TableSettings:
    """The first step above the volume now, from the top round to the lowest."""
    above = [v for v in SPEECH_VOLUMES if v > (settings.speech_volume if settings.speech_volume is not None else -1)]
    return dataclasses.replace(settings, speech_volume=above[0] if above else SPEECH_VOLUMES[0])


def next_speech_voice(settings: TableSettings) -> TableSettings:
    return dataclasses.replace(settings, speech_voice=_next(SPEECH_VOICES, settings.speech_voice))


def next_speech_speed(settings: TableSettings) -> TableSettings:
    """The first step above the speed now, from the top round to the slowest."""
    above = [v for v in SPEECH_SPEEDS if v > (settings.speech_speed if settings.speech_speed is not None else 0)]
    return dataclasses.replace(settings, speech_speed=above[0] if above else SPEECH_SPEEDS[0])


# -- kept across a restart ----------------------------------------------------------------
# What the menu chooses is kept in the journal as it is chosen (and again as a game starts
# with it), so a pulled plug loses no choice; the names and the table come from the machine's
# configuration and the command line, and are not kept.


def kept_data(settings: TableSettings) -> dict[str, Any]:
    """The choices a table keeps, as plain JSON values (:func:`with_kept` reads them back).

    >>> kept_data(TableSettings())["rules"], kept_data(TableSettings(mode=Mode.CLAIM))["mode"]
    ('acc', 'claim')
    """
    return {"mode": settings.mode.value, "players": settings.players, "partnerships": settings.partnerships,
            "rules": settings.rules, "match_games": settings.match_games, "review": settings.review,
            "muggins": settings.muggins, "game_length": settings.game_length, "brightness": settings.brightness,
            **{name: getattr(settings, name) for name in _SPEECH_KEPT},
            **({"seating": seating_data(settings.seating)} if settings.seating is not None else {})}


def seating_data(seating: Seating) -> dict[str, Any]:
    """A :class:`Seating` as plain JSON values (:func:`seating_from` reads it back)."""
    return {"round": seating.round, "kind": seating.kind, "games": seating.games,
            "players": list(seating.players), "match_games": seating.match_games, "since": seating.since,
            "event": seating.event}


def seating_from(data: object) -> Seating | None:
    """The :class:`Seating` ``data`` keeps, or None when it is not one.

    >>> seating_from(seating_data(Seating(2, "qualifying", 2, ("Ann", "Bob"), since=7))).since
    7
    >>> seating_from({"round": 0}) is None
    True
    >>> seating_from({"round": 1, "kind": "qualifying", "games": 1, "players": ["A", "B"], "match_games": 1}).event is None
    True
    """
    def number(value: object, low: int = 1) -> bool:
        return type(value) is int and value >= low

    if not isinstance(data, dict):
        return None
    players = data.get("players")
    since, event = data.get("since"), data.get("event")  # no event: kept before it was
    if not (number(data.get("round")) and data.get("kind") in ("qualifying", "playoff")
            and number(data.get("games")) and number(data.get("match_games"))
            and type(players) is list and 2 <= len(players) <= 4 and all(type(p) is str and p for p in players)
            and (since is None or number(since)) and (event is None or (type(event) is str and event))):
        return None
    return Seating(data["round"], data["kind"], data["games"], tuple(players), data["match_games"], since, event)


def with_kept(settings: TableSettings, data: Mapping[str, Any]) -> tuple[TableSettings, list[str]]:
    """``settings`` with the choices kept in ``data``, and what was wrong with them. A choice
    this cribpi does not offer (a preset an older version had, a value of the wrong type) is
    named and left as ``settings`` has it; if what is left still cannot start a game, none is
    used. A choice ``data`` does not name, or a key this version does not know, changes nothing.

    >>> with_kept(TableSettings(), {"mode": "claim", "rules": "tournament-2019"})[0].mode.value
    'claim'
    >>> with_kept(TableSettings(), {"mode": "claim", "rules": "tournament-2019"})[1][0][:41]
    "rules 'tournament-2019' is not one of acc"
    """
    changes: dict[str, Any] = {}
    problems: list[str] = []
    for name, (check, accepted) in _KEPT_CHECKS.items():
        if name in data:
            value = data[name]
            if check(value):
                changes[name] = Mode(value) if name == "mode" else value
            else:
                problems.append(f"{name} {value!r} is not {accepted}")
    if "seating" in data:
        seating = None if data["seating"] is None else seating_from(data["seating"])
        if seating is not None or data["seating"] is None:
            changes["seating"] = seating
        else:
            problems.append(f"seating {data['seating']!r} is not a seating")
    seats = (changes.get("players", settings.players), changes.get("partnerships", settings.partnerships))
    if seats not in PLAYER_SETUPS:  # a kept players with the configured partnerships, or the other way
        changes.pop("players", None)
        changes.pop("partnerships", None)
        problems.append(f"players {seats[0]}{' in pairs' if seats[1] else ''} is not 2, 3, 4 or 4 in pairs")
    if changes.get("rules", settings.rules) == TWO_HANDED_ONLY and changes.get("players", settings.players) != 2:
        changes.pop("rules", None)
        problems.append(f"rules {TWO_HANDED_ONLY!r} are for two players")
    chosen = dataclasses.replace(settings, **changes)
    try:
        Game([chosen.new_game()])
    except CribpiError as exc:
        return settings, [*problems, f"the set-up cannot start a game ({exc})"]
    return chosen, problems


def _is_int(low: int, high: int) -> Callable[[object], bool]:
    return lambda value: type(value) is int and low <= value <= high


_KEPT_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "mode": (lambda v: v in [m.value for m in Mode], "one of " + ", ".join(m.value for m in Mode)),
    "players": (_is_int(2, 4), "2, 3 or 4"),
    "partnerships": (lambda v: type(v) is bool, "true or false"),
    "rules": (lambda v: isinstance(v, str) and v in PRESETS, "one of " + ", ".join(PRESETS)),
    "match_games": (lambda v: _is_int(1, 99)(v) and v % 2 == 1, "an odd number of games, 1-99"),
    "review": (lambda v: type(v) is bool, "true or false"),
    "muggins": (lambda v: v is None or type(v) is bool, "true, false or null"),
    "game_length": (lambda v: v is None or (type(v) is int and v in GAME_LENGTHS), "121, 61 or null"),
    "brightness": (lambda v: type(v) in (int, float) and 0.0 <= v <= 1.0, "a number 0-1"),
    "speech": (lambda v: v is None or type(v) is bool, "true, false or null"),
    "speech_say": (lambda v: v is None or v in SPEECH_SAY, "null or one of " + ", ".join(SPEECH_SAY)),
    "speech_volume": (lambda v: v is None or _is_int(0, 100)(v), "null or 0-100"),
    "speech_voice": (lambda v: v is None or (isinstance(v, str) and v.replace("-", "").replace("_", "").isalnum()
                                             and len(v) <= 40), "null or a voice name"),
    "speech_speed": (lambda v: v is None or _is_int(80, 450)(v), "null or 80-450 words a minute"),
}
_SPEECH_KEPT = ("speech", "speech_say", "speech_volume", "speech_voice", "speech_speed")
