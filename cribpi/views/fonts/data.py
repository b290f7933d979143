"""The shape of a bitmap font kept as data (rows of ``#`` and ``.``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BitmapFontData:
    """A fixed-cell bitmap font: every glyph is ``width`` x ``height`` pixels."""

    name: str
    width: int
    height: int
    ascent: int
    glyphs: dict[str, tuple[str, ...]]
