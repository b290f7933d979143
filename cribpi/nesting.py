"""How deep outside text nests, measured before a parser that recurses ever sees it.

``tomllib`` and ``json`` parse arrays and tables by recursion: a file or a record nested a few
thousand deep raises ``RecursionError`` (a 3,000-line traceback, a dead loop), not a refusal.
So every TOML or JSON text from outside is first scanned here, cheaply (a regular expression
finds the brackets; strings and comments are skipped), and refused when it nests deeper than
its reader allows; what it parses to is then measured again without recursion (TOML's dotted
keys, ``a.b.c = 1``, nest without a bracket). Both parsers are also run with ``RecursionError``
and ``MemoryError`` turned into the same refusal, should anything get past the scan.

>>> toml_depth('a = [[1], {b = "]]]]"}]  # [[[')
(2, 1)
>>> loads_toml("a = " + "[" * 50 + "]" * 50, 16)
Traceback (most recent call last):
cribpi.nesting.TooDeep: nested deeper than 16 (line 1); at most 16 levels of arrays and tables are accepted
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any, Final

__all__ = ["TooDeep", "toml_depth", "json_depth", "depth_of", "loads_toml", "loads_json", "MAX_DEPTH"]

#: Deep enough for any file or message cribpi reads (a configuration nests 4 deep, a snapshot
#: of a game's state about 10); shallow enough that no parser comes near Python's recursion limit.
MAX_DEPTH: Final = 32

# Strings and comments (skipped: a bracket in them is text) and runs of brackets (counted). A
# string never closed runs to the end (of the text, or of its line): every piece is matched
# once, so the scan stays linear whatever the text (a multi-line string tried again from each
# of 200,000 openers that never close, a lone backslash at the end, once made it quadratic:
# minutes for a megabyte).
_TOML: Final = re.compile(r'#[^\n]*|"""(?:\\[\s\S]?|[^\\])*?(?:"""(?:"{0,2})|\Z)|\'\'\'[\s\S]*?(?:\'\'\'(?:\'{0,2})|\Z)'
                          r'|"(?:\\.|[^"\\\n])*"?|\'[^\'\n]*\'?|[\[{]+|[\]}]+')
_JSON: Final = re.compile(r'"(?:\\.|[^"\\])*"?|[\[{]+|[\]}]+')


class TooDeep(ValueError):
    """Text nested deeper than its reader accepts (a ValueError, as a parser's own refusal is)."""


def _depth(pattern: re.Pattern[str], text: str, limit: int | None) -> tuple[int, int]:
    depth = deepest = 0
    line_at = 1
    for match in pattern.finditer(text):
        token = match.group()
        if token[0] in "[{":
            depth += len(token)
            if depth > deepest:
                deepest, line_at = depth, match.start()
                if limit is not None and depth > limit:
                    break
        elif token[0] in "]}":
            depth = max(0, depth - len(token))
    return deepest, text.count("\n", 0, line_at) + 1 if deepest else 1


def toml_depth(text: str, limit: int | None = None) -> tuple[int, int]:
    """How deep ``text``'s arrays and inline tables nest (a table header's ``[ ]`` counts while
    it is open), and the line where that depth is reached; the scan stops past ``limit``."""
    return _depth(_TOML, text, limit)


def json_depth(text: str, limit: int | None = None) -> tuple[int, int]:
    """As :func:`toml_depth`, for JSON text."""
    return _depth(_JSON, text, limit)


def depth_of(value: object, limit: int | None = None) -> int:
    """How deep a parsed value (dicts and lists) nests, found without recursion; a scalar is 0.
    The walk stops past ``limit``."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth + 1)
        if limit is not None and deepest > limit:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _refusal(limit: int, line: int | None = None) -> TooDeep:
    where = f" (line {line})" if line is not None else ""
    return TooDeep(f"nested deeper than {limit}{where}; at most {limit} levels of arrays and tables are accepted")


def loads_toml(text: str, limit: int = MAX_DEPTH) -> dict[str, Any]:
    """``tomllib.loads(text)``, refused with :class:`TooDeep` when it nests deeper than ``limit``
    (before parsing, and after: dotted keys); ``tomllib.TOMLDecodeError`` as ever otherwise."""
    depth, line = toml_depth(text, limit)
    if depth > limit:
        raise _refusal(limit, line)
    try:
        data = tomllib.loads(text)
    except (RecursionError, MemoryError):
        raise _refusal(limit) from None
    if depth_of(data, limit + 1) - 1 > limit:  # the document's own table is no level
        raise _refusal(limit)
    return data


def loads_json(text: str | bytes, limit: int = MAX_DEPTH) -> Any:
    """``json.loads(text)``, refused with :class:`TooDeep` when it nests deeper than ``limit``;
    a ``ValueError`` (``json.JSONDecodeError``, ``UnicodeDecodeError``) as ever otherwise."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode(json.detect_encoding(text), "surrogatepass")  # as json.loads would
    if text.count("[") + text.count("{") > limit:  # fewer brackets cannot nest too deep: no scan
        depth, line = json_depth(text, limit)
        if depth > limit:
            raise _refusal(limit, line)
    try:
        return json.loads(text)
    except (RecursionError, MemoryError):
        raise _refusal(limit) from None
