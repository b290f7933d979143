"""Screen model -> 128x64 one-bit image for the OLED.

Every screen is drawn with the bitmap fonts in :mod:`cribpi.views.fonts` (never Pillow's
default font), so the same model gives the same pixels on every machine: the golden PNGs in
``tests/views/golden/`` pin them.

>>> from cribpi.views.model import PlayScreen
>>> render_screen(PlayScreen(count=15, turn="Alice")).size
(128, 64)
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from cribpi.exc import ViewError
from cribpi.rules.cards import Card
from cribpi.views.fonts import BIG_DIGITS, BOLD, SMALL, BitmapFont
from cribpi.views.model import (
    AlertScreen, MenuScreen, MessageScreen, PlayScreen, PromptScreen, ScoreLine,
    ScoreScreen, ScoresScreen, ScreenModel, ShowItem, ShowScreen,
)

__all__ = ["WIDTH", "HEIGHT", "SHOW_ITEMS_PER_PAGE", "render_screen", "show_pages", "score_text"]

WIDTH, HEIGHT = 128, 64
SMALL_COLUMNS = WIDTH // SMALL.width  # 25
LINE = 8  # SMALL line pitch: 7 pixels and a gap
SHOW_ITEMS_PER_PAGE = 5
MENU_ROWS = 6


def _blank() -> Image.Image:
    return Image.new("1", (WIDTH, HEIGHT), 0)


def _centre_x(font: BitmapFont, text: str) -> int:
    return max(0, (WIDTH - font.text_width(text)) // 2)


def _right_x(font: BitmapFont, text: str, right: int = WIDTH) -> int:
    return right - font.text_width(text)


def _wrap(lines: tuple[str, ...] | list[str], columns: int = SMALL_COLUMNS) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += textwrap.wrap(line, columns) or [""]
    return out


def _draw_lines(image: Image.Image, lines: list[str], top: int, rows: int) -> None:
    for row, text in enumerate(lines[:rows]):
        SMALL.draw(image, (0, top + row * LINE), text)


def score_text(line: ScoreLine) -> str:
    """``Bob 2: fifteen two`` (no reason: ``Bob 2``)."""
    text = f"{line.who} {line.points}"
    return f"{text}: {line.reason}" if line.reason else text


def _play(screen: PlayScreen) -> Image.Image:
    image = _blank()
    turn = f"{screen.turn} to play" if screen.turn else ""
    SMALL.draw(image, (_centre_x(SMALL, turn), 0), turn)
    SMALL.draw(image, (0, 26), "count")
    digits = str(screen.count)
    BIG_DIGITS.draw(image, (_centre_x(BIG_DIGITS, digits), 10), digits)
    if screen.note or screen.last is not None:
        text = (screen.note or score_text(screen.last))[:SMALL_COLUMNS]  # type: ignore[arg-type]
        SMALL.draw(image, (_centre_x(SMALL, text), HEIGHT - 7), text)
    return image


def _score(screen: ScoreScreen) -> Image.Image:
    image = _blank()
    head = f"{screen.who} +{screen.points}"
    BOLD.draw(image, (_centre_x(BOLD, head), 0), head)
    lines = _wrap(screen.reasons)
    _draw_lines(image, [_centred(line) for line in lines], 16, 6)
    return image


def _centred(text: str, columns: int = SMALL_COLUMNS) -> str:
    return text.center(columns).rstrip()


def card_text(card: Card) -> str:
    return card.rank.symbol + card.suit.glyph


def _show_line(item: ShowItem) -> str:
    cards = " ".join(card_text(card) for card in item.cards)
    left = f"{item.kind[:7]:<7} {cards}"[: SMALL_COLUMNS - 3]
    return f"{left:<{SMALL_COLUMNS - 3}}{item.points:>3}"


def show_pages(screen: ShowScreen) -> int:
    """How many pages the show breakdown takes (at least 1)."""
    return max(1, math.ceil(len(screen.items) / SHOW_ITEMS_PER_PAGE))


def _show(screen: ShowScreen) -> Image.Image:
    pages = show_pages(screen)
    if not 0 <= screen.page < pages:
        raise ViewError(f"page {screen.page} of a {pages}-page show: use 0-{pages - 1}")
    image = _blank()
    pager = f"{screen.page + 1}/{pages}"
    SMALL.draw(image, (0, 0), screen.title[: SMALL_COLUMNS - len(pager) - 1])
    SMALL.draw(image, (_right_x(SMALL, pager), 0), pager)
    ImageDraw.Draw(image).line([(0, 8), (WIDTH - 1, 8)], fill=1)
    first = screen.page * SHOW_ITEMS_PER_PAGE
    items = screen.items[first : first + SHOW_ITEMS_PER_PAGE]
    _draw_lines(image, [_show_line(item) for item in items], 10, SHOW_ITEMS_PER_PAGE)
    total = f"total {screen.total}"
    SMALL.draw(image, (_right_x(SMALL, total), HEIGHT - 7), total)
    return image


def _scores(screen: ScoresScreen) -> Image.Image:
    image = _blank()
    SMALL.draw(image, (0, 0), screen.title)
    SMALL.draw(image, (_right_x(SMALL, "games"), 0), "games")
    draw = ImageDraw.Draw(image)
    draw.line([(0, 8), (WIDTH - 1, 8)], fill=1)
    for row_number, row in enumerate(screen.rows[:4]):
        top = 11 + row_number * 13
        BOLD.draw(image, (0, top), row.name[:11])
        score = str(row.score)
        BOLD.draw(image, (_right_x(BOLD, score, 96), top), score)
        _games_dots(draw, row.games_won, top + 4)
    return image


def _games_dots(draw: ImageDraw.ImageDraw, games: int, top: int) -> None:
    """Up to five 3x3 dots, one per game won; more than five shows five and a ``+``."""
    for n in range(min(games, 5)):
        left = 101 + n * 5
        draw.rectangle([(left, top), (left + 2, top + 2)], fill=1)
    if games > 5:
        draw.line([(126, top - 1), (126, top + 3)], fill=1)


def _alert(screen: AlertScreen) -> Image.Image:
    image = _blank()
    ImageDraw.Draw(image).rectangle([(0, 0), (WIDTH - 1, 14)], fill=1)
    BOLD.draw(image, (_centre_x(BOLD, screen.title), 1), screen.title, fill=0)
    _draw_lines(image, [_centred(line) for line in _wrap(screen.lines)], 18, 5)
    return image


def _menu_window(screen: MenuScreen) -> int:
    """Index of the first item shown, so the selected one is always visible."""
    return min(max(0, screen.selected - MENU_ROWS + 1), max(0, len(screen.items) - MENU_ROWS))


def _menu(screen: MenuScreen) -> Image.Image:
    image = _blank()
    draw = ImageDraw.Draw(image)
    SMALL.draw(image, (0, 0), screen.title[:SMALL_COLUMNS])
    draw.line([(0, 8), (WIDTH - 1, 8)], fill=1)
    first = _menu_window(screen)
    for row, item in enumerate(screen.items[first : first + MENU_ROWS]):
        top = 11 + row * 9
        selected = first + row == screen.selected
        if selected:
            draw.rectangle([(0, top - 1), (WIDTH - 1, top + 7)], fill=1)
        SMALL.draw(image, (2, top), item[: SMALL_COLUMNS - 1], fill=0 if selected else 1)
    return image


def _message(screen: MessageScreen) -> Image.Image:
    image = _blank()
    top = 0
    if screen.title:
        BOLD.draw(image, (_centre_x(BOLD, screen.title), 0), screen.title)
        top = 16
    _draw_lines(image, _wrap(screen.lines), top, (HEIGHT - top) // LINE)
    return image


def _prompt(screen: PromptScreen) -> Image.Image:
    image = _blank()
    text = f"{screen.prompt} {screen.entry}{'_' if screen.cursor else ''}"
    BOLD.draw(image, (_centre_x(BOLD, text), 18), text)
    hint = _wrap([screen.hint]) if screen.hint else []
    _draw_lines(image, [_centred(line) for line in hint], 40, 3)
    return image


_RENDERERS: dict[type, Callable[[Any], Image.Image]] = {
    PlayScreen: _play,
    ScoreScreen: _score,
    ShowScreen: _show,
    ScoresScreen: _scores,
    AlertScreen: _alert,
    MenuScreen: _menu,
    MessageScreen: _message,
    PromptScreen: _prompt,
}


def render_screen(screen: ScreenModel) -> Image.Image:
    """Draw ``screen`` as a 128x64 image of mode ``'1'`` (1 = lit pixel)."""
    renderer = _RENDERERS.get(type(screen))
    if renderer is None:
        names = ", ".join(cls.__name__ for cls in _RENDERERS)
        raise ViewError(f"cannot draw {type(screen).__name__}: screens are {names}")
    return renderer(screen)
