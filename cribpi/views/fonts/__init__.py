"""Bitmap fonts shipped with cribpi, and the few lines that draw them.

Pillow's default font changed across versions, so the OLED screens never use it: the fonts are
data in this package (see ``README.md`` here for sources and licences), drawn from their own bits,
so a screen renders identically with any Pillow.

>>> SMALL.text_width("Count")
25
"""

from __future__ import annotations

import unicodedata

from PIL import Image

from cribpi.views.fonts.data import BitmapFontData
from cribpi.views.fonts.misc_fixed import BIG_DIGITS as _BIG_DIGITS
from cribpi.views.fonts.misc_fixed import BOLD as _BOLD
from cribpi.views.fonts.misc_fixed import SMALL as _SMALL

__all__ = ["BitmapFont", "SMALL", "BOLD", "BIG_DIGITS", "SUIT_GLYPHS_5X7"]

#: Suit symbols drawn for the 5x7 cell (cribpi's own, MIT like the project).
SUIT_GLYPHS_5X7: dict[str, tuple[str, ...]] = {
    "♣": (".##..", ".##..", "####.", "####.", ".##..", "####.", "....."),
    "♦": ("..#..", ".###.", "#####", ".###.", "..#..", ".....", "....."),
    "♥": (".#.#.", "#####", "#####", ".###.", "..#..", ".....", "....."),
    "♠": ("..#..", ".###.", "#####", "#####", "..#..", ".###.", "....."),
}


class BitmapFont:
    """A fixed-cell font; characters it lacks are drawn as ``?``. Text is drawn composed
    (NFC): a name typed as ``e`` and a combining diaeresis draws as the one cell ``ë``."""

    def __init__(self, data: BitmapFontData, scale: int = 1) -> None:
        self.data = data
        self.scale = scale
        self.width = data.width * scale
        self.height = data.height * scale
        self._masks: dict[str, Image.Image | None] = {}

    def text_width(self, text: str) -> int:
        return len(unicodedata.normalize("NFC", text)) * self.width

    def glyph(self, char: str) -> tuple[str, ...]:
        glyphs = self.data.glyphs
        return glyphs.get(char) or glyphs.get("?") or ("",)

    def draw(self, image: Image.Image, xy: tuple[int, int], text: str, fill: int = 1) -> None:
        """Draw ``text`` with its top-left corner at ``xy``; pixels off the image are dropped.

        Each glyph is pasted through its own 1-bit mask (made once per character), so a
        glyph costs one call into Pillow, not one per pixel: drawing a screen went from about
        4 ms to 0.2 ms. A test holds the masks to the glyph rows drawn pixel by pixel.
        """
        x, y = xy
        width = self.width
        masks = self._masks
        for char in unicodedata.normalize("NFC", text):
            try:
                mask = masks[char]
            except KeyError:
                mask = masks[char] = self._mask(char)
            if mask is not None:
                image.paste(fill, (x, y), mask)
            x += width

    def _mask(self, char: str) -> Image.Image | None:
        """The glyph as a mode-1 image of one cell, scaled; None if it sets no pixel."""
        rows = self.glyph(char)
        if not any("#" in row for row in rows):
            return None
        s = self.scale
        size = (max(len(row) for row in rows) * s, len(rows) * s)  # a glyph may overhang its cell
        mask = Image.new("1", size, 0)
        for dy, row in enumerate(rows):
            for dx, bit in enumerate(row):
                if bit == "#":
                    mask.paste(1, (dx * s, dy * s, dx * s + s, dy * s + s))
        return mask


def _with_suits(data: BitmapFontData) -> BitmapFontData:
    return BitmapFontData(
        data.name, data.width, data.height, data.ascent, {**data.glyphs, **SUIT_GLYPHS_5X7}
    )


#: 5x7 text font (25 characters a line on a 128-pixel screen), with suit symbols.
SMALL = BitmapFont(_with_suits(_SMALL))
#: 6x13 bold, for headings and the name of whose turn it is.
BOLD = BitmapFont(_BOLD)
#: 10x20 digits drawn at twice the size (20x40) for the running count.
BIG_DIGITS = BitmapFont(_BIG_DIGITS, scale=2)
