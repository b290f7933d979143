"""What the simulator shows, fitted to the terminal's size: no I/O, so every size can be tested.

The largest arrangement that fits is chosen (:data:`ARRANGEMENTS`): the full board (30 holes
a row, as the real tracks run) or the compact one (a whole track on one line, two holes a
character), under it the OLED's image in half blocks (130 columns) or in braille (66 columns,
16 rows), and at 80x24 the compact board with the OLED's words alone, for 2, 3 or 4 players.
The OLED's words, the status line, what is being typed and the keys are always there. A
terminal too small for even the smallest arrangement gets one line naming the size it needs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image

from cribpi.hal.term import (
    GAMES_LABEL, Line, Segment, compact_track, frame_peak, game_counters, image_to_braille, image_to_text,
    label_width, track_rows,
)
from cribpi.views.board import RGB
from cribpi.views.leds import LedFrame

__all__ = ["View", "Section", "fit", "track_label", "words_page", "wrapped_words", "too_small", "minimum_size", "ARRANGEMENTS"]

FULL_ROW = 30  # holes a row on the full board, as the real tracks run
LABEL_WIDTH = 10  # a compact track's label: the name and score ("Green 121 ")
TITLE = "cribpi sim"
MAX_WORDS = 12  # lines of the OLED's words at most (a menu, a show of many items)


@dataclass(frozen=True)
class View:
    """Everything one frame shows, before it is fitted to a size."""

    journal: str  # the journal's path ("" when none is named)
    frame: LedFrame | None
    labels: tuple[str, ...]  # per track: "Ann 12"
    image: Image.Image | None
    status: str  # the scores, mode, rules, phase, the dealer, the count
    words: tuple[str, ...]  # the OLED's words
    prompt: str  # what is being typed, or why the last key did nothing
    legend: tuple[str, ...]  # the keys, a few words each
    pegs: tuple[tuple[int, int], ...] = ()  # per track: its front and rear peg's holes (0: off the board)


class Section(NamedTuple):
    """A part of the screen: its size (columns, rows) known before it is drawn, and its drawing."""

    size: Callable[[View], tuple[int, int]]
    draw: Callable[[View], list[Line]]


def track_label(name: str, score: int) -> str:
    """A track's label, its name shortened so the score always shows (labels hold 9 characters).

    >>> track_label("Ann", 12), track_label("Christopher", 121), track_label("Christopher", 5)
    ('Ann 12', 'Chri… 121', 'Christ… 5')
    """
    room = LABEL_WIDTH - 2 - len(str(score))  # the space after the name, the column after the label
    return f"{name if len(name) <= room else name[:room - 1] + '…'} {score}"


def _tracks(view: View) -> tuple[tuple[RGB, ...], ...]:
    return view.frame.tracks if view.frame else ()


def _counters(view: View) -> int:
    return max((len(g) for g in view.frame.games), default=0) if view.frame else 0


def _full_size(view: View) -> tuple[int, int]:
    rows = sum(-(-len(track) // FULL_ROW) for track in _tracks(view))
    return (label_width(view.labels) + 4 + FULL_ROW + len(GAMES_LABEL) + _counters(view), rows) if rows else (0, 0)


def _full_tracks(view: View) -> list[Line]:
    return track_rows(view.frame, FULL_ROW, view.labels) if view.frame else []


def _compact_size(view: View) -> tuple[int, int]:
    tracks = _tracks(view)
    holes = max((len(t) for t in tracks), default=0)
    return (LABEL_WIDTH + -(-holes // 2) + 1 + _counters(view), len(tracks)) if tracks else (0, 0)


def _compact_tracks(view: View) -> list[Line]:
    frame = view.frame
    if frame is None:
        return []
    peak = frame_peak(frame)
    labels = [*view.labels, *[""] * len(frame.tracks)]
    pegs = [*view.pegs, *[()] * len(frame.tracks)]
    return [(Segment(f"{labels[n][:LABEL_WIDTH - 1]:<{LABEL_WIDTH}}"), *compact_track(track, peak, pegs[n], n), Segment(" "),
             *game_counters(frame, n, peak)) for n, track in enumerate(frame.tracks)]


def _image_size(view: View) -> tuple[int, int]:
    return (view.image.width + 2, -(-view.image.height // 2) + 2) if view.image else (0, 0)


def _oled_image(view: View) -> list[Line]:
    if view.image is None:
        return []
    edge = (Segment("+" + "-" * view.image.width + "+"),)
    return [edge, *((Segment(f"|{row}|"),) for row in _as_text(*_key(view.image)).split("\n")), edge]


def _braille_size(view: View) -> tuple[int, int]:
    return (-(-view.image.width // 2) + 2, -(-view.image.height // 4)) if view.image else (0, 0)


def _oled_braille(view: View) -> list[Line]:
    return [(Segment(f"|{row}|"),) for row in _as_braille(*_key(view.image)).split("\n")] if view.image else []


def _key(image: Image.Image) -> tuple[str, tuple[int, int], bytes]:
    """An image by its contents: a key press that leaves the OLED as it was converts nothing."""
    return image.mode, image.size, image.tobytes()


@functools.lru_cache(maxsize=4)
def _as_text(mode: str, size: tuple[int, int], data: bytes) -> str:
    return image_to_text(Image.frombytes(mode, size, data))


@functools.lru_cache(maxsize=4)
def _as_braille(mode: str, size: tuple[int, int], data: bytes) -> str:
    return image_to_braille(Image.frombytes(mode, size, data))


FULL = Section(_full_size, _full_tracks)
COMPACT = Section(_compact_size, _compact_tracks)
IMAGE = Section(_image_size, _oled_image)
BRAILLE = Section(_braille_size, _oled_braille)
NO_OLED = Section(lambda view: (0, 0), lambda view: [])

#: From the largest to the smallest: the board's tracks, then the OLED.
ARRANGEMENTS: tuple[tuple[Section, Section], ...] = (
    (FULL, IMAGE), (COMPACT, IMAGE), (FULL, BRAILLE), (COMPACT, BRAILLE), (COMPACT, NO_OLED),
)


def fit(view: View, columns: int, rows: int) -> list[Line] | None:
    """The largest arrangement of ``view`` within ``columns`` x ``rows``; None if none fits.

    An arrangement with the OLED's picture must leave room for every key of the legend and
    two lines of words; the smallest one makes do with a line of each. Only the arrangement
    chosen is drawn."""
    legend = _packed(view.legend, columns)
    words = wrapped_words(view.words, columns)
    for sections in ARRANGEMENTS:
        least_words, least_legend, room = _room(view, sections, columns, rows, len(words), len(legend))
        if room < 0:
            continue
        body = [line for section in sections for line in section.draw(view)]
        spare = room - len(body)
        more_words = min(spare, MAX_WORDS - least_words, len(words) - least_words)
        more_legend = min(spare - more_words, len(legend) - least_legend)
        gaps = min(spare - more_words - more_legend, 3)  # blank lines between the parts, when there is room
        head = [_header(view.journal, columns), *[""] * (gaps >= 2)]
        tail = [*[""] * (gaps >= 1), _cut(view.status, columns), *words[:least_words + more_words],
                _cut(view.prompt, columns), *[""] * (gaps >= 3), *legend[:least_legend + more_legend]]
        return [*((Segment(t),) for t in head), *body, *((Segment(t),) for t in tail)]
    return None


def _room(view: View, sections: tuple[Section, Section], columns: int, rows: int, words: int,
          legend: int) -> tuple[int, int, int]:
    """The least lines of words and keys ``sections`` leave, and the rows left under them for
    the sections and more of each (negative: the sections do not fit)."""
    least_words, least_legend = (1, 1) if sections[1] is NO_OLED else (min(words, 2), legend)
    room = rows - 3 - least_words - least_legend  # and the header, status and prompt lines
    sizes = [section.size(view) for section in sections]
    if max(width for width, _ in sizes) > columns or sum(height for _, height in sizes) > room:
        return least_words, least_legend, -1
    return least_words, least_legend, room


def words_page(view: View, columns: int, rows: int) -> int | None:
    """The lines of words a page holds when ``fit`` shows the OLED's words alone (no picture
    of it: so OK pages by these lines, not the OLED's); None when a picture is shown."""
    words, legend = len(wrapped_words(view.words, columns)), len(_packed(view.legend, columns))
    for sections in ARRANGEMENTS:
        least_words, _, room = _room(view, sections, columns, rows, words, legend)
        if room < 0:
            continue
        if sections[1] is not NO_OLED:
            return None
        spare = room - sum(height for _, height in (section.size(view) for section in sections))
        return least_words + max(0, min(spare, MAX_WORDS - least_words))
    return None


