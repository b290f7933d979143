"""What the fuzz tests of the table's inputs share: the two budgets (a bounded one for every CI
run, a longer one under the ``slow`` marker) and text mutations that break a good input the
ways a damaged or hostile one is broken (brackets by the thousand, cut strings, control
characters, huge numbers, a piece repeated)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: Examples a test gets in every run, and in the longer run (``pytest -m slow``).
EXAMPLES, LONG_EXAMPLES = 200, 1000
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def fuzz(*strategies: Any, examples: int = EXAMPLES, **named: Any) -> Callable[[Callable[..., None]], tuple[Any, Any]]:
    """``test_x, test_x_long = fuzz(strategy)(body)``: ``body`` under hypothesis twice, with
    ``examples`` examples and with five times as many under the ``slow`` marker."""

    def make(body: Callable[..., None]) -> tuple[Any, Any]:
        fast = settings(max_examples=examples, deadline=None, suppress_health_check=_QUIET)(given(*strategies, **named)(body))
        long = settings(max_examples=examples * LONG_EXAMPLES // EXAMPLES, deadline=None,
                        suppress_health_check=_QUIET)(given(*strategies, **named)(body))
        return fast, pytest.mark.slow(long)

    return make


#: Pieces a mutation inserts: the marks of TOML, JSON and records, nesting by the thousand,
#: control characters, numbers no reader takes.
NASTY = [
    "[", "]", "{", "}", "[[", "]]", "[" * 40, "[" * 5000, "{a = " * 900, '{"a": ' * 3000, "[{" * 600, '"', "'",
    '"""', "'''", "#", ";", "\\", "\\u", "\n", "\r", "=", ".", ",", ":", "|", "\0", "\x1b[2J", "\u202e", "é", "Zoë",
    "9" * 400, "-0", "1e999", "nan", "inf", "0x", "true", "a." * 3000 + "b = 1\n", "\n[" + "a." * 50 + "b]\n",
    "*", "\xff", "\ufeff", "\u2028",
]


@st.composite
def mutated(draw: st.DrawFn, seed: str, pieces: list[str] = NASTY) -> str:
    """``seed`` with one to six mutations: a piece inserted, a stretch cut, a stretch repeated
    (up to 300 times) or a character replaced."""
    text = seed
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "cut", "repeat", "replace"]))
        if kind == "insert":
            piece = draw(st.one_of(st.sampled_from(pieces), st.text(max_size=6)))
            text = text[:at] + piece + text[at:]
        elif kind == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif kind == "repeat":
            size = draw(st.integers(1, 12))
            text = text[:at] + text[at:at + size] * draw(st.integers(2, 300)) + text[at + size:]
        else:
            text = text[:at] + draw(st.characters(exclude_categories=["Cs"])) + text[at + 1:]
    return text


def nested(opener: str, closer: str, depth: int, inner: str = "1") -> str:
    return opener * depth + inner + closer * depth
