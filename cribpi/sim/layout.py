"""What the simulator shows, fitted to the terminal's size: no I/O, so every size can be tested.

The largest arrangement that fits is chosen: the full board (30 holes a row, as the real
tracks run) and the OLED's image in half blocks need about 130x55; a compact board (a whole
track on one line, two holes a character) and the OLED in braille fit 80x24 with two or three
players; four players at 80x24 get the compact board and the OLED's words. The OLED's words,
the status line, what is being typed and the keys are always there. A terminal too small for
even the smallest arrangement gets one line naming the size it needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

from cribpi.hal.term import (
    Line, Segment, compact_track, frame_peak, game_counters, image_to_braille, image_to_text, line_text, track_rows,
)
from cribpi.views.leds import LedFrame

__all__ = ["View", "fit", "too_small", "minimum_size", "ARRANGEMENTS"]

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


Section = Callable[[View], list[Line]]


def _full_tracks(view: View) -> list[Line]:
    return track_rows(view.frame) if view.frame else []


def _compact_tracks(view: View) -> list[Line]:
    frame = view.frame
    if frame is None:
        return []
    peak = frame_peak(frame)
    labels = [*view.labels, *[""] * len(frame.tracks)]
    return [(Segment(f"{labels[n][:LABEL_WIDTH - 1]:<{LABEL_WIDTH}}"), *compact_track(track, peak), Segment(" "),
             *game_counters(frame, n, peak)) for n, track in enumerate(frame.tracks)]


def _boxed(rows: list[str]) -> list[Line]:
    width = max((len(r) for r in rows), default=0)
    edge = (Segment("+" + "-" * width + "+"),)
    return [edge, *((Segment(f"|{r}|"),) for r in rows), edge]


def _oled_image(view: View) -> list[Line]:
    return _boxed(image_to_text(view.image).split("\n")) if view.image else []


def _oled_braille(view: View) -> list[Line]:
    return [(Segment(f"|{row}|"),) for row in image_to_braille(view.image).split("\n")] if view.image else []


def _no_oled(view: View) -> list[Line]:
    return []


#: From the largest to the smallest: the board's tracks, then the OLED.
ARRANGEMENTS: tuple[tuple[Section, Section], ...] = (
    (_full_tracks, _oled_image), (_compact_tracks, _oled_image), (_full_tracks, _oled_braille),
    (_compact_tracks, _oled_braille), (_compact_tracks, _no_oled),
)


def fit(view: View, columns: int, rows: int) -> list[Line] | None:
    """The largest arrangement of ``view`` within ``columns`` x ``rows``; None if none fits.

    An arrangement with the OLED's picture must leave room for every key of the legend and
    two lines of words; the smallest one makes do with a line of each."""
    legend = _packed(view.legend, columns)
    words = _wrapped(view.words, columns)
    drawn: dict[Section, list[Line]] = {}  # each section drawn once, and only while it may fit
    for tracks, oled in ARRANGEMENTS:
        least_words, least_legend = (1, 1) if oled is _no_oled else (min(len(words), 2), len(legend))
        room = rows - 3 - least_words - least_legend  # and the header, status and prompt lines
        body = _body(view, (tracks, oled), drawn, columns, room)
        if body is None:
            continue
        spare = room - len(body)
        more_words = min(spare, MAX_WORDS - least_words, len(words) - least_words)
        more_legend = min(spare - more_words, len(legend) - least_legend)
        gaps = min(spare - more_words - more_legend, 3)  # blank lines between the parts, when there is room
        head = [_header(view.journal, columns), *[""] * (gaps >= 2)]
        tail = [*[""] * (gaps >= 1), _cut(view.status, columns), *words[:least_words + more_words],
                _cut(view.prompt, columns), *[""] * (gaps >= 3), *legend[:least_legend + more_legend]]
        return [*((Segment(t),) for t in head), *body, *((Segment(t),) for t in tail)]
    return None


def _body(view: View, sections: tuple[Section, ...], drawn: dict[Section, list[Line]],
          columns: int, rows: int) -> list[Line] | None:
    """The sections one under the other, if they fit in ``columns`` x ``rows``."""
    body: list[Line] = []
    for section in sections:
        if section not in drawn:
            drawn[section] = section(view)
        body += drawn[section]
        if _width(drawn[section]) > columns or len(body) > rows:
            return None
    return body


def minimum_size(view: View) -> tuple[int, int]:
    """The smallest terminal that holds ``view`` (its smallest arrangement, one line of words and keys)."""
    tracks, oled = ARRANGEMENTS[-1]
    body = [*tracks(view), *oled(view)]
    return max(_width(body), 40), len(body) + 5


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


def _width(lines: Sequence[Line]) -> int:
    return max((len(line_text(line)) for line in lines), default=0)


def _cut(text: str, columns: int) -> str:
    return text if len(text) <= columns else text[:max(columns - 1, 0)] + "…"


def _wrapped(lines: Sequence[str], columns: int) -> list[str]:
    """Each line wrapped at spaces to ``columns`` (a word longer than that is cut); at least one line."""
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
