"""Not a command: the width the commands print to, and text wrapped to it.

A terminal's own width (``COLUMNS`` first, as :func:`shutil.get_terminal_size` reads it);
anything else (a pipe, a file, a test's capture) gets :data:`NOT_A_TERMINAL` columns, whatever
``COLUMNS`` says, so what is saved or piped does not depend on the window it was typed in.
Lines break at spaces only: a word, a path or a card never breaks, and the lines after the
first are indented under the first's text.

>>> wrap("fifteen two, fifteen four and a pair is six", 24, first="  ", rest="    ")
['  fifteen two, fifteen', '    four and a pair is', '    six']
>>> wrap("a/very/long/path/that/cannot/break is here", 12)
['a/very/long/path/that/cannot/break', 'is here']
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from typing import TextIO

__all__ = ["NOT_A_TERMINAL", "MIN_COLUMNS", "output_columns", "wrap"]

NOT_A_TERMINAL = 80
MIN_COLUMNS = 40  # narrower than this, the lines would be mostly indentation


def output_columns(stream: TextIO | None = None) -> int:
    """The columns ``stream`` (default: standard output) shows: its terminal's, else 80."""
    stream = sys.stdout if stream is None else stream
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed
        terminal = False
    if not terminal:
        return NOT_A_TERMINAL
    return max(MIN_COLUMNS, shutil.get_terminal_size((NOT_A_TERMINAL, 24)).columns)


def wrap(text: str, columns: int, first: str = "", rest: str = "    ") -> list[str]:
    """``text`` in lines of at most ``columns`` (a single word longer than that stays whole),
    the first starting with ``first``, the others with ``rest``."""
    return textwrap.wrap(text, max(1, columns), initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False) or [first.rstrip()]
