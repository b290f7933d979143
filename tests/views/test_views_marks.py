"""Status marks: a small glyph in the top right corner of any screen (the table out of reach of
its tournament broker: ``offline``; a part still missing: ``missing``), the rest of the screen
as it was."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from cribpi.exc import ViewError
from cribpi.rules import Card
from cribpi.views.fonts import SMALL
from cribpi.views.model import MessageScreen, PlayScreen, ScoreScreen
from cribpi.views.oled import MARKS, render_screen


def _lit(image, box):  # type: ignore[no-untyped-def]
    left, top, right, bottom = box
    return ["".join("#" if image.getpixel((x, y)) else "." for x in range(left, right)) for y in range(top, bottom)]


@pytest.mark.parametrize("size", [(128, 64), (128, 32), (256, 64)])
def test_the_offline_mark_is_its_glyph_in_the_corner_and_nothing_else_changes(size: tuple[int, int]) -> None:
    screen = MessageScreen(("the game is kept",) * 6, "A title long enough to reach the corner")
    plain, marked = render_screen(screen, size), render_screen(screen, size, {"offline"})
    width = size[0]
    assert _lit(marked, (width - 7, 0, width, 7)) == list(MARKS["offline"])
    assert _lit(marked, (width - 8, 0, width - 7, 8)) == ["."] * 8 and _lit(marked, (width - 8, 7, width, 8)) == ["." * 8]
    changed = ImageChops.difference(plain.convert("L"), marked.convert("L")).getbbox()
    assert changed is not None and changed[0] >= width - 8 and changed[3] <= 8  # only inside the mark's box
    assert _lit(plain, (width - 8, 0, width, 8)) != _lit(marked, (width - 8, 0, width, 8))  # the title ran there


def test_on_the_play_screen_the_mark_sits_left_of_the_starter(golden) -> None:  # type: ignore[no-untyped-def]
    screen = PlayScreen(count=15, turn="Ann", starter=Card.parse("5H"))
    plain, marked = render_screen(screen), render_screen(screen, marks={"offline"})
    starter = 128 - SMALL.text_width("5H")
    assert _lit(marked, (starter, 0, 128, 8)) == _lit(plain, (starter, 0, 128, 8)) != ["." * (128 - starter)] * 8
    assert _lit(marked, (starter - 8, 0, starter - 1, 7)) == list(MARKS["offline"])
    golden.png("oled_mark_offline_play", marked)


def test_on_a_play_score_the_mark_leaves_the_starter_in_view() -> None:
    screen = ScoreScreen("Ann", 2, ("fifteen two",), count=15, turn="Bob", starter=Card.parse("JD"))
    plain, marked = render_screen(screen), render_screen(screen, marks={"offline"})
    starter = 128 - SMALL.text_width("JD")
    assert _lit(marked, (starter, 0, 128, 8)) == _lit(plain, (starter, 0, 128, 8)) != ["." * (128 - starter)] * 8
    assert _lit(marked, (starter - 8, 0, starter - 1, 7)) == list(MARKS["offline"])


def test_an_unknown_mark_is_refused_by_name() -> None:
    with pytest.raises(ViewError, match="no status mark 'busy': marks are offline, missing"):
        render_screen(MessageScreen(("x",)), marks={"busy"})


def test_the_missing_mark_sits_at_the_corner_and_the_offline_mark_left_of_it() -> None:
    screen = PlayScreen(count=15, turn="Ann", starter=Card.parse("5H"))
    plain, marked = render_screen(screen), render_screen(screen, marks={"missing", "offline"})
    starter = 128 - SMALL.text_width("5H")
    assert _lit(marked, (starter, 0, 128, 8)) == _lit(plain, (starter, 0, 128, 8))  # the starter kept
    assert _lit(marked, (starter - 8, 0, starter - 1, 7)) == list(MARKS["missing"])
    assert _lit(marked, (starter - 17, 0, starter - 10, 7)) == list(MARKS["offline"])
    changed = ImageChops.difference(plain.convert("L"), marked.convert("L")).getbbox()
    assert changed is not None and changed[3] <= 8  # the top row only: the count and the score as they were
