"""Terminal drawing for the simulator: LED frames as coloured segments (a hole a character, or
two in a compact track), the OLED as half blocks or braille.

>>> from PIL import Image
>>> image = Image.new("1", (128, 64)); image.putpixel((0, 0), 1); image.putpixel((1, 1), 1)
>>> image_to_text(image).splitlines()[0][:3]
'▀▄ '
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image

from cribpi.views.leds import LedFrame
from cribpi.views.board import RGB

__all__ = [
    "image_to_text", "image_to_braille", "Segment", "Line", "frame_peak", "led", "led_pair", "compact_track", "PEG_GLYPHS",
    "game_counters", "track_rows", "label_width", "GAMES_LABEL", "line_text", "visible_colour", "xterm256", "frame_to_ansi", "RESET",
]

RESET = "\x1b[0m"
OFF_DOT = "·"
OFF: RGB = (0, 0, 0)
GAMES_LABEL = "  games "
MAX_LABEL = 9  # a full track's label at most ("Green 121")
_HALVES = " ▀▄█"  # by (top lit) + 2 * (bottom lit)
_BRAILLE = " " + "".join(chr(0x2800 + bits) for bits in range(1, 256))  # blank as a plain space
# Braille dot bits by (row, column) inside a 2x4 cell (Unicode's dot numbering 1-8).
_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def _lit_rows(image: Image.Image, multiple: int) -> tuple[bytes, int]:
    """The image as one byte a pixel (0xff lit, 0 dark), padded to a ``multiple`` of rows.

    ``convert("1")`` first, so a grey or colour image is thresholded exactly as before."""
    grey = image.convert("1").convert("L")
    width, height = grey.size
    return grey.tobytes() + bytes(width * (-height % multiple)), width


def _or_planes(planes: list[bytes], bits: tuple[int, ...]) -> bytes:
    """Each plane's lit bytes as its bit, ORed together: one C-level pass a plane, no pixel loop."""
    total = 0
    for plane, bit in zip(planes, bits):
        total |= int.from_bytes(plane.translate(bytes.maketrans(b"\xff", bytes([bit]))), "big")
    return total.to_bytes(len(planes[0]), "big")


def _lines(codes: bytes, chars: str, width: int) -> str:
    text = codes.decode("latin-1").translate(dict(enumerate(chars)))
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))


def image_to_text(image: Image.Image) -> str:
    """A one-bit image as half-block characters: 2 pixel rows a line (128x64 -> 128x32)."""
    data, width = _lit_rows(image, 2)
    step = 2 * width
    planes = [b"".join(data[i + offset : i + offset + width] for i in range(0, len(data), step))
              for offset in (0, width)]
    return _lines(_or_planes(planes, (1, 2)), _HALVES, width)


