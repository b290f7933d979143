"""The bitmap fonts draw through cached glyph masks: the pixels must be exactly those of the
glyph rows set one pixel at a time, wherever the text lands (across every edge) and in either
colour."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from cribpi.views.fonts import BIG_DIGITS, BOLD, SMALL, BitmapFont
from cribpi.views.oled import MID_DIGITS

FONTS = (SMALL, BOLD, BIG_DIGITS, MID_DIGITS)


def draw_by_pixels(font: BitmapFont, image: Image.Image, xy: tuple[int, int], text: str, fill: int) -> None:
    """The statement of what a font draws: each ``#`` of a glyph row a ``scale``-square block,
    pixels off the image dropped, one cell width a character."""
    width, height = image.size
    x0, y0 = xy
    s = font.scale
    for char in text:
        for dy, row in enumerate(font.glyph(char)):
            for dx, bit in enumerate(row):
                if bit == "#":
                    for py in range(max(y0 + dy * s, 0), min(y0 + dy * s + s, height)):
                        for px in range(max(x0 + dx * s, 0), min(x0 + dx * s + s, width)):
                            image.putpixel((px, py), fill)
        x0 += font.width


def _pair(background: int) -> tuple[Image.Image, Image.Image]:
    return Image.new("1", (128, 64), background), Image.new("1", (128, 64), background)


@settings(max_examples=300, deadline=None)
@given(
    font=st.sampled_from(FONTS),
    text=st.text(alphabet=st.sampled_from(sorted(set(SMALL.data.glyphs) | set("0123456789 ?é\t"))), max_size=30),
    x=st.integers(-45, 140),
    y=st.integers(-45, 70),
    fill=st.sampled_from((0, 1)),
)
def test_masks_draw_the_pixels_of_the_glyph_rows(font: BitmapFont, text: str, x: int, y: int, fill: int) -> None:
    fast, slow = _pair(1 - fill)
    font.draw(fast, (x, y), text, fill)
    draw_by_pixels(font, slow, (x, y), text, fill)
    assert fast.tobytes() == slow.tobytes()


def test_every_glyph_of_every_font_at_each_corner() -> None:
    for font in FONTS:
        text = "".join(sorted(font.data.glyphs))
        for xy in ((0, 0), (-3, -2), (128 - font.width + 2, 64 - font.height + 3), (5, 30)):
            fast, slow = _pair(0)
            font.draw(fast, xy, text)
            draw_by_pixels(font, slow, xy, text, 1)
            assert fast.tobytes() == slow.tobytes(), (font.data.name, xy)
            assert font is not SMALL or xy != (0, 0) or fast.getbbox() is not None  # something was drawn


def test_a_missing_character_is_drawn_as_a_question_mark() -> None:
    unknown, question = _pair(0)
    SMALL.draw(unknown, (10, 10), "\u2603")
    SMALL.draw(question, (10, 10), "?")
    assert unknown.tobytes() == question.tobytes() and unknown.getbbox() is not None
