"""Screen model -> one-bit image for an OLED of any size (128x64 unless told).

Every screen is drawn with the bitmap fonts in :mod:`cribpi.views.fonts` (never Pillow's
default font), so the same model gives the same pixels on every machine: the golden PNGs in
``tests/views/golden/`` pin them at 128x64, 128x32 and 256x64. Displays 64 pixels high or more
get the full layouts (a wider one gives the text more columns); lower ones get compact
layouts with fewer lines. Text that does not fit is wrapped, and paged where the screen has
pages (``pages`` says how many a screen takes on a display of a given size).

>>> from cribpi.views.model import PlayScreen
>>> render_screen(PlayScreen(count=15, turn="Alice")).size
(128, 64)
>>> render_screen(PlayScreen(count=15, turn="Alice"), (128, 32)).size
(128, 32)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from typing import Any

from PIL import Image

from cribpi.exc import ViewError
from cribpi.rules import Card, ScoreItem
from cribpi.rules.speech import spoken_items
from cribpi.views.canvas import DEFAULT_SIZE, LINE, Canvas, centred, check_page, paginate, wrap
from cribpi.views.fonts import BIG_DIGITS, BOLD, SMALL, BitmapFont
from cribpi.views.join import draw_join
from cribpi.views.model import (
    AlertScreen, JoinScreen, MenuScreen, MessageScreen, PlayScreen, PromptScreen, ScoreLine,
    ScoreScreen, ScoresScreen, ScreenModel, ShowScreen,
)
from cribpi.views.scores import draw_scores

__all__ = ["DEFAULT_SIZE", "render_screen", "pages", "show_pages", "score_text", "card_text", "MARKS"]

Size = tuple[int, int]
MID_DIGITS = BitmapFont(BIG_DIGITS.data)  # the count on a compact display: 10x20, not 20x40


def score_text(line: ScoreLine) -> str:
    """``Bob 2: fifteen two`` (no reason: ``Bob 2``)."""
    text = f"{line.who} {line.points}"
    return f"{text}: {line.reason}" if line.reason else text


def card_text(card: Card) -> str:
    return card.rank.symbol + card.suit.glyph


# -- the play ---------------------------------------------------------------------------


def _play(screen: PlayScreen, c: Canvas) -> None:
    """Whose turn at the top, the starter in the top right corner (its four columns kept
    clear of the turn), the count and the last score below."""
    corner = 4 * SMALL.width if screen.starter is not None else 0
    c.centre(0, f"{screen.turn} to play" if screen.turn else "", left=corner, right=c.width - corner)
    if screen.starter is not None:
        c.right(0, card_text(screen.starter))
    digits = str(screen.count)
    text = screen.note or (score_text(screen.last) if screen.last is not None else "")
    if c.tall:
        _play_tall(screen, c, digits, text)
    else:
        _play_compact(screen, c, digits, text)


def _play_tall(screen: PlayScreen, c: Canvas, digits: str, text: str) -> None:
    """The count in big digits in the middle, ``count`` to its left, the last score below."""
    middle = (c.height - 64) // 2  # a taller display keeps the count in the middle
    x = max(0, (c.width - BIG_DIGITS.text_width(digits)) // 2)
    label = max(0, (c.width - 128) // 2)
    if label + SMALL.text_width("count") < x:
        c.text((label, 26 + middle), "count")
    BIG_DIGITS.draw(c.image, (x, 10 + middle), digits)
    _laid(screen, c, x + BIG_DIGITS.text_width(digits), c.width - label, 18 + middle)
    lines = _fitting_score(screen, text, c.columns, rows=2)  # two rows below the digits
    c.dropped.extend(lines[2:])
    for row, line in enumerate(lines[:2]):
        c.centre(c.height - 7 - LINE * (min(2, len(lines)) - 1 - row), line)


def _laid(screen: PlayScreen, c: Canvas, left: int, right: int, top: int) -> None:
    """The last card laid and whose it was, right of the count: a card credited to the wrong
    seat is seen at once. The name is cut to the room there (the turn line names them all)."""
    if screen.laid is None:
        return
    room = (right - left - 4) // SMALL.width
    if room >= 2:
        who, card = screen.laid
        c.right(top, who[:room], right=right)
        c.right(top + LINE, card_text(card), right=right)


def _play_compact(screen: PlayScreen, c: Canvas, digits: str, text: str) -> None:
    """The count at the left in digits half the size, the last score beside it."""
    MID_DIGITS.draw(c.image, (2, 6), digits)
    c.text((0, c.height - 7), "count")
    left = 30
    rows = c.rows(9)
    lines = _fitting_score(screen, text, (c.width - left) // SMALL.width, rows)
    c.lines(lines, 9, rows, left=left)


def _fitting_score(screen: PlayScreen, text: str, columns: int, rows: int) -> list[str]:
    """The note or last score wrapped; a score too long for ``rows`` loses its reason
    (``Bob 8``), never half of it."""
    if not text:
        return []
    lines = [text] if len(text) <= columns else wrap([text], columns)
    if len(lines) > rows and not screen.note and screen.last is not None:
        return wrap([score_text(ScoreLine(screen.last.who, screen.last.points))], columns)
    return lines


# -- a score, the show, alerts and messages: text in pages --------------------------------


def _footed(screen: ScoreScreen, c: Canvas) -> bool:
    """A tall display keeps its last row for the footer; a compact one has no row to spare
    (its play screen, after OK, says the count and the turn)."""
    return bool(screen.footer) and c.tall


def _score_bottom(screen: ScoreScreen, c: Canvas) -> int:
    """Where the reasons end: above the footer's row, when there is one."""
    return c.height - LINE if _footed(screen, c) else c.height