def image_to_braille(image: Image.Image) -> str:
    """A one-bit image as braille: 2x4 pixels a character (128x64 -> 64x16), for a small terminal."""
    data, width = _lit_rows(image, 4)
    data = b"".join(row + bytes(width % 2) for row in (data[i : i + width] for i in range(0, len(data), width)))
    width += width % 2
    step = 4 * width
    planes: list[bytes] = []
    bits: list[int] = []
    for row, row_bits in enumerate(_BRAILLE_BITS):
        rows = b"".join(data[i + row * width : i + (row + 1) * width] for i in range(0, len(data), step))
        planes += [rows[0::2], rows[1::2]]
        bits += row_bits
    return _lines(_or_planes(planes, tuple(bits)), _BRAILLE, width // 2)


class Segment(NamedTuple):
    """Text in one colour (``None``: the terminal's own): what a line of the simulator is made of."""

    text: str
    fg: RGB | None = None
    bg: RGB | None = None


Line = tuple[Segment, ...]


def frame_peak(frame: LedFrame) -> int:
    """The frame's brightest channel: it shows at full strength on the screen."""
    return max((max(c) for c in frame.all_leds()), default=0)


@functools.lru_cache(maxsize=4096)  # a frame has a few colours in many holes
def led(colour: RGB, peak: int, char: str = "●") -> Segment:
    """One LED: ``char`` in its colour; an unlit LED is a dot in the terminal's colour."""
    return Segment(OFF_DOT) if colour == OFF else Segment(char, visible_colour(colour, peak))


@functools.lru_cache(maxsize=4096)
def led_pair(left: RGB, right: RGB, peak: int) -> Segment:
    """Two holes in one character cell (a compact track): the left half in the left hole's
    colour and the right half in the right hole's, so every peg keeps its exact hole."""
    if left == OFF and right == OFF:
        return Segment(OFF_DOT)
    if right == OFF:
        return Segment("▌", visible_colour(left, peak))
    if left == OFF:
        return Segment("▐", visible_colour(right, peak))
    if left == right:
        return Segment("█", visible_colour(left, peak))
    return Segment("▌", visible_colour(left, peak), visible_colour(right, peak))


#: Each track's peg glyphs in a compact track, by where its pegs are in the cell: (the left hole,
#: the right hole, both). A peg is shown by its shape as well as its colour, so a capture in
#: plain text (or a colour-blind eye) tells a peg from a mark and one track's pegs from another's.
PEG_GLYPHS = (("◐", "◑", "●"), ("◭", "◮", "▲"), ("◧", "◨", "■"), ("◩", "◪", "◆"))


def compact_track(track: Sequence[RGB], peak: int, pegs: Sequence[int] = (), number: int = 0) -> Line:
    """A whole track on one line: two holes a character (121 holes in 61 columns). A cell
    holding one of ``pegs`` (holes, 0: off the board) shows track ``number``'s peg glyph
    (:data:`PEG_GLYPHS`) in the peg's colour, its half telling which hole."""
    padded = [*track, OFF] if len(track) % 2 else list(track)
    glyphs, held = PEG_GLYPHS[number % len(PEG_GLYPHS)], {hole for hole in pegs if hole > 0}
    cells = []
    for i in range(0, len(padded), 2):
        left, right = i + 1 in held and padded[i] != OFF, i + 2 in held and padded[i + 1] != OFF
        if left or right:
            glyph = glyphs[2 if left and right else 0 if left else 1]
            cells.append(Segment(glyph, visible_colour(padded[i + 1] if right and not left else padded[i], peak)))
        else:
            cells.append(led_pair(padded[i], padded[i + 1], peak))
    return tuple(cells)


def game_counters(frame: LedFrame, track: int, peak: int) -> Line:
    return tuple(led(c, peak, "■") for c in frame.games[track])


def track_rows(frame: LedFrame, per_row: int = 30, labels: Sequence[str] = ()) -> list[Line]:
    """Each track as rows of ``per_row`` holes (1-30, 31-60, ...), its game hole and counters;
    its first row starts with its label (``T1`` unless ``labels`` gives one a track)."""
    peak = frame_peak(frame)
    width = label_width(labels)
    lines: list[Line] = []
    for number, track in enumerate(frame.tracks):
        name = labels[number] if number < len(labels) else f"T{number + 1}"
        for first in range(0, len(track), per_row):
            label = f"{name[:width - 1] if first == 0 else '':<{width}}{first + 1:>3} "
            holes = tuple(led(c, peak) for c in track[first : first + per_row])
            games = (Segment(GAMES_LABEL), *game_counters(frame, number, peak)) if first == 0 else ()
            lines.append((Segment(label), *holes, *games))
    return lines


def label_width(labels: Sequence[str] = ()) -> int:
    """The room before a full track's hole numbers: ``T1 `` or the longest label and a space."""
    return min(max((len(label) for label in labels), default=2), MAX_LABEL) + 1


def line_text(line: Line) -> str:
    return "".join(segment.text for segment in line)


def visible_colour(colour: RGB, peak: int) -> RGB:
    """Lift LED levels for a screen: LEDs run dim, and the eye sees them on a root curve.

    The frame's brightest channel (``peak``) shows at 255, so dim marks and the rear peg stay
    dimmer than the front peg, as on the board.
    """
    r, g, b = (round(255 * (min(c, peak) / peak) ** 0.5) if peak else 0 for c in colour)
    return (r, g, b)


def xterm256(colour: RGB) -> int:
    """The nearest colour of the xterm 256-colour cube."""
    r, g, b = (round(c / 255 * 5) for c in colour)
    return 16 + 36 * r + 6 * g + b


def _ansi(segment: Segment, truecolour: bool) -> str:
    if segment.fg is None:
        return segment.text
    if truecolour:
        r, g, b = segment.fg
        return f"\x1b[38;2;{r};{g};{b}m{segment.text}{RESET}"
    return f"\x1b[38;5;{xterm256(segment.fg)}m{segment.text}{RESET}"


def frame_to_ansi(frame: LedFrame, per_row: int = 30, truecolour: bool = True) -> str:
    """:func:`track_rows` with ANSI colours, for a log or a plain terminal."""
    return "\n".join("".join(_ansi(s, truecolour) for s in line) for line in track_rows(frame, per_row))
