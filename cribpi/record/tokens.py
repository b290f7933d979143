"""The lexical rules of a record: comments, quoted strings, tokens, names.

>>> without_comments('Play: QH {a comment} 5C ; to the end\\n[Event "a ; b"]')
['Play: QH   5C ', '[Event "a ; b"]']
>>> [str(t) for t in tokens('Penalty "Mary Ann" -2 "said \\\\"go\\\\""', 1)]
['Penalty', '"Mary Ann"', '-2', '"said \\\\"go\\\\""']
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Final

from cribpi.record.errors import RecordSyntaxError, RecordWriteError, UnclosedError
from cribpi.inputs import parse_int, shown, unprintable
from cribpi.rules import Card, CardError

__all__ = ["MAX_DIGITS", "Token", "Words", "match_name", "name_token", "one_line", "quote", "tokens", "whole_number",
           "without_comments"]

#: A record in pieces: a quoted string (to its closing quote or the line's end), a ``;``
#: comment (to the line's end), a ``{...}`` comment (over lines), and the text between.
_PIECES: Final = re.compile(r'(?P<quote>"(?:\\[^\n]|[^"\\\n])*"?)|(?P<comment>;[^\n]*)'
                            r"|(?P<brace>\{[^}]*\}?)|(?P<text>[^\";{]+)")
_TOKEN: Final = re.compile(r'"((?:[^"\\]|\\.)*)"|([:=|])|([^\s:=|"]+)|(")')
_ESCAPE: Final = re.compile(r"\\(.)")
_BARE_NAME: Final = re.compile(r"[^\s\"\\;{}:=|\[\]]+")
#: What ``str.splitlines`` breaks a line at: refused in quotes both ways, so a value reads back
#: exactly as written (a ``\r`` once came back as something else).
_BREAK: Final = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_BREAK_NAMES: Final = r"\n, \r, \v, \f, \x1c-\x1e, \x85, \u2028 or \u2029"
MAX_DIGITS: Final = 6  # no score, claim, deal or game number of a real table is longer
MAX_VALUE_CHARS: Final = 200  # a name, an event's or a site's name: a longer one is not one


def without_comments(text: str) -> list[str]:
    """The record's lines with ``; ...`` and ``{...}`` comments blanked out (quotes respected)."""
    return "".join(_blanked(piece, text) for piece in _PIECES.finditer(text)).split("\n")


def _blanked(piece: re.Match[str], text: str) -> str:
    if piece.lastgroup == "comment":
        return ""
    if piece.lastgroup != "brace":
        return piece.group()
    if not piece.group().endswith("}"):
        raise UnclosedError(text.count("\n", 0, piece.start()) + 1, "{", "comment", "'}'")
    return " " + "\n" * piece.group().count("\n")  # a comment over lines keeps the line numbers


@dataclasses.dataclass(frozen=True, slots=True)
class Token:
    """One token of a statement; ``text`` is unescaped when the token was quoted."""

    text: str
    quoted: bool = False

    def __str__(self) -> str:
        return quote(self.text) if self.quoted else self.text

    def is_word(self, word: str) -> bool:
        """The keyword ``word`` (in any case, never in quotes)."""
        return not self.quoted and self.text.lower() == word


def tokens(text: str, line: int) -> list[Token]:
    """The tokens of one line: words, quoted strings, and the marks ``:``, ``=`` and ``|``."""
    out = []
    for match in _TOKEN.finditer(text):  # only white space falls between matches
        quoted, mark, word, opened = match.groups()
        if opened:
            raise UnclosedError(line, text[match.start():match.start() + 20], "quote", 'a closing "')
        if quoted is not None:
            one_line(quoted, line)
        out.append(Token(_ESCAPE.sub(r"\1", quoted), True) if quoted is not None else Token(mark or word))
    return out