def _score_pages(screen: ScoreScreen, c: Canvas) -> list[list[str]]:
    return paginate(wrap(screen.reasons, c.columns), max(1, c.rows(16, _score_bottom(screen, c))))


def _score(screen: ScoreScreen, c: Canvas) -> None:
    pages = _score_pages(screen, c)
    check_page("score", screen.page, len(pages))
    starter = card_text(screen.starter) if screen.starter is not None else ""  # in the corner, as in the play
    corner = SMALL.text_width(starter) + 2 if starter else 0
    c.centre(0, f"{screen.who} +{screen.points}", BOLD, left=corner, right=c.width - corner)
    if starter:
        c.right(0, starter)
    c.lines(pages[screen.page], 16, len(pages[screen.page]), centre=True)
    c.pager(16 + LINE * (max(1, c.rows(16, _score_bottom(screen, c))) - 1), screen.page, len(pages))
    if _footed(screen, c):
        c.centre(c.height - SMALL.height, screen.footer)


def _text_rows(screen: AlertScreen | MessageScreen, c: Canvas, top: int) -> int:
    """The rows for an alert's or a message's lines from ``top``: in the play, the last row of
    a tall display keeps the count (the screen covers the play's, so it says it too)."""
    return max(1, c.rows(top, c.height - LINE if screen.footer and c.tall else None))


def _footer(screen: AlertScreen | MessageScreen, c: Canvas) -> None:
    if screen.footer and c.tall:
        c.centre(c.height - SMALL.height, screen.footer)


def _title(screen: AlertScreen | MessageScreen, c: Canvas) -> str:
    """The title; on a compact display, in the play, with the count after it (no row to spare
    for it below): ``Renege  count 25``."""
    return f"{screen.title}  count {screen.count}" if screen.count is not None and not c.tall else screen.title


def _alert_top(screen: AlertScreen, c: Canvas) -> int:
    """Under the title's bar; a little closer in the play, so the count below takes no row
    from the lines on a 64-row display."""
    if not c.tall:
        return 9
    return 16 if screen.footer else 18


def _alert_pages(screen: AlertScreen, c: Canvas) -> list[list[str]]:
    return paginate(wrap(screen.lines, c.columns), _text_rows(screen, c, _alert_top(screen, c)))


def _alert(screen: AlertScreen, c: Canvas) -> None:
    """The title inverted in a bar (BOLD on tall displays), the lines centred below, and in
    the play the count at the foot."""
    pages = _alert_pages(screen, c)
    check_page("alert", screen.page, len(pages))
    top = _alert_top(screen, c)
    if c.tall:
        c.draw.rectangle([(0, 0), (c.width - 1, 14)], fill=1)
        c.centre(1, screen.title, BOLD, fill=0)
    else:
        c.draw.rectangle([(0, 0), (c.width - 1, 7)], fill=1)
        c.centre(0, _title(screen, c), fill=0)
    c.lines(pages[screen.page], top, len(pages[screen.page]), centre=True)
    c.pager(top + LINE * (_text_rows(screen, c, top) - 1), screen.page, len(pages))
    _footer(screen, c)


def _message_top(screen: MessageScreen) -> int:
    return 16 if screen.title else 0


def _message_pages(screen: MessageScreen, c: Canvas) -> list[list[str]]:
    return paginate(wrap(screen.lines, c.columns), _text_rows(screen, c, _message_top(screen)))


