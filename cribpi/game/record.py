"""Game records: a game's events as plain text people can read and write, as PGN is for chess.

A record is a few ``[Tag "value"]`` lines (the players, the rules, the mode) and then one
statement per line, in the order things happened at the table::

    [Event "Club night"]
    [Players "Alice" "Bob"]
    [Rules "acc"]
    [Mode "count"]
    [Dealer "Alice"]

    Deal 1: Alice deals
    Crib: 7C 8D 7H 8S
    Starter: 6H
    Play: QH 5C TD 6D | 2C 4H 4S 4D
    End

Whose turn it is in the play is not written: the parser replays the record through the
engine as it reads, so ``Play:`` needs only the cards (and ``go``). Records hold the events
in force (:attr:`Game.events`), never the undos that led to them. The full grammar is in
docs/record-format.md.

>>> from cribpi.game.events import NewGame
>>> text = export_record([NewGame(("Ann", "Ben"), first_dealer=0)])
>>> parse_record(text).events == [NewGame(("Ann", "Ben"), first_dealer=0)]
True
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from cribpi.exc import RecordError, RulesError
from cribpi.game.engine import INITIAL, apply, claimable
from cribpi.game.events import (
    Claim, Crib, CutForDeal, Discard, EndDeal, Event, Go, HandCards, Lay, Misdeal, Mode, Muggins,
    NewGame, NextGame, Peg, Penalty, Starter, Undo,
)
from cribpi.game.legal import describe_expected
from cribpi.game.state import Effect, GameOver, MatchOver, Phase, State
from cribpi.rules import ACC, PRESETS, Card, CardError, MugginsScope, ResultScheme, Rules

__all__ = ["Record", "export_record", "parse_record", "GAME_TAGS"]


@dataclasses.dataclass(frozen=True)
class Record:
    """A parsed record: its tags (as written), its events, and the line each event came from."""

    tags: dict[str, str]
    events: list[Event]
    lines: list[int] = dataclasses.field(default_factory=list)

    def text(self) -> str:
        """The record written out again (comments and layout are not kept)."""
        return export_record(self.events, self.tags)


# -- tags ------------------------------------------------------------------------------------

#: Rule options written as tags, by the tag name the exporter uses.
_RULE_TAGS: Final[dict[str, str]] = {
    "Game": "game_length", "Partnerships": "partnerships", "CribFourFlush": "crib_four_flush",
    "ResultScheme": "result_scheme", "Muggins": "muggins", "OverclaimPenalty": "overclaim_penalty",
    "HeelsPegOut": "heels_peg_out", "FiveCard": "five_card", "Tournament": "tournament",
}
#: Tags that make up the NewGame event (the rest are free text such as Event, Date, Table).
GAME_TAGS: Final = ("Players", "Rules", "Base", *_RULE_TAGS, "Mode", "Match", "Dealer", "Review")
_BOOLS: Final = {"yes": True, "true": True, "on": True, "1": True, "no": False, "false": False, "off": False, "0": False}


def _key(tag: str) -> str:
    """Tag names match whatever their case and with or without ``_``/``-``."""
    return re.sub(r"[_\-]", "", tag).lower()


_GAME_KEYS: Final = {_key(t) for t in GAME_TAGS} | {"gamelength"}
_FIELD_BY_KEY: Final = {_key(t): f for t, f in _RULE_TAGS.items()} | {"gamelength": "game_length"}


def _option_value(field: str, text: str) -> object:
    """A rule option from its tag text; RulesError says what the option accepts."""
    kind = {f.name: f.type for f in dataclasses.fields(Rules)}[field]
    if kind == "bool":
        if text.lower() not in _BOOLS:
            raise RulesError("use yes or no")
        return _BOOLS[text.lower()]
    if kind == "int":
        if not re.fullmatch(r"\d+", text):
            raise RulesError("use a whole number")
        return int(text)
    choices: type[MugginsScope] | type[ResultScheme] = MugginsScope if field == "muggins" else ResultScheme
    try:
        return choices(text.lower())
    except ValueError:
        raise RulesError("use " + ", ".join(str(m.value) for m in choices)) from None


def _rules_tags(rules: Rules) -> list[tuple[str, str]]:
    """[Rules "preset"] and one tag per option that differs from the preset."""
    base = PRESETS.get(rules.name, ACC)
    tags = [("Rules", rules.name)]
    if rules.name not in PRESETS:
        tags.append(("Base", base.name))
    for tag, field in _RULE_TAGS.items():
        value = getattr(rules, field)
        if value != getattr(base, field):
            tags.append((tag, _option_text(value)))
    return tags


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (MugginsScope, ResultScheme)):
        return str(value.value)
    return str(value)


# -- the exporter ----------------------------------------------------------------------------


def export_record(events: Iterable[Event], tags: Mapping[str, str] | None = None) -> str:
    """Write the events of one table as a record.

    ``events`` are the events in force (:attr:`Game.events`), starting with NewGame; an Undo
    is refused, since a record keeps what stands, not how it was corrected. ``tags`` adds free
    tags such as Event, Date or Table; the tags that NewGame decides (:data:`GAME_TAGS`) are
    always written from the event, and the same names in ``tags`` are ignored. Every event
    is checked by the engine on the way: a list it refuses raises RecordError.
    """
    events = list(events)
    if not events or not isinstance(events[0], NewGame):
        first = type(events[0]).__name__ if events else "nothing"
        raise RecordError(f"event 1: a record starts with a NewGame event, not {first}")
    writer = _Writer(dict(tags or {}))
    state = INITIAL
    for number, event in enumerate(events, 1):
        if isinstance(event, Undo):
            raise RecordError(f"event {number} is an Undo: export the events in force (Game.events), "
                              f"not the journal")
        try:
            after, effects = apply(state, event)
        except RulesError as exc:
            raise RecordError(f"event {number} ({event.kind}) is refused by the engine: {exc}") from None
        writer.write(event, state, after, effects)
        state = after
    return writer.text()


_BARE_NAME: Final = re.compile(r"[^\s\"\\;{}:=|\[\]]+")


def _name(name: str) -> str:
    """A player's name as a token: bare when it can be, quoted otherwise."""
    if _BARE_NAME.fullmatch(name) and name.lower() not in ("crib", "deals"):
        return name
    return _quote(name)


