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

__all__ = ["image_to_text", "image_to_braille", "frame_to_ansi", "ansi_block", "RESET"]

RESET = "\x1b[0m"
OFF_DOT = "·"
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
    planes, bits = [], []
    for row, row_bits in enumerate(_BRAILLE_BITS):
        rows = b"".join(data[i + row * width : i + (row + 1) * width] for i in range(0, len(data), step))
        planes += [rows[0::2], rows[1::2]]
        bits += row_bits
    return _lines(_or_planes(planes, tuple(bits)), _BRAILLE, width // 2)


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
