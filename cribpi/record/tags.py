"""The tag codec: a NewGame event as ``[Tag "value"]`` lines, and back.

The rule options are named and checked by the rules' own codec
(:func:`~cribpi.rules.presets.rules_to_dict` / :func:`~cribpi.rules.presets.rules_from_dict`);
here they only get their tag names and their text (``yes``/``no``, digits).

>>> from cribpi.game.events import NewGame
>>> from cribpi.rules import HOYLE
>>> game_tag_lines(NewGame(("Ann", "Ben"), HOYLE.replace(game_length=61), first_dealer=1))
['[Players "Ann" "Ben"]', '[Rules "hoyle"]', '[Game "61"]', '[Mode "count"]', '[Dealer "Ben"]']
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final, NoReturn

from cribpi.game.events import Mode, NewGame, Setup
from cribpi.inputs import shown
from cribpi.record.errors import RecordSyntaxError, RecordTagError, RecordWriteError
from cribpi.record.tokens import match_name, one_line, quote, tokens, whole_number
from cribpi.rules import ACC, PRESETS, Rules
from cribpi.rules.presets import OPTION_TYPES, RuleConflictError, RuleOptionError, rules_from_dict, rules_to_dict

__all__ = ["GAME_TAGS", "TagTable", "free_tag_lines", "game_tag_lines", "misplaced_tag", "setup_tag_line", "tag_key"]

#: The tag each rule option is written under (the number of players is the Players tag).
_TAG_BY_OPTION: Final = {
    "game_length": "Game", "partnerships": "Partnerships", "crib_four_flush": "CribFourFlush",
    "result_scheme": "ResultScheme", "muggins": "Muggins", "overclaim_penalty": "OverclaimPenalty",
    "heels_peg_out": "HeelsPegOut", "five_card": "FiveCard", "tournament": "Tournament",
}
#: Tags that make up the NewGame event and its Setup (the rest are free text such as Event, Date, Table).
GAME_TAGS: Final = ("Players", "Rules", "Base", *_TAG_BY_OPTION.values(), "Mode", "Match", "Dealer", "Review",
                    "Setup")
_YES_NO: Final = {"yes": True, "true": True, "on": True, "1": True, "no": False, "false": False, "off": False,
                  "0": False}
_TAG: Final = re.compile(r"\[\s*([A-Za-z][A-Za-z0-9_\-]*)\s*(.*?)\s*\]")
_PRESET: Final = "a rule preset: " + ", ".join(PRESETS)
_SETUP: Final = 'the scores in seat order, then the dealer and any games won, e.g. "85 102; dealer Ben; won 1 0"'
MAX_MATCH: Final = 99
_MATCH: Final = f"an odd number of games 1-{MAX_MATCH}, e.g. 3"


def tag_key(tag: str) -> str:
    """Tag names match whatever their case and with or without ``_``/``-``."""
    return re.sub(r"[_\-]", "", tag).lower()


_TAG_NAMES: Final = {tag_key(t): t for t in GAME_TAGS} | {"gamelength": "Game"}
_OPTION_BY_KEY: Final = {tag_key(t): o for o, t in _TAG_BY_OPTION.items()} | {"gamelength": "game_length"}


# -- writing ---------------------------------------------------------------------------------


def free_tag_lines(tags: Mapping[str, str]) -> list[str]:
    """The free tags (Event, Date, ...); game tags among them are left out: the event decides."""
    lines = []
    for tag, value in tags.items():
        if tag_key(tag) in _TAG_NAMES:
            continue
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", tag):
            raise RecordWriteError(f"tag name {tag!r} is not a word: use letters, digits and _")
        lines.append(f"[{tag} {quote(str(value))}]")
    return lines


def game_tag_lines(event: NewGame) -> list[str]:
    """The tags of a NewGame: Players, Rules and Mode always, the others where not the default."""
    lines = ["[Players " + " ".join(quote(n) for n in event.names) + "]"]
    lines.extend(f"[{tag} {quote(value)}]" for tag, value in _rules_tags(event.rules))
    lines.append(f'[Mode "{event.mode.value}"]')
    if event.match_games != 1:
        lines.append(f'[Match "{event.match_games}"]')
    if event.first_dealer is not None:
        lines.append(f"[Dealer {quote(event.names[event.first_dealer])}]")
    if event.review:
        lines.append('[Review "yes"]')
    return lines


def setup_tag_line(event: Setup, names: tuple[str, ...]) -> str:
    """``[Setup "85 102; dealer Ben; won 1 0"]``: the scores by side, the dealer, games won."""
    dealer = names[event.dealer]
    if ";" in dealer:
        raise RecordWriteError(f"the dealer's name {dealer!r} holds ';', which a Setup tag cannot carry")
    fields = [" ".join(map(str, event.scores)), f"dealer {dealer}"]
    if any(event.won):
        fields.append("won " + " ".join(map(str, event.won)))
    return f"[Setup {quote('; '.join(fields))}]"


def _rules_tags(rules: Rules) -> list[tuple[str, str]]:
    """[Rules "preset"] and one tag per option that differs from the preset."""
    base = PRESETS.get(rules.name, ACC)
    tags = [("Rules", rules.name)]
    if rules.name not in PRESETS:
        tags.append(("Base", base.name))
    for option, value in rules_to_dict(rules, base).items():
        if option in _TAG_BY_OPTION:  # not the name, nor the players (the Players tag)
            tags.append((_TAG_BY_OPTION[option], _option_text(value)))
    return tags


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


# -- reading ---------------------------------------------------------------------------------


def misplaced_tag(line: int, text: str) -> RecordTagError:
    name = _TAG.match(text)
    return RecordTagError(line, name.group(1) if name else text[:30],
                          f"{shown(text)}: tags belong at the top, before the first deal")


class TagTable:
    """A record's tags as read: as written (:attr:`tags`), and the NewGame they make."""

    def __init__(self) -> None:
        self.tags: dict[str, str] = {}
        self._read: dict[str, tuple[int, list[str]]] = {}  # by tag_key: its line and its values

    def __bool__(self) -> bool:
        return bool(self._read)

    def add(self, line: int, text: str) -> None:
        """Read one tag line, ``[Name "value"]`` or ``[Name "a" "b"]``."""
        match = _TAG.fullmatch(text)
        if match is None:
            raise RecordSyntaxError(line, text[:30], 'a tag such as [Event "Club night"]')
        name, body = match.groups()
        values = _tag_values(body, line)
        if not values:
            raise RecordTagError(line, name, f'[{name}]: expected a value in quotes, e.g. [{name} "..."]')
        if tag_key(name) in self._read:
            raise RecordTagError(line, name, f"[{name}] appears twice: expected each tag once")
        self.tags[name] = ", ".join(values)
        self._read[tag_key(name)] = (line, values)

    def new_game(self, line: int) -> tuple[NewGame, int]:
        """The NewGame the tags make, and its line: the Players tag's (else ``line``)."""
        line, names = self._read.get("players", (line, []))
        if len(names) == 1:
            names = [n.strip() for n in names[0].split(",")]
        if len(names) < 2:
            raise RecordTagError(line, "Players", 'the record needs a [Players "A" "B"] tag with 2-4 names '
                                                  "before its first deal")
        event = NewGame(tuple(names), self._rules(len(names)), self._mode(), self._match(),
                        self._first_dealer(names), self._review())
        return event, line

    def setup(self, names: tuple[str, ...]) -> tuple[Setup, int] | None:
        """The Setup the ``[Setup "85 102; dealer Ben; won 1 0"]`` tag makes, and its line."""
        if "setup" not in self._read:
            return None
        if "dealer" in self._read:
            raise self._error("setup", "the setup names the dealer: leave out the [Dealer] tag")
        fields = [f.strip() for f in self._value("setup", "", _SETUP).split(";")]
        scores, dealer = _numbers(fields[0]), None
        won: tuple[int, ...] = ()
        for field in fields[1:]:
            word, _, rest = field.partition(" ")
            if word.lower() == "dealer":
                dealer = match_name(names, rest.strip())
            elif word.lower() == "won" and (numbers := _numbers(rest)) is not None:
                won = numbers
            else:
                self._refuse("setup", _SETUP)
        if scores is None or dealer is None:
            self._refuse("setup", _SETUP + "; the dealer one of " + ", ".join(names))
        return Setup(scores, dealer, won), self._read["setup"][0]

    # -- the game's tags, one by one

    def _value(self, key: str, default: str, expected: str) -> str:
        _, values = self._read.get(key, (0, [default]))
        if len(values) != 1:
            self._refuse(key, expected)
        return values[0]

    def _refuse(self, key: str, expected: str) -> NoReturn:
        raise self._error(key, f"expected {expected}")

    def _error(self, key: str, problem: str) -> RecordTagError:
        line, values = self._read[key]
        text = " ".join(values)
        return RecordTagError(line, _TAG_NAMES.get(key, key), f"{shown(text)}: {problem}", text)

    def _mode(self) -> Mode:
        mode = self._value("mode", "count", "board, count or claim").lower()
        if mode not in {m.value for m in Mode}:
            self._refuse("mode", "board, count or claim")
        return Mode(mode)

    def _match(self) -> int:
        games = whole_number(self._value("match", "1", _MATCH))
        if games is None or not 1 <= games <= MAX_MATCH or games % 2 == 0:
            self._refuse("match", _MATCH)
        return games

    def _first_dealer(self, names: list[str]) -> int | None:
        if "dealer" not in self._read:
            return None
        seat = match_name(names, self._value("dealer", "", "one player's name"))
        if seat is None:
            self._refuse("dealer", "one of the players: " + ", ".join(names))
        return seat

    def _review(self) -> bool:
        review = self._value("review", "no", "yes or no").lower()
        if review not in _YES_NO:
            self._refuse("review", "yes or no")
        return _YES_NO[review]

    # -- the rules: tag text to values here, the rules' codec checks them

    def _rules(self, players: int) -> Rules:
        name = self._value("rules", "acc", _PRESET)
        base = self._value("base", name, _PRESET)
        if name.lower() == base.lower():
            name = name.lower()  # [Rules "ACC"] is the preset acc
        data: dict[str, object] = {"name": name, "base": base, "players": players}
        for key, option in _OPTION_BY_KEY.items():
            if key in self._read:
                data[option] = self._option(key, option)
        try:
            return rules_from_dict(data, source="the tags")
        except RuleOptionError as exc:
            raise self._rules_error(exc) from None

    def _option(self, key: str, option: str) -> object:
        """An option's value from its tag's text; choices are left as text for the codec."""
        text = self._value(key, "", "one value")
        kind = OPTION_TYPES[option]
        if kind is bool and text.lower() not in _YES_NO:
            self._refuse(key, f"a value for {option}: use yes or no")
        number = whole_number(text)
        if kind is int and number is None:
            too_long = text.isascii() and text.isdigit()  # digits, but more than a record allows
            self._refuse(key, f"a value for {option}: use a whole number"
                         + (" (of at most 6 digits)" if too_long else ""))
        return _YES_NO[text.lower()] if kind is bool else number if kind is int else text

    def _rules_error(self, exc: RuleOptionError) -> RecordTagError:
        """The error at the tag that set the option, else at the first of the game's tags."""
        if exc.key in ("name", "base"):
            key = "base" if "base" in self._read else "rules"
            return self._error(key, f"expected {_PRESET} (or [Base \"acc\"] under a name of your own)")
        tag = next((k for k in self._read if _OPTION_BY_KEY.get(k) == exc.key), None)
        if tag is None:
            line, key = min((line, k) for k, (line, _) in self._read.items() if k in _TAG_NAMES)
            return RecordTagError(line, _TAG_NAMES[key], f"the rules in the tags are refused: {exc.reason}")
        if isinstance(exc, RuleConflictError):
            return self._error(tag, exc.reason)
        return self._error(tag, f"expected a value for {exc.key}: use {exc.accepted}")

def _numbers(text: str) -> tuple[int, ...] | None:
    """Whole numbers separated by spaces (None if any is not one)."""
    numbers = [whole_number(word) for word in text.split()]
    return None if not numbers or None in numbers else tuple(n for n in numbers if n is not None)


def _tag_values(body: str, line: int) -> list[str]:
    """A tag's values: each quoted string, or else the whole text between the brackets."""
    found = tokens(body, line)
    if found and all(t.quoted for t in found):
        return [t.text for t in found]
    return [one_line(body, line)] if body else []
