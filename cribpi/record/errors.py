"""What goes wrong reading or writing a game record, as types.

Every error here is a :class:`~cribpi.exc.RecordError` (a ``CribpiError`` and a
``ValueError``). Reading errors carry the ``line`` at fault, and ``source`` (the file) once
:func:`~cribpi.record.parse_record` is told it; each subclass carries what was wrong.
"""

from __future__ import annotations

from cribpi.exc import RecordError, RulesError
from cribpi.inputs import escaped, shown

__all__ = [
    "RecordError", "RecordFileError", "RecordReadError", "RecordRefusedError", "RecordStateError",
    "RecordSyntaxError", "RecordTagError", "RecordWriteError", "UnclosedError",
]


class RecordReadError(RecordError):
    """Record text that cannot be read: ``line`` is where, ``problem`` what is wrong there."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(line, problem)
        self.line = line
        self.problem = problem
        self.source: str | None = None

    def __str__(self) -> str:
        where = f"{escaped(self.source)}: " if self.source else ""
        return f"{where}line {self.line}: {self.problem}"


class RecordSyntaxError(RecordReadError):
    """A ``token`` (as written) where ``expected`` was wanted; no token: the line ended first."""

    def __init__(self, line: int, token: str | None, expected: str, problem: str | None = None) -> None:
        self.token = token
        self.expected = expected
        if problem is None and token is None:
            problem = f"the line ends where {expected} was expected"
        super().__init__(line, problem or f"{shown(token)}: expected {expected}")


class UnclosedError(RecordSyntaxError):
    """A ``{`` comment or a ``"`` quote that is never closed; ``token`` is where it opens."""

    def __init__(self, line: int, token: str, what: str, closer: str) -> None:
        super().__init__(line, token, closer, f"{token!r} opens a {what} that is never closed: expected {closer}")
        self.what = what


class RecordTagError(RecordReadError):
    """A tag that is missing, repeated, misplaced, or whose ``value`` is not accepted."""

    def __init__(self, line: int, tag: str, problem: str, value: str | None = None) -> None:
        super().__init__(line, problem)
        self.tag = tag
        self.value = value


class RecordStateError(RecordReadError):
    """A statement that does not fit where the table is: a ``Deal`` check that fails, a claim
    with nothing to claim, a card when there is no play."""

    def __init__(self, line: int, token: str, problem: str) -> None:
        super().__init__(line, f"{shown(token)}: {problem}")
        self.token = token


class RecordRefusedError(RecordReadError):
    """A line that reads well but that the engine refuses; ``refusal`` is the engine's error."""

    def __init__(self, line: int, what: str, refusal: RulesError) -> None:
        super().__init__(line, f"{what} is refused: {refusal}")
        self.what = what
        self.refusal = refusal


class RecordWriteError(RecordError):
    """Events or tags that cannot be written as a record. ``event`` is the number (from 1) of
    the event at fault, when one is; ``refusal`` the engine's error when it refused it."""

    def __init__(self, problem: str, event: int | None = None, refusal: RulesError | None = None) -> None:
        super().__init__(problem)
        self.event = event
        self.refusal = refusal


class RecordFileError(RecordError):
    """A record file that cannot be read at all: missing, not a regular file, too big, not
    UTF-8 (see :mod:`cribpi.inputs`); the message names the file."""