def _quote(text: str) -> str:
    if "\n" in text or "\r" in text:
        raise RecordError(f"{text!r} holds a line break, which a record cannot carry")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _is_card(token: str) -> bool:
    return token not in ("go", "|") and "=" not in token and not token.startswith("=")


class _Writer:
    """Turns events into lines; consecutive lays, goes and play claims share one Play line."""

    def __init__(self, tags: dict[str, str]) -> None:
        self.tags = tags
        self.lines: list[str] = []
        self.play: list[str] = []
        self.deal_key: tuple[int, int, int] | None = None
        self.misdeals = 0
        self.after_starter = False

    def text(self) -> str:
        self.flush()
        return "\n".join(self.lines).rstrip("\n") + "\n"

    def flush(self) -> None:
        if self.play:
            self.lines.append("Play: " + " ".join(self.play))
            self.play = []

    def line(self, text: str) -> None:
        self.flush()
        self.lines.append(text)

    def write(self, event: Event, before: State, after: State, effects: tuple[Effect, ...]) -> None:
        starter_claim = self.after_starter
        self.after_starter = isinstance(event, Starter)
        if isinstance(event, (Lay, Go)):
            self._play_token(event, before)
        elif isinstance(event, Claim):
            self._claim(event, before, starter_claim)
        else:
            self._statement(event, before)
        self._endings(effects)
        self._deal_header(event, after)

    def _play_token(self, event: Lay | Go, before: State) -> None:
        deal = before.deal
        assert deal is not None
        if isinstance(event, Go):
            self.play.append("go")
            return
        if not deal.count and deal.played:
            self.play.append("|")
        self.play.append(str(event.card))

    def _claim(self, event: Claim, before: State, starter_claim: bool) -> None:
        moment = claimable(before, event.seat)
        where = moment.where if moment else ""
        deal = before.deal
        last_layer = deal.played[-1][0] if deal and deal.played else None
        if where == "play" and self.play and _is_card(self.play[-1]) and last_layer == event.seat:
            self.play[-1] += f"={event.points}"  # the claim right after the player's own card
        elif where == "heels" and starter_claim and self.lines[-1].startswith("Starter:"):
            self.lines[-1] += f"={event.points}"
        elif where == "hand":
            self.line(f"Show {_name(before.names[event.seat])} {event.points}")
        elif where == "crib":
            self.line(f"Show crib {event.points}")
        else:
            self.line(f"Claim {_name(before.names[event.seat])} {event.points}")

    def _statement(self, event: Event, before: State) -> None:
        if isinstance(event, NewGame):
            self._header(event)
        elif isinstance(event, EndDeal):
            self.line(f"End  ; {_scores(before)}")
        elif isinstance(event, NextGame):
            self.line("")
            self.line("Next game")
        else:
            if isinstance(event, Misdeal):
                self.misdeals += 1
            self.line(_format_statement(event, before.names))

    def _header(self, event: NewGame) -> None:
        for tag, value in self.tags.items():
            if _key(tag) not in _GAME_KEYS:
                if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", tag):
                    raise RecordError(f"tag name {tag!r} is not a word: use letters, digits and _")
                self.lines.append(f"[{tag} {_quote(str(value))}]")
        self.lines.append("[Players " + " ".join(_quote(n) for n in event.names) + "]")
        self.lines.extend(f"[{tag} {_quote(value)}]" for tag, value in _rules_tags(event.rules))
        self.lines.append(f'[Mode "{event.mode.value}"]')
        if event.match_games != 1:
            self.lines.append(f'[Match "{event.match_games}"]')
        if event.first_dealer is not None:
            self.lines.append(f"[Dealer {_quote(event.names[event.first_dealer])}]")
        if event.review:
            self.lines.append('[Review "yes"]')

    def _endings(self, effects: tuple[Effect, ...]) -> None:
        for effect in effects:
            if isinstance(effect, GameOver):
                self.line(f"; {effect.text}")
            elif isinstance(effect, MatchOver):
                won = effect.summary.get("games_won", [])
                self.line(f"; match over: games won {'-'.join(map(str, won))}")

    def _deal_header(self, event: Event, after: State) -> None:
        deal = after.deal
        if deal is None or after.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            return
        key = (after.game_number, deal.number, self.misdeals)
        if key != self.deal_key:
            self.deal_key = key
            self.line("")
            self.line(f"Deal {deal.number}: {_name(after.names[deal.dealer])} deals")