def _message(screen: MessageScreen, c: Canvas) -> None:
    pages = _message_pages(screen, c)
    check_page("message", screen.page, len(pages))
    top = _message_top(screen)
    if screen.title:
        c.centre(0, _title(screen, c), BOLD)
    c.lines(pages[screen.page], top, len(pages[screen.page]))
    c.pager(top + LINE * (_text_rows(screen, c, top) - 1), screen.page, len(pages))
    _footer(screen, c)


def _show_layout(c: Canvas) -> tuple[int, int]:
    """The top of the item lines and how many fit: tall displays keep a rule under the title
    and the total on the last line; compact ones put the total in the title line."""
    if c.tall:
        return 10, c.rows(10, c.height - 8)
    return LINE, c.rows(LINE)


def _show_line(item: ScoreItem, columns: int, kind: int) -> str:
    """``fifteen 5♥ J♠      2``: the kind in ``kind`` columns, the points at the right."""
    cards = " ".join(card_text(card) for card in item.cards)
    left = f"{item.kind[:kind]:<{kind}} {cards}"[: columns - 3]
    return f"{left:<{columns - 3}}{item.points:>3}"


def _kind_columns(items: tuple[ScoreItem, ...], columns: int) -> int:
    """7 on a 128-pixel display (``pair ro``); a wider one names the kinds in full."""
    longest = max((len(item.kind) for item in items), default=7)
    return max(7, min(longest, columns - 18))


def show_pages(screen: ShowScreen, size: Size = DEFAULT_SIZE) -> int:
    """How many pages the show breakdown takes on a display of ``size`` (at least 1)."""
    return max(1, math.ceil(len(screen.items) / _show_layout(Canvas(size))[1]))


def _show(screen: ShowScreen, c: Canvas) -> None:
    pages = show_pages(screen, (c.width, c.height))
    check_page("show", screen.page, pages)
    top, rows = _show_layout(c)
    pager = f"{screen.page + 1}/{pages}"
    total = f"total {screen.total}" if screen.claimed is None else f"{screen.claimed} of {screen.total}"
    head = pager if c.tall else f"{total} {pager}"
    c.text((0, 0), screen.title[: c.columns - len(head) - 1])
    c.right(0, head)
    first = screen.page * rows
    shown = screen.items[first : first + rows]
    kind = _kind_columns(shown, c.columns)
    lines = [_show_line(item, c.columns, kind) for item in shown] or [spoken_items(())]  # "nothing to count"
    c.lines(lines, top, rows)
    if c.tall:
        c.rule(8)
        c.right(c.height - 7, f"total {screen.total}")
        if screen.claimed is not None:
            c.text((0, c.height - 7), f"claimed {screen.claimed}")


# -- scores, menus and prompts ---------------------------------------------------------


def _scores(screen: ScoresScreen, c: Canvas) -> None:
    draw_scores(screen, c)


