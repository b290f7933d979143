"""LED frames and OLED images as pictures, for docs and bug reports (``cribpi render``).

Pure: returns Pillow images; the caller saves them.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from cribpi.views.leds import LedFrame

__all__ = ["board_picture", "oled_picture"]

HOLE = 14  # pixels from one hole to the next
ROW = 30  # holes a row, as on a board's straight


def board_picture(frame: LedFrame, background: tuple[int, int, int] = (58, 40, 24)) -> Image.Image:
    """The tracks as rows of 30 holes (a wooden board seen from above), lit holes in colour."""
    rows_per_track = 5  # 1-30, 31-60, 61-90, 91-120, and the game hole with the game counters
    width = HOLE * (ROW + 2)
    height = HOLE * (rows_per_track * len(frame.tracks) + len(frame.tracks) + 1)
    image = Image.new("RGB", (width, height), background)
    draw = ImageDraw.Draw(image)
    for number, track in enumerate(frame.tracks):
        top = HOLE * (1 + number * (rows_per_track + 1))
        for hole, colour in enumerate(track, start=1):
            row, col = divmod(hole - 1, ROW)
            _dot(draw, HOLE * (col + 1), top + HOLE * row, colour)
        for i, colour in enumerate(frame.games[number]):
            _dot(draw, HOLE * (ROW - len(frame.games[number]) + i + 1), top + HOLE * 4, colour)
    return image


def _dot(draw: ImageDraw.ImageDraw, x: int, y: int, colour: tuple[int, int, int]) -> None:
    lit = colour != (0, 0, 0)
    shown = tuple(min(255, round(255 * (c / 255) ** 0.5)) for c in colour) if lit else (20, 14, 8)
    r = 5 if lit else 3
    draw.ellipse((x - r, y - r, x + r, y + r), fill=shown)


def oled_picture(image: Image.Image, scale: int = 3) -> Image.Image:
    """A one-bit screen (of any size) enlarged, white on near-black like the panel."""
    grey = image.convert("L").point(lambda v: 235 if v else 12)
    return grey.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
