"""Numbers and counts in the words players say at the table.

>>> number_words(24)
'twenty-four'
>>> spoken_count(["fifteen", "fifteen", "pair"], [2, 2, 2])
'fifteen two, fifteen four, and a pair is six'
>>> spoken_items([ScoreItem("fifteen", parse_cards("7C 8D"), 2), ScoreItem("run", parse_cards("7C 8D 9H"), 3)])
'fifteen two, and a run of three is five'
"""

from __future__ import annotations

from collections.abc import Sequence

from cribpi.rules.cards import parse_cards  # noqa: F401  (doctest)
from cribpi.rules.items import ScoreItem

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing (3 ms) just to be False
if TYPE_CHECKING:
    from typing import Final

__all__ = ["number_words", "spoken_count", "spoken_items", "PHRASES"]

_UNITS: Final = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS: Final = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()

#: How each kind of score is named when counted aloud.
PHRASES: Final[dict[str, str]] = {
    "pair": "a pair",
    "pair royal": "a pair royal",
    "double pair royal": "a double pair royal",
    "run": "a run of {n}",
    "flush": "a flush of {n}",
    "nobs": "one for his nobs",
    "heels": "two for his heels",
    "thirty-one": "thirty-one",
    "go": "one for the go",
    "last card": "one for last",
    "penalty": "a penalty",
}


def number_words(n: int) -> str:
    """English words for 0 <= n < 1000."""
    if not 0 <= n < 1000:
        raise ValueError(f"number_words takes 0-999, not {n}")
    if n < 20:
        return _UNITS[n]
    if n < 100:
        tens, units = divmod(n, 10)
        return _TENS[tens] + ("-" + _UNITS[units] if units else "")
    hundreds, rest = divmod(n, 100)
    return _UNITS[hundreds] + " hundred" + (" and " + number_words(rest) if rest else "")


def spoken_count(kinds: Sequence[str], points: Sequence[int], sizes: Sequence[int] | None = None) -> str:
    """Count items aloud with a running total: fifteens first as "fifteen two", the rest as
    "and a pair is six". ``sizes`` gives the card count for runs and flushes."""
    parts: list[str] = []
    running = 0
    for i, (kind, pts) in enumerate(zip(kinds, points)):
        running += pts
        if kind == "fifteen":
            parts.append(f"fifteen {number_words(running)}")
            continue
        phrase = PHRASES.get(kind, kind).format(n=number_words(sizes[i]) if sizes else "")
        joiner = "and " if parts else ""
        parts.append(f"{joiner}{phrase} is {number_words(running)}")
    if not parts:
        return "nothing to count"
    if len(parts) == 1 and kinds[0] == "fifteen":
        return parts[0]
    return ", ".join(parts)


def spoken_items(items: Sequence[ScoreItem]) -> str:
    """``spoken_count`` of scoring items (a run or flush is as long as its cards)."""
    return spoken_count([i.kind for i in items], [i.points for i in items], [len(i.cards) for i in items])
