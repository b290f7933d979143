"""A one-bit image of a display's size, and the text that fits on it.

Every string the OLED screens draw goes through a :class:`Canvas`, which keeps it inside the
image in whole characters: blocks of text are wrapped at word boundaries (a word longer than a
line is broken between two characters) and paged by the screen when they have more lines than
rows; a one-line label is shortened by whole characters. No glyph is ever drawn in part.

>>> canvas = Canvas((128, 32))
>>> canvas.columns, canvas.rows(top=0), canvas.tall
(25, 4, False)
>>> wrap(["fifteen two, fifteen four and a pair is six"], 25)
['fifteen two, fifteen', 'four and a pair is six']
>>> paginate(["a", "b", "c", "d", "e"], rows=3)
[['a', 'b'], ['c', 'd'], ['e']]
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from PIL import Image, ImageDraw

from cribpi.exc import ViewError
from cribpi.views.fonts import SMALL, BitmapFont

__all__ = ["Canvas", "DEFAULT_SIZE", "MIN_SIZE", "LINE", "wrap", "paginate", "pager_text", "centred"]

DEFAULT_SIZE = (128, 64)
MIN_SIZE = (128, 32)  # 25 columns: a show line and its cards always fit
LINE = 8  # SMALL line pitch: 7 pixels and a gap
TALL = 64  # displays this high get the full layouts; lower ones the compact ones


def wrap(lines: Sequence[str], columns: int) -> list[str]:
    """Each line wrapped to ``columns`` characters (an empty line stays, as a blank row)."""
    out: list[str] = []
    for line in lines:
        out += textwrap.wrap(line, max(1, columns)) or [""]
    return out


def paginate(lines: list[str], rows: int) -> list[list[str]]:
    """``lines`` in pages of ``rows``; when it takes more than one page, each page keeps its
    last row for the pager (``2/3``)."""
    if len(lines) <= rows:
        return [lines]
    per_page = rows - 1 if rows > 1 else rows
    return [lines[first : first + per_page] for first in range(0, len(lines), per_page)]


def pager_text(page: int, pages: int) -> str:
    return f"{page + 1}/{pages}"


def centred(text: str, columns: int) -> str:
    """``text`` centred in ``columns`` character cells (drawn from the left edge)."""
    return text.center(columns).rstrip()


def check_page(what: str, page: int, pages: int) -> None:
    if not 0 <= page < pages:
        raise ViewError(f"page {page} of a {pages}-page {what}: use 0-{pages - 1}")


class Canvas:
    """A blank display image; ``tall`` displays (64 rows or more) get the full layouts."""

    def __init__(self, size: tuple[int, int]) -> None:
        width, height = _check_size(size)
        self.image = Image.new("1", (width, height), 0)
        self.draw = ImageDraw.Draw(self.image)
        self.width = width
        self.height = height
        self.columns = width // SMALL.width
        self.tall = height >= TALL
        self.shortened: list[str] = []  # labels drawn in part (whole characters): for tests
        self.dropped: list[str] = []  # text that did not fit at all: a layout bug, for tests

    def rows(self, top: int, bottom: int | None = None) -> int:
        """Lines of SMALL text that fit from ``top`` down to ``bottom`` (default: the foot)."""
        bottom = self.height if bottom is None else bottom
        return max(0, (bottom - top - SMALL.height) // LINE + 1)

    def text(self, xy: tuple[int, int], text: str, font: BitmapFont = SMALL, fill: int = 1) -> None:
        """Draw ``text`` at ``xy``, shortened by whole characters to stay on the image."""
        x, y = max(0, xy[0]), xy[1]
        room = (self.width - x) // font.width
        if room <= 0 or y < 0 or y + font.height > self.height:
            self.dropped.append(text)
            return
        if len(text) > room:
            self.shortened.append(text)
        font.draw(self.image, (x, y), text[:room], fill)

    def centre(self, y: int, text: str, font: BitmapFont = SMALL, fill: int = 1,
               left: int = 0, right: int | None = None) -> None:
        """``text`` centred between ``left`` and ``right`` (default: the whole width)."""
        right = self.width if right is None else right
        room = max(0, (right - left) // font.width)
        if len(text) > room:
            self.shortened.append(text)
            text = text[:room]
        self.text((left + max(0, (right - left - font.text_width(text)) // 2), y), text, font, fill)

    def right(self, y: int, text: str, font: BitmapFont = SMALL, right: int | None = None, fill: int = 1) -> None:
        """``text`` ending at ``right`` (default: the right edge)."""
        right = self.width if right is None else right
        room = right // font.width
        if len(text) > room:
            self.shortened.append(text)
            text = text[:room]
        self.text((right - font.text_width(text), y), text, font, fill)

    def lines(self, lines: Sequence[str], top: int, rows: int, left: int = 0, centre: bool = False) -> None:
        """Up to ``rows`` lines of SMALL text from ``top``, a line pitch apart (the layouts
        page or shorten text so that it fits: the lines beyond are counted as dropped)."""
        columns = (self.width - left) // SMALL.width
        for row, text in enumerate(lines[:rows]):
            self.text((left, top + row * LINE), centred(text, columns) if centre else text)
        self.dropped.extend(lines[rows:])

    def rule(self, y: int) -> None:
        self.draw.line([(0, y), (self.width - 1, y)], fill=1)

    def pager(self, top: int, page: int, pages: int) -> None:
        """``2/3`` at the right of the row at ``top`` (nothing when there is one page)."""
        if pages > 1:
            self.right(top, pager_text(page, pages))


def _check_size(size: tuple[int, int]) -> tuple[int, int]:
    try:
        width, height = (int(n) for n in size)
    except (TypeError, ValueError):
        raise ViewError(f"a display size is (width, height) in pixels, not {size!r}") from None
    if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
        raise ViewError(f"a {width}x{height} display is too small: screens need at least "
                        f"{MIN_SIZE[0]}x{MIN_SIZE[1]} pixels")
    return width, height