def _format_statement(event: Event, names: tuple[str, ...]) -> str:
    cards = " ".join(map(str, getattr(event, "cards", ())))
    if isinstance(event, CutForDeal):
        return f"Cut: {cards}"
    if isinstance(event, Starter):
        return f"Starter: {event.card}"
    if isinstance(event, HandCards):
        return f"Hand {_name(names[event.seat])}: {cards}"
    if isinstance(event, Discard):
        return f"Discard {_name(names[event.seat])}: {cards}"
    if isinstance(event, Crib):
        return f"Crib: {cards}"
    if isinstance(event, Muggins):
        return f"Muggins {_name(names[event.seat])} {event.points}"
    if isinstance(event, Peg):
        return f"Peg {_name(names[event.seat])} {event.points}"
    if isinstance(event, Penalty):
        return f"Penalty {_name(names[event.seat])} {event.points} {_quote(event.reason)}"
    if isinstance(event, Misdeal):
        return "Misdeal"
    raise RecordError(f"{type(event).__name__} cannot be written in a record")


def _scores(state: State) -> str:
    return ", ".join(f"{state.team_name(t)} {s}" for t, s in enumerate(state.scores))


# -- reading: comments and tokens ------------------------------------------------------------


def _without_comments(text: str) -> list[str]:
    """The record's lines with ``; ...`` and ``{...}`` comments blanked out (quotes respected)."""
    out: list[str] = []
    line, opened, mode, i = 1, 0, "text", 0
    while i < len(text):
        ch = text[i]
        if ch == "\n":
            line += 1
            out.append(ch)
            mode = "brace" if mode == "brace" else "text"  # an open quote is the tokenizer's error
        elif mode == "brace":
            mode = "text" if ch == "}" else mode
        elif mode == "quote":
            out.append(ch)
            if ch == "\\" and text[i + 1:i + 2] not in ("", "\n"):
                out.append(text[i + 1])
                i += 1
            elif ch == '"':
                mode = "text"
        elif mode == "text" and ch in ';{"':
            mode = {";": "comment", "{": "brace", '"': "quote"}[ch]
            out.append({";": "", "{": " ", '"': '"'}[ch])
            opened = line if ch == "{" else opened
        elif mode == "text":
            out.append(ch)
        i += 1
    if mode == "brace":
        raise RecordError(f"line {opened}: '{{' opens a comment that is never closed: expected '}}'")
    return "".join(out).split("\n")


