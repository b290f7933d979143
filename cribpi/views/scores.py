"""The scores screen drawn on a canvas: a row a side with its score and games won.

Tall displays give each side a BOLD row (four fit in 64 pixels, three with a hint under
them); compact ones a SMALL row, in two columns when the sides outnumber the rows.
"""

from __future__ import annotations

import math

from cribpi.views.canvas import LINE, Canvas
from cribpi.views.fonts import BOLD, SMALL, BitmapFont
from cribpi.views.model import ScoreRow, ScoresScreen

__all__ = ["draw_scores"]

DOTS = 27  # room for five 3x3 dots a game, and a '+' for more


def draw_scores(screen: ScoresScreen, c: Canvas) -> None:
    """The rows, and the hint centred on the last row (the rows keep clear of it)."""
    bottom = c.height - LINE if screen.hint else c.height
    tall_rows = (bottom - 11 - BOLD.height) // 13 + 1
    if c.tall and len(screen.rows) <= tall_rows:
        _tall(screen, c)
    else:
        _compact(screen, c, bottom)
    if screen.hint:
        c.centre(c.height - SMALL.height, screen.hint)


def _tall(screen: ScoresScreen, c: Canvas) -> None:
    c.text((0, 0), screen.title[: c.columns - 6])
    c.right(0, "games")
    c.rule(8)
    for number, row in enumerate(screen.rows):
        _row(c, row, BOLD, left=0, width=c.width, top=11 + number * 13, gap=5)


def _compact(screen: ScoresScreen, c: Canvas, bottom: int) -> None:
    c.text((0, 0), screen.title)
    rows = max(1, c.rows(LINE, bottom))
    columns = max(1, math.ceil(len(screen.rows) / rows))
    width = c.width // columns
    for number, row in enumerate(screen.rows[: rows * columns]):
        column, line = divmod(number, rows)
        _row(c, row, SMALL, left=column * width, width=width, top=LINE + line * LINE, gap=2)


def _row(c: Canvas, row: ScoreRow, font: BitmapFont, left: int, width: int, top: int, gap: int) -> None:
    """Name at the left, the score right-aligned ``gap`` pixels before the games-won dots;
    the name keeps clear of a three-digit score."""
    dots = min(DOTS, width // 4)
    score_right = left + width - dots - gap
    name_room = (score_right - left) // font.width - (3 + gap // 2)
    c.text((left, top), row.name[: max(1, name_room)], font)
    c.right(top, str(row.score), font, right=score_right)
    _games_dots(c, row.games_won, left + width - dots, top + font.height // 2 - 2, dots)


def _games_dots(c: Canvas, games: int, left: int, top: int, room: int) -> None:
    """A 3x3 dot a game won, as many as there is room for; more shows a ``+``."""
    most = max(0, (room - 2) // 5)
    for n in range(min(games, most)):
        x = left + n * 5
        c.draw.rectangle([(x, top), (x + 2, top + 2)], fill=1)
    if games > most:
        x = left + most * 5
        c.draw.line([(x, top - 1), (x, top + 3)], fill=1)
