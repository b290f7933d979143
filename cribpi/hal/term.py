"""Terminal drawing for the simulator: LED frames as coloured blocks, the OLED as half blocks.

>>> from PIL import Image
>>> image = Image.new("1", (128, 64)); image.putpixel((0, 0), 1); image.putpixel((1, 1), 1)
>>> image_to_text(image).splitlines()[0][:3]
'▀▄ '
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from cribpi.views.leds import LedFrame
from cribpi.views.board import RGB

__all__ = ["image_to_text", "frame_to_ansi", "ansi_block", "RESET"]

RESET = "\x1b[0m"
_HALVES = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
OFF_DOT = "·"


def image_to_text(image: Image.Image) -> str:
    """A one-bit image as half-block characters: 2 pixel rows a line (128x64 -> 128x32)."""
    image = image.convert("1")
    width, height = image.size
    lines = []
    for y in range(0, height, 2):
        line = "".join(
            _HALVES[(bool(image.getpixel((x, y))), y + 1 < height and bool(image.getpixel((x, y + 1))))]
            for x in range(width)
        )
        lines.append(line)
    return "\n".join(lines)


def ansi_block(colour: RGB, truecolour: bool = True, char: str = "●", peak: int = 255) -> str:
    """One LED: ``char`` in its colour; an unlit LED is a dot in the terminal's colour."""
    if colour == (0, 0, 0):
        return OFF_DOT
    shown = _visible(colour, peak)
    if truecolour:
        r, g, b = shown
        return f"\x1b[38;2;{r};{g};{b}m{char}{RESET}"
    return f"\x1b[38;5;{_xterm256(shown)}m{char}{RESET}"


def _visible(colour: RGB, peak: int) -> RGB:
    """Lift LED levels for a screen: LEDs run dim, and the eye sees them on a root curve.

    The frame's brightest channel (``peak``) shows at 255, so dim marks and the rear peg stay
    dimmer than the front peg, as on the board.
    """
    r, g, b = (round(255 * (min(c, peak) / peak) ** 0.5) if peak else 0 for c in colour)
    return (r, g, b)


def _xterm256(colour: RGB) -> int:
    r, g, b = (round(c / 255 * 5) for c in colour)
    return 16 + 36 * r + 6 * g + b


def _rows(leds: Sequence[RGB], per_row: int) -> list[Sequence[RGB]]:
    return [leds[i : i + per_row] for i in range(0, len(leds), per_row)]


def frame_to_ansi(frame: LedFrame, per_row: int = 30, truecolour: bool = True) -> str:
    """Each track as rows of ``per_row`` holes (1-30, 31-60, ...), its game hole and counters."""
    peak = max((max(c) for c in frame.all_leds()), default=0)
    lines = []
    for number, track in enumerate(frame.tracks):
        games = "".join(ansi_block(c, truecolour, "■", peak) for c in frame.games[number])
        for row_number, row in enumerate(_rows(track, per_row)):
            first = row_number * per_row + 1
            label = f"T{number + 1} {first:>3} " if row_number == 0 else f"   {first:>3} "
            holes = "".join(ansi_block(c, truecolour, "●", peak) for c in row)
            lines.append(label + holes + (f"  games {games}" if row_number == 0 else ""))
    return "\n".join(lines)