def minimum_size(view: View) -> tuple[int, int]:
    """The smallest terminal that holds ``view`` (its smallest arrangement, one line of words and keys)."""
    sizes = [section.size(view) for section in ARRANGEMENTS[-1]]
    return max(40, *(width for width, _ in sizes)), sum(height for _, height in sizes) + 5


def too_small(view: View, columns: int, rows: int) -> str:
    """The one line a terminal too small for ``view`` gets."""
    need_columns, need_rows = minimum_size(view)
    return _cut(f"cribpi sim needs {need_columns}x{need_rows} or more (this is {columns}x{rows})",
                columns)


def _header(journal: str, columns: int) -> str:
    """The title and the journal; a long path loses its start, so the file's name still shows."""
    if not journal:
        return _cut(TITLE, columns)
    head = f"{TITLE}   journal: "
    room = columns - len(head)
    if room < 12:
        return _cut(f"{head}{journal}", columns)
    return head + (journal if len(journal) <= room else "…" + journal[len(journal) - room + 1:])


def _cut(text: str, columns: int) -> str:
    return text if len(text) <= columns else text[:max(columns - 1, 0)] + "…"


def wrapped_words(lines: Sequence[str], columns: int) -> list[str]:
    """The OLED's words as ``fit`` shows them: each line wrapped at spaces to ``columns`` (a word longer than that is cut); at least one line."""
    out: list[str] = []
    for line in lines:
        if len(line) <= columns:
            out.append(line)  # as it is, indentation and all
            continue
        current = ""
        for word in line.split():
            joined = f"{current} {word}" if current else word
            if len(joined) <= columns:
                current = joined
                continue
            if current:
                out.append(current)
            current = _cut(word, columns)
        out.append(current)
    return out or [""]


def _packed(items: Sequence[str], columns: int, gap: str = "   ") -> list[str]:
    """Legend items run together on as few lines as ``columns`` allows."""
    lines: list[str] = []
    for item in items:
        item = _cut(item, columns)
        if lines and len(lines[-1]) + len(gap) + len(item) <= columns:
            lines[-1] += gap + item
        else:
            lines.append(item)
    return lines or [""]