@dataclasses.dataclass(frozen=True, slots=True)
class _Token:
    text: str  # unescaped for a quoted token
    quoted: bool = False

    def __str__(self) -> str:
        return _quote(self.text) if self.quoted else self.text


_TOKEN: Final = re.compile(r'"((?:[^"\\]|\\.)*)"|([:=|])|([^\s:=|"]+)')
_ESCAPE: Final = re.compile(r"\\(.)")


def _tokens(text: str, line: int) -> list[_Token]:
    out: list[_Token] = []
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return out
        match = _TOKEN.match(text, pos)
        if match is None:
            raise RecordError(f"line {line}: {text[pos:pos + 20]!r} opens a quote that is never closed: "
                              f'expected a closing "')
        quoted, mark, word = match.groups()
        out.append(_Token(_ESCAPE.sub(r"\1", quoted), True) if quoted is not None else _Token(mark or word))
        pos = match.end()


class _Line:
    """The tokens of one statement, consumed left to right; errors name the line."""

    def __init__(self, number: int, tokens: list[_Token]) -> None:
        self.number = number
        self.tokens = tokens
        self.pos = 0

    def error(self, token: object, expected: str) -> RecordError:
        return RecordError(f"line {self.number}: {str(token)!r}: expected {expected}")

    def peek(self) -> _Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str) -> _Token:
        token = self.peek()
        if token is None:
            raise RecordError(f"line {self.number}: the line ends where {expected} was expected")
        self.pos += 1
        return token

    def skip(self, text: str) -> bool:
        token = self.peek()
        if token is not None and not token.quoted and token.text.lower() == text:
            self.pos += 1
            return True
        return False

    def number_(self, expected: str, signed: bool = False) -> int:
        token = self.take(expected)
        if token.quoted or not re.fullmatch(r"[+-]?\d+" if signed else r"\d+", token.text):
            raise self.error(token, expected)
        return int(token.text)

    def cards(self, expected: str = "cards (e.g. 5H TD QS)") -> tuple[Card, ...]:
        out = []
        while self.peek() is not None:
            out.append(self.card(expected))
        return tuple(out)

    def card(self, expected: str) -> Card:
        token = self.take(expected)
        try:
            return Card.parse(token.text)
        except CardError:
            raise self.error(token, expected) from None

    def end(self) -> None:
        token = self.peek()
        if token is not None:
            raise self.error(token, "the end of the line")


# -- the parser ------------------------------------------------------------------------------


def parse_record(text: str) -> Record:
    """Read a record, replaying it through the engine as it goes.

    Raises RecordError naming the line, the token and what would have been accepted, or
    the line and the engine's reason when the engine refuses what the line says.
    """
    reader = _Reader()
    for number, line in enumerate(_without_comments(text), 1):
        reader.feed(number, line)
    reader.finish()
    return Record(reader.tags, reader.events, reader.lines)


def _match_name(names: Iterable[str], text: str) -> int | None:
    """The seat named ``text``: exactly, or else in any case when that is unambiguous."""
    names = list(names)
    if text in names:
        return names.index(text)
    folded = [seat for seat, name in enumerate(names) if name.lower() == text.lower()]
    return folded[0] if len(folded) == 1 else None


