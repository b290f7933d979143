"""Names as players write them: the OLED's text fonts draw every Latin-1 and Latin
Extended-A letter (U+00A0-U+017F) as itself, never as the ``?`` of a missing glyph ("Zoë" once
drew as "Zo?"), accented letters unlike their bare letters where the cell has room, and the
font data is what the repository's generator makes from the X.Org fonts."""

from __future__ import annotations

import io
import os
import unicodedata
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from PIL import Image

from cribpi.views.fonts import BOLD, SMALL, BitmapFont

LATIN = [chr(c) for c in range(0xA0, 0x180)]
LETTERS = [c for c in LATIN if unicodedata.category(c).startswith("L")]
ASCII_LETTERS = [chr(c) for c in range(ord("A"), ord("z") + 1) if chr(c).isalpha()]
FONTS = pytest.mark.parametrize("font", [SMALL, BOLD], ids=["5x7", "6x13B"])
MISC = Path("/usr/share/fonts/X11/misc")  # Debian's xfonts-base (.ci/bootstrap installs it)


def drawn(font: BitmapFont, text: str) -> bytes:
    image = Image.new("1", (font.width * 8, font.height), 0)
    font.draw(image, (0, 0), text)
    return image.tobytes()


def base_letter(char: str) -> str:
    """The letter under the accents: ``ë`` -> ``e``; ``char`` itself when it has none."""
    return unicodedata.normalize("NFD", char)[0]


@FONTS
def test_every_latin_1_and_extended_a_character_has_its_own_glyph_not_the_question_mark(font: BitmapFont) -> None:
    question = drawn(font, "?")
    missing = [c for c in LATIN if c not in font.data.glyphs]
    assert not missing, f"{font.data.name} lacks {''.join(missing)}"
    as_question = [c for c in LATIN if drawn(font, c) == question]
    assert not as_question, f"{font.data.name} draws {''.join(as_question)} as '?'"
    assert len(LETTERS) == 193  # À-ÿ's letters (with ª, µ, º) and all of Ā-ſ


@FONTS
def test_zoe_draws_as_zoe_composed_or_not(font: BitmapFont) -> None:
    assert drawn(font, "Zoë") != drawn(font, "Zo?") and drawn(font, "Zoë") != drawn(font, "Zoe")
    assert drawn(font, "Zoe\u0308") == drawn(font, "Zoë")  # e + combining diaeresis: one cell
    assert font.text_width("Zoe\u0308") == font.text_width("Zoë") == 3 * font.width


def test_bold_draws_every_letter_unlike_every_other() -> None:
    seen: dict[bytes, str] = {}
    for char in ASCII_LETTERS + LETTERS:
        pixels = drawn(BOLD, char)
        assert pixels not in seen, f"6x13B draws {char!r} as {seen[pixels]!r}"
        seen[pixels] = char


@FONTS
def test_an_accented_letter_is_not_drawn_as_its_bare_letter_where_the_cell_has_room(font: BitmapFont) -> None:
    """Every one in 6x13B; in 5x7 every small letter (a capital fills 6 of its 7 rows: the font
    keeps the accent only on a few, Ä Ö Ü Å Ñ)."""
    accented = [c for c in LETTERS if base_letter(c) != c and (font is BOLD or c.islower())]
    assert len(accented) > (120 if font is BOLD else 60)
    same = [c for c in accented if drawn(font, c) == drawn(font, base_letter(c))]
    assert not same, f"{font.data.name} draws {''.join(same)} as the bare letter"
    small = [c for c in ASCII_LETTERS + LETTERS if c.islower() and c not in "æœ"]  # æ, œ: one glyph in 5x7
    assert len({drawn(font, c) for c in small}) == len(small)


def test_the_font_data_is_what_the_generator_makes_from_the_x_org_fonts() -> None:
    """``python -m cribpi.views.fonts._convert MISC_FONT_DIR`` makes misc_fixed.py byte for byte."""
    if not (MISC / "5x7.pcf.gz").exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{MISC} has no 5x7.pcf.gz: install Debian's xfonts-base (.ci/bootstrap does)")
        pytest.skip("Debian's xfonts-base is not installed")
    from cribpi.views.fonts import _convert

    out = io.StringIO()
    with redirect_stdout(out):
        _convert.main(str(MISC))
    assert out.getvalue() == (Path(_convert.__file__).parent / "misc_fixed.py").read_text()


def test_a_seating_for_zoe_and_lukasz_draws_their_names_on_the_oled() -> None:
    """End to end, as a table shows the director's seating: the names' own letters, not '?'."""
    from cribpi.views.oled import render_screen
    from cribpi.views.seat import seat_screen

    def screen(names: list[str]) -> bytes:
        return render_screen(seat_screen(1, "t1", names, ["Red", "Blue"], 1)).tobytes()

    written = screen(["Zoë", "Łukasz"])
    assert written != screen(["Zo?", "?ukasz"]) and written != screen(["Zoe", "Lukasz"])
