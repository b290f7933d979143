from __future__ import annotations

import pytest

from cribpi.exc import ViewError
from cribpi.rules import ScoreItem
from cribpi.rules.cards import Card
from cribpi.views.fonts import BIG_DIGITS, BOLD, SMALL
from cribpi.views.model import (
    AlertScreen, MenuScreen, MessageScreen, PlayScreen, PromptScreen, ScoreLine, ScoreRow,
    ScoreScreen, ScoresScreen, ShowScreen,
)
from cribpi.views.oled import render_screen, score_text, show_pages


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(token) for token in text.split())


SHOW = ShowScreen(
    "Bob's hand, starter 5H",
    (
        ScoreItem("fifteen", cards("5H JS"), 2),
        ScoreItem("fifteen", cards("5S JS"), 2),
        ScoreItem("fifteen", cards("5H 5S 5D"), 2),
        ScoreItem("pair", cards("5H 5S"), 2),
        ScoreItem("pair", cards("5H 5D"), 2),
        ScoreItem("pair", cards("5S 5D"), 2),
        ScoreItem("nobs", cards("JS"), 1),
    ),
    total=13,
)

SCREENS = {
    "play_count": PlayScreen(15, "Alice", ScoreLine("Bob", 2, "fifteen two")),
    "play_start": PlayScreen(0, "Bob"),
    "play_31": PlayScreen(31, "Alice", ScoreLine("Alice", 2, "thirty-one")),
    "score": ScoreScreen("Bob", 6, ("fifteen two, fifteen four and a pair is six",)),
    "show_page1": SHOW,
    "show_page2": ShowScreen(SHOW.title, SHOW.items, SHOW.total, page=1),
    "scores": ScoresScreen((ScoreRow("Alice", 97, 2), ScoreRow("Bob", 121, 3), ScoreRow("Carol", 58, 0))),
    "alert_muggins": AlertScreen("MUGGINS!", ("Bob missed 2: pair",)),
    "menu": MenuScreen("Menu", ("New game", "Undo", "Muggins: on", "Brightness", "Shut down", "About", "Quit"), 6),
    "message": MessageScreen(("Waiting for the controller on USB...",), title="cribpi"),
    "prompt_card": PromptScreen("Enter card:", "5", hint="then a suit: C D H S"),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_golden(name, golden):
    image = render_screen(SCREENS[name])
    assert image.size == (128, 64) and image.mode == "1"
    golden.png(f"oled_{name}", image)


def test_same_model_same_pixels():
    a, b = (render_screen(SCREENS["score"]) for _ in range(2))
    assert a.tobytes() == b.tobytes()


def test_show_pages():
    assert show_pages(SHOW) == 2
    assert show_pages(ShowScreen("crib", (), 0)) == 1
    with pytest.raises(ViewError, match="page 2 of a 2-page show"):
        render_screen(ShowScreen(SHOW.title, SHOW.items, SHOW.total, page=2))


def test_score_text():
    assert score_text(ScoreLine("Bob", 2, "fifteen two")) == "Bob 2: fifteen two"
    assert score_text(ScoreLine("Bob", 1)) == "Bob 1"


def test_unknown_screen_names_the_known_ones():
    with pytest.raises(ViewError, match="PlayScreen"):
        render_screen("hello")  # type: ignore[arg-type]


def test_model_checks():
    with pytest.raises(ViewError, match="0-31"):
        PlayScreen(32, "Bob")
    with pytest.raises(ViewError, match="selected=3"):
        MenuScreen("m", ("a", "b"), 3)


def test_fonts_are_complete_and_regular():
    for font in (SMALL, BOLD):
        for code in range(32, 127):
            rows = font.data.glyphs[chr(code)]
            assert len(rows) == font.data.height and {len(r) for r in rows} == {font.data.width}
    for char in "0123456789":
        assert char in BIG_DIGITS.data.glyphs
    assert SMALL.glyph("♥") != SMALL.glyph("?")


def test_text_off_the_edge_is_clipped():
    from PIL import Image

    image = Image.new("1", (10, 10))
    SMALL.draw(image, (-3, 8), "WWW")  # must not raise