class _Reader:
    def __init__(self) -> None:
        self.tags: dict[str, str] = {}
        self.tag_values: dict[str, tuple[int, list[str]]] = {}
        self.events: list[Event] = []
        self.lines: list[int] = []
        self.state = INITIAL
        self.last_line = 1

    # -- plumbing

    def feed(self, number: int, line: str) -> None:
        self.last_line = number
        stripped = line.strip()
        if not stripped:
            return
        if stripped.startswith("["):
            self._tag(number, stripped)
            return
        if not self.events:
            self._new_game(number)
        words = _Line(number, _tokens(stripped, number))
        self._statement(words)

    def finish(self) -> None:
        if not self.events:
            if not self.tag_values:
                raise RecordError("line 1: the record is empty: expected [Players ...] and the other tags, then deals")
            self._new_game(self.last_line)

    def apply(self, event: Event, line: int, what: str) -> None:
        try:
            self.state, _ = apply(self.state, event)
        except RulesError as exc:
            raise RecordError(f"line {line}: {what} is refused: {exc}") from None
        self.events.append(event)
        self.lines.append(line)

    def waiting(self) -> str:
        return f"the table is waiting for {describe_expected(self.state)}"

    def seat(self, words: _Line) -> int:
        token = words.take("a player's name")
        seat = _match_name(self.state.names, token.text)
        if seat is None:
            raise words.error(token, "a player's name: " + ", ".join(self.state.names))
        return seat

    # -- tags and the NewGame event

    def _tag(self, number: int, text: str) -> None:
        if self.events:
            raise RecordError(f"line {number}: {text[:30]!r}: tags belong at the top, before the first deal")
        match = re.fullmatch(r"\[\s*([A-Za-z][A-Za-z0-9_\-]*)\s*(.*?)\s*\]", text)
        if match is None:
            raise RecordError(f"line {number}: {text[:30]!r}: expected a tag such as [Event \"Club night\"]")
        name, body = match.groups()
        tokens = _tokens(body, number)
        if tokens and all(t.quoted for t in tokens):
            values = [t.text for t in tokens]
        else:
            values = [body] if body else []
        if not values:
            raise RecordError(f"line {number}: [{name}]: expected a value in quotes, e.g. [{name} \"...\"]")
        if _key(name) in {_key(t) for t in self.tags}:
            raise RecordError(f"line {number}: [{name}] appears twice: expected each tag once")
        self.tags[name] = ", ".join(values)
        self.tag_values[_key(name)] = (number, values)

    def _new_game(self, number: int) -> None:
        line, names = self.tag_values.get("players", (number, []))
        if len(names) == 1:
            names = [n.strip() for n in names[0].split(",")]
        if len(names) < 2:
            raise RecordError(f"line {line}: the record needs a [Players \"A\" \"B\"] tag with 2-4 names before its first deal")
        rules = self._rules(len(names))
        mode = self._tag_value("mode", "count", "board, count or claim")
        if mode.lower() not in {m.value for m in Mode}:
            self._tag_error("mode", "board, count or claim")
        match = self._tag_value("match", "1", "an odd number of games, e.g. 3")
        if not match.isdigit() or int(match) % 2 == 0:
            self._tag_error("match", "an odd number of games, e.g. 3")
        dealer = self._first_dealer(names)
        review = self._tag_value("review", "no", "yes or no").lower()
        if review not in _BOOLS:
            self._tag_error("review", "yes or no")
        event = NewGame(tuple(names), rules, Mode(mode.lower()), int(match), dealer, _BOOLS[review])
        self.apply(event, line, "the game set up by the tags")

    def _tag_value(self, key: str, default: str, expected: str) -> str:
        _, values = self.tag_values.get(key, (0, [default]))
        if len(values) != 1:
            self._tag_error(key, expected)
        return values[0]

    def _tag_error(self, key: str, expected: str) -> None:
        line, values = self.tag_values[key]
        raise RecordError(f"line {line}: {' '.join(values)!r}: expected {expected}")

    def _first_dealer(self, names: list[str]) -> int | None:
        if "dealer" not in self.tag_values:
            return None
        seat = _match_name(names, self._tag_value("dealer", "", "one player's name"))
        if seat is None:
            self._tag_error("dealer", "one of the players: " + ", ".join(names))
        return seat

    def _rules(self, players: int) -> Rules:
        name = self._tag_value("rules", "acc", "a rule preset: " + ", ".join(PRESETS))
        base_name = self._tag_value("base", name, "a rule preset: " + ", ".join(PRESETS))
        preset = PRESETS.get(base_name.lower())
        if preset is None:
            self._tag_error("base" if "base" in self.tag_values else "rules",
                            "a rule preset: " + ", ".join(PRESETS) + ' (or [Base "acc"] under a name of your own)')
        assert preset is not None
        if name.lower() == preset.name:
            name = preset.name
        changes: dict[str, Any] = {"name": name, "players": players}
        for key, field in _FIELD_BY_KEY.items():
            if key in self.tag_values:
                changes[field] = self._option(key, field)
        try:
            return preset.replace(**changes)
        except RulesError as exc:
            named = [(ln, values) for k, (ln, values) in self.tag_values.items()
                     if k in _FIELD_BY_KEY and _FIELD_BY_KEY[k].split("_")[0] in str(exc)]
            if named:  # the tag the message is about, by its own line
                line, values = min(named)
                raise RecordError(f"line {line}: {' '.join(values)!r}: {exc}") from None
            line = min(ln for k, (ln, _) in self.tag_values.items() if k in _GAME_KEYS)
            raise RecordError(f"line {line}: the rules in the tags are refused: {exc}") from None

    def _option(self, key: str, field: str) -> object:
        text = self._tag_value(key, "", "one value")
        try:
            return _option_value(field, text)
        except RulesError as exc:
            line, _ = self.tag_values[key]
            raise RecordError(f"line {line}: {text!r}: expected a value for {field}: {exc}") from None

    # -- statements

    def _statement(self, words: _Line) -> None:
        head = words.take("a statement")
        keyword = head.text.lower() if not head.quoted else ""
        handler = _STATEMENTS.get(keyword)
        if handler is None:
            raise words.error(head, "a statement: " + ", ".join(_STATEMENT_NAMES))
        if keyword not in ("hand", "discard", "deal", "claim", "show", "muggins", "penalty", "peg", "next", "end", "misdeal"):
            words.skip(":")
        handler(self, words)

    def _cut(self, words: _Line) -> None:
        cards = words.cards("a card for each player, in seat order (e.g. 5H KD)")
        self.apply(CutForDeal(cards), words.number, "the cut " + " ".join(map(str, cards)))

    def _deal(self, words: _Line) -> None:
        number = words.number_("the deal's number, e.g. Deal 2: Ann deals")
        words.skip(":")
        token = words.tokens[words.pos] if words.pos < len(words.tokens) else None
        dealer = self.seat(words)
        words.skip("deals")
        words.end()
        deal = self.state.deal
        if deal is None or deal.number != number or deal.dealer != dealer:
            now = f"deal {deal.number}, dealt by {self.state.names[deal.dealer]}" if deal else "no deal (" + self.waiting() + ")"
            raise RecordError(f"line {words.number}: 'Deal {number}: {token}': the table is at {now}")

    def _starter(self, words: _Line) -> None:
        card = words.card("the starter card (e.g. 6H)")
        self.apply(Starter(card), words.number, f"the starter {card}")
        if words.skip("="):
            self._claim_pending(words, "heels")
        words.end()

    def _hand(self, words: _Line) -> None:
        seat = self.seat(words)
        words.skip(":")
        cards = words.cards(f"the {self.state.rules.cards_held} cards of the hand (e.g. 5H TD QS 4C)")
        self.apply(HandCards(seat, cards), words.number, f"{self.state.names[seat]}'s hand")

    def _discard(self, words: _Line) -> None:
        seat = self.seat(words)
        words.skip(":")
        cards = words.cards(f"the {self.state.rules.discards_each} card(s) laid away (e.g. 7C 8D)")
        self.apply(Discard(seat, cards), words.number, f"{self.state.names[seat]}'s discard")

    def _crib(self, words: _Line) -> None:
        cards = words.cards("the four cards of the crib (e.g. 7C 8D 7H 8S)")
        self.apply(Crib(cards), words.number, "the crib")

    def _play(self, words: _Line) -> None:
        while (token := words.peek()) is not None:
            self._play_token(words, token)

    def _play_token(self, words: _Line, token: _Token) -> None:
        accepted = "a card (e.g. 5H, TD), go, | or =N"
        deal = self.state.deal
        word = token.text.lower()
        if word == "=" and not token.quoted:
            words.pos += 1
            self._claim_pending(words, "play")
            return
        if word == "|" and not token.quoted:
            words.pos += 1
            if deal is None or deal.count:
                count = sum(c.value for c in deal.count) if deal else 0
                raise words.error(token, f"a card or go: '|' marks a new count, but the count is at {count}")
            return
        if self.state.phase is not Phase.PLAY or deal is None or deal.turn is None:
            raise words.error(token, f"no play now: {self.waiting()}")
        seat, name = deal.turn, self.state.names[deal.turn]
        if word == "go" and not token.quoted:
            words.pos += 1
            self.apply(Go(seat), words.number, f"go by {name}")
            return
        card = words.card(accepted)
        self.apply(Lay(seat, card), words.number, f"{card} laid by {name}")

    def _claim_pending(self, words: _Line, where: str) -> None:
        """``=N`` after a card claims for that card's player; after the starter, the dealer's heels."""
        points = words.number_("the points claimed, e.g. =2")
        deal = self.state.deal
        seat = None
        if deal is not None:
            seat = deal.dealer if where == "heels" else (deal.played[-1][0] if deal.played else None)
        moment = claimable(self.state, seat) if seat is not None else None
        if moment is None or moment.where != where or seat is None:
            raise RecordError(f"line {words.number}: '={points}': there is no {where} score to claim now "
                              f"(claims need [Mode \"claim\"]; {self.waiting()})")
        self.apply(Claim(seat, points), words.number, f"{self.state.names[seat]}'s claim of {points}")

    def _claim(self, words: _Line) -> None:
        seat = self.seat(words)
        points = words.number_("the points claimed")
        words.end()
        self.apply(Claim(seat, points), words.number, f"{self.state.names[seat]}'s claim of {points}")

    def _show(self, words: _Line) -> None:
        is_crib = words.skip("crib")
        seat = None if is_crib else self.seat(words)
        points = words.number_("the points claimed for the hand")
        words.end()
        deal = self.state.deal
        pending = deal.pending if deal else None
        where = "crib" if is_crib else "hand"
        whose = "the crib" if is_crib else f"{self.state.names[seat or 0]}'s hand"
        if pending is None or pending.where != where or (seat is not None and pending.seat != seat):
            raise RecordError(f"line {words.number}: 'Show': {whose} is not waiting for a claim ({self.waiting()})")
        self.apply(Claim(pending.seat, points), words.number, f"the claim of {points} for {whose}")

    def _muggins(self, words: _Line) -> None:
        seat = self.seat(words)
        points = words.number_("the points called, e.g. Muggins Ben 2")
        words.end()
        self.apply(Muggins(seat, points), words.number, f"{self.state.names[seat]}'s muggins for {points}")

    def _penalty(self, words: _Line) -> None:
        seat = self.seat(words)
        points = words.number_("the points, e.g. 2 or -15", signed=True)
        reason = words.take('the reason in quotes, e.g. "renege"')
        if not reason.quoted:
            raise words.error(reason, 'the reason in quotes, e.g. "renege"')
        words.end()
        self.apply(Penalty(seat, points, reason.text), words.number, f"the penalty for {reason.text}")

    def _peg(self, words: _Line) -> None:
        seat = self.seat(words)
        points = words.number_("the points pegged, e.g. Peg Ann 6")
        words.end()
        self.apply(Peg(seat, points), words.number, f"{self.state.names[seat]}'s peg of {points}")

    def _misdeal(self, words: _Line) -> None:
        words.end()
        self.apply(Misdeal(), words.number, "the misdeal")

    def _end(self, words: _Line) -> None:
        words.skip("of")
        words.skip("deal")
        words.end()
        self.apply(EndDeal(), words.number, "the end of the deal")

    def _next(self, words: _Line) -> None:
        token = words.take("game (Next game)")
        if token.text.lower() != "game":
            raise words.error(token, "game (Next game)")
        words.end()
        self.apply(NextGame(), words.number, "the next game")


_STATEMENTS: Final = {
    "cut": _Reader._cut, "deal": _Reader._deal, "starter": _Reader._starter, "hand": _Reader._hand, "discard": _Reader._discard,
    "crib": _Reader._crib, "play": _Reader._play, "claim": _Reader._claim, "show": _Reader._show,
    "muggins": _Reader._muggins, "penalty": _Reader._penalty, "peg": _Reader._peg,
    "misdeal": _Reader._misdeal, "end": _Reader._end, "next": _Reader._next,
}
_STATEMENT_NAMES: Final = ("Cut:", "Deal N: NAME deals", "Starter:", "Hand NAME:", "Discard NAME:", "Crib:", "Play:",
                           "Show NAME N", "Show crib N", "Claim NAME N", "Muggins NAME N",
                           "Penalty NAME N \"reason\"", "Peg NAME N", "Misdeal", "End", "Next game")