def whole_number(text: str, signed: bool = False) -> int | None:
    """``text`` as a number if it is written in ASCII digits (a sign if ``signed``), at most
    :data:`MAX_DIGITS` of them; else None. ``"²"`` is a digit to ``str.isdigit`` but no number,
    and ``int()`` refuses 5,000 digits: neither may reach it.

    >>> whole_number("61"), whole_number("-2", signed=True), whole_number("²"), whole_number("9" * 50)
    (61, -2, None, None)
    """
    return parse_int(text, MAX_DIGITS, signed)


def one_line(text: str, line: int) -> str:
    """``text``, a value read from ``line``, if it holds no line break (see ``_BREAK``) and no
    other control character (a name or tag printed back must not move the cursor or recolour
    the terminal: ESC, ``\x9b``, a bidirectional override)."""
    if _BREAK.search(text):
        raise RecordSyntaxError(line, text[:30], "one line of text",
                                f"{shown(text)} holds a line break ({_BREAK_NAMES}), which a value cannot carry")
    if (bad := unprintable(text)) is not None:
        raise RecordSyntaxError(line, text[:30], "printable text",
                                f"{shown(text)} holds a control character ({bad}): names and tags are printable text")
    if len(text) > MAX_VALUE_CHARS:
        raise RecordSyntaxError(line, text[:30], "a shorter value",
                                f"{shown(text)} is too long: a name or tag holds at most {MAX_VALUE_CHARS} characters")
    return text


def quote(text: str) -> str:
    """``text`` as a quoted string."""
    if _BREAK.search(text):
        raise RecordWriteError(f"{shown(text)} holds a line break ({_BREAK_NAMES}), which a record cannot carry")
    if (bad := unprintable(text)) is not None:
        raise RecordWriteError(f"{shown(text)} holds a control character ({bad}), which a record cannot carry")
    if len(text) > MAX_VALUE_CHARS:
        raise RecordWriteError(f"{shown(text)} is too long: a name or tag holds at most {MAX_VALUE_CHARS} characters")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def name_token(name: str) -> str:
    """A player's name as a token: bare when it can be, quoted otherwise."""
    if _BARE_NAME.fullmatch(name) and name.lower() not in ("crib", "deals"):
        return name
    return quote(name)


def match_name(names: Iterable[str], text: str) -> int | None:
    """The seat named ``text``: exactly, or else in any case when that is unambiguous."""
    names = list(names)
    if text in names:
        return names.index(text)
    folded = [seat for seat, name in enumerate(names) if name.lower() == text.lower()]
    return folded[0] if len(folded) == 1 else None


class Words:
    """The tokens of one statement, taken left to right; errors name the line."""

    def __init__(self, line: int, found: list[Token]) -> None:
        self.line = line
        self.tokens = found
        self.pos = 0

    def error(self, token: Token, expected: str) -> RecordSyntaxError:
        return RecordSyntaxError(self.line, str(token), expected)

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str) -> Token:
        token = self.peek()
        if token is None:
            raise RecordSyntaxError(self.line, None, expected)
        self.pos += 1
        return token

    def skip(self, word: str) -> bool:
        """Take the keyword ``word`` if it comes next."""
        token = self.peek()
        if token is None or not token.is_word(word):
            return False
        self.pos += 1
        return True

    def integer(self, expected: str, signed: bool = False) -> int:
        token = self.take(expected)
        number = None if token.quoted else whole_number(token.text, signed)
        if number is None:
            raise self.error(token, expected)
        return number

    def card(self, expected: str) -> Card:
        token = self.take(expected)
        try:
            return Card.parse(token.text)
        except CardError:
            raise self.error(token, expected) from None

    def cards(self, expected: str) -> tuple[Card, ...]:
        """The cards to the end of the line."""
        out = []
        while self.peek() is not None:
            out.append(self.card(expected))
        return tuple(out)

    def end(self) -> None:
        token = self.peek()
        if token is not None:
            raise self.error(token, "the end of the line")