def _menu_rows(c: Canvas) -> int:
    return max(1, (c.height - 11 + 1) // 9)


def _menu_window(screen: MenuScreen, rows: int) -> int:
    """Index of the first item shown, so the selected one is always visible."""
    return min(max(0, screen.selected - rows + 1), max(0, len(screen.items) - rows))


def _menu(screen: MenuScreen, c: Canvas) -> None:
    c.text((0, 0), screen.title)
    c.rule(8)
    rows = _menu_rows(c)
    first = _menu_window(screen, rows)
    for row, item in enumerate(screen.items[first : first + rows]):
        top = 11 + row * 9
        selected = first + row == screen.selected
        if selected:
            c.draw.rectangle([(0, top - 1), (c.width - 1, top + 7)], fill=1)
        c.text((2, top), item, fill=0 if selected else 1)


def _prompt(screen: PromptScreen, c: Canvas) -> None:
    """The prompt and the entry so far, then the hint: in the first layout that holds both."""
    text = f"{screen.prompt} {screen.entry}{'_' if screen.cursor else ''}"
    hint = wrap([screen.hint], c.columns) if screen.hint else []
    layouts = _prompt_layouts(c, text)
    fits = [layout for layout in layouts if len(hint) <= c.rows(layout[3])]
    if not fits:  # a small display: prompt and hint run on as one text, cut into rows
        c.lines(_run_on(f"{text} {screen.hint}".strip(), c.columns, c.rows(0)), 0, c.rows(0))
        return
    font, lines, top, hint_top = fits[0]
    pitch = LINE if font is SMALL else font.height
    for row, line in enumerate(lines):
        c.centre(top + row * pitch, line, font)
    c.lines([centred(line, c.columns) for line in hint], hint_top, c.rows(hint_top))


def _run_on(text: str, columns: int, rows: int) -> list[str]:
    """``text`` in lines of ``columns``: broken at spaces when that fits in ``rows``, else
    cut every ``columns`` characters (the last resort of a display too small for the words)."""
    lines = wrap([text], columns)
    if len(lines) <= rows:
        return lines
    return [text[i:i + columns] for i in range(0, len(text), columns)]


def _prompt_layouts(c: Canvas, text: str) -> list[tuple[BitmapFont, list[str], int, int]]:
    """(font, prompt lines, their top, the hint's top), best first: BOLD above the middle with
    the hint below it; BOLD at the top with the hint right under it; SMALL lines (last, it
    always fits)."""
    bold = [text] if BOLD.text_width(text) <= c.width else wrap([text], c.width // BOLD.width)
    small = [text] if len(text) <= c.columns else wrap([text], c.columns)
    high = BOLD.height * len(bold)
    layouts = []
    if c.tall and high <= 31:
        layouts.append((BOLD, bold, 31 - high, 40))
    if high + 3 + SMALL.height <= c.height:
        layouts.append((BOLD, bold, 0, high + 3))
    layouts.append((SMALL, small, 0, LINE * len(small)))
    return layouts


# -- dispatch ---------------------------------------------------------------------------

_RENDERERS: dict[type, Callable[[Any, Canvas], None]] = {
    PlayScreen: _play,
    ScoreScreen: _score,
    ShowScreen: _show,
    ScoresScreen: _scores,
    AlertScreen: _alert,
    MenuScreen: _menu,
    MessageScreen: _message,
    PromptScreen: _prompt,
    JoinScreen: draw_join,
}


def draw_screen(screen: ScreenModel, size: Size = DEFAULT_SIZE) -> Canvas:
    """The canvas ``screen`` is drawn on (tests read what was shortened or dropped)."""
    renderer = _RENDERERS.get(type(screen))
    if renderer is None:
        names = ", ".join(cls.__name__ for cls in _RENDERERS)
        raise ViewError(f"cannot draw {type(screen).__name__}: screens are {names}")
    canvas = Canvas(size)
    renderer(screen, canvas)
    return canvas


def render_screen(screen: ScreenModel, size: Size = DEFAULT_SIZE, marks: Collection[str] = ()) -> Image.Image:
    """Draw ``screen`` for a display of ``size`` (width, height) as an image of mode ``'1'``
    (1 = lit pixel), with each of ``marks`` (names in :data:`MARKS`) as a small glyph in the
    top right corner."""
    canvas = draw_screen(screen, size)
    _draw_marks(canvas, screen, marks)
    return canvas.image


# -- status marks -------------------------------------------------------------------------

#: A status the table shows beside any screen, without taking it over (a part's problem does
#: that): its 7x7 glyph, rows top down, ``#`` lit. ``missing``: a part is still down (named on
#: the problem screen until a key took it as read), until it joins.
MARKS: dict[str, tuple[str, ...]] = {
    "offline": ("#######", "##...##", "#.#.#.#", "#..#..#", "#.#.#.#", "##...##", "#######"),  # a crossed box
    "missing": ("...#...", "..###..", "..#.#..", ".##.##.", ".#####.", "###.###", "#######"),  # a warning sign
}
MARK = 7


def _draw_marks(c: Canvas, screen: ScreenModel, marks: Collection[str]) -> None:
    """Right to left from the top right corner (left of the starter a play or score screen
    shows), each on a dark 1-pixel margin so it reads over any text."""
    unknown = sorted(set(marks) - set(MARKS))
    if unknown:
        raise ViewError(f"no status mark {unknown[0]!r}: marks are {', '.join(MARKS)}")
    right = c.width
    if isinstance(screen, (PlayScreen, ScoreScreen)) and screen.starter is not None:
        right -= SMALL.text_width(card_text(screen.starter)) + 1
    for name in sorted(marks):
        left = right - MARK
        c.draw.rectangle([(left - 1, 0), (right - 1, MARK)], fill=0)
        for y, row in enumerate(MARKS[name]):
            for x, pixel in enumerate(row):
                if pixel == "#":
                    c.image.putpixel((left + x, y), 1)
        right = left - 2


def pages(screen: ScreenModel, size: Size = DEFAULT_SIZE) -> int:
    """How many pages ``screen`` takes on a display of ``size``: a show breakdown, a score's
    reasons, an alert's or a message's lines may need more than one (``page`` picks one)."""
    canvas = Canvas(size)
    if isinstance(screen, ShowScreen):
        return show_pages(screen, size)
    if isinstance(screen, ScoreScreen):
        return len(_score_pages(screen, canvas))
    if isinstance(screen, AlertScreen):
        return len(_alert_pages(screen, canvas))
    if isinstance(screen, MessageScreen):
        return len(_message_pages(screen, canvas))
    return 1
