"""The OLED screens on displays of other sizes: goldens at 128x32 and 256x64, and for every
screen at every size, text in whole characters inside the image, wrapped or paged, never lost."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribpi.exc import ViewError
from cribpi.rules import DECK, Card, ScoreItem
from cribpi.views import DEFAULT_SIZE, pages, render_screen, show_pages
from cribpi.views.fonts import BitmapFont
from cribpi.views.model import (
    AlertScreen, MenuScreen, MessageScreen, PlayScreen, PromptScreen, ScoreLine, ScoreRow,
    ScoreScreen, ScoresScreen, ShowScreen,
)
from cribpi.views.oled import draw_screen

from test_views_oled import SCREENS, SHOW, cards

SIZES = [(128, 32), (256, 64)]
ODD_SIZES = [(128, 128), (192, 48), (160, 40)]

#: Screens whose text needs more room than the goldens in test_views_oled give it.
MORE = {
    "play_long": PlayScreen(15, "Alice", ScoreLine("Bob", 8, "fifteen two, and a pair royal is eight")),
    "play_note": PlayScreen(24, "Carol", None, "to claim: Alice, Bob"),
    "show_claimed": ShowScreen("Carol crib", (ScoreItem("fifteen", cards("5H TD"), 2),
                                              ScoreItem("pair", cards("5H 5S"), 2)), 4, claimed=2),
    "play_starter": PlayScreen(15, "Dan & Eve", ScoreLine("Bob", 2, "fifteen two"), starter=Card.parse("QH"),
                               laid=("Bob", Card.parse("5C"))),
    "play_laid_long": PlayScreen(7, "Ann", None, starter=Card.parse("2S"), laid=("Dan & Eve", Card.parse("7D"))),
    "score_play": ScoreScreen("Bob", 2, ("fifteen two",), count=15, turn="Dan & Eve"),
    "score_play_starter": ScoreScreen("Dan & Eve", 12, ("a pair royal is six, and a double run",), count=21,
                                      turn="Carol", starter=Card.parse("QH")),
    "alert_game": AlertScreen("GAME!", ("Alice wins 121-85: skunk, 2 game points",)),
    "alert_items": AlertScreen("MUGGINS!", ("Bob claimed 4 of 6: muggins for 2?", "pair 5H 5S 2", "fifteen 5H TD 2")),
    "scores_four": ScoresScreen(tuple(ScoreRow(n, s, g) for n, s, g in
                                      [("Alice", 97, 2), ("Bob", 121, 3), ("Carol", 58, 0), ("Dan", 7, 6)])),
    "prompt_crib": PromptScreen("Crib cards", "5H 7D 8S 9C", hint="4/4 entered"),
    "message_deal": MessageScreen(("Deal counted.", "OK: next deal"), "Deal done"),
    # in the play an alert and a message say the count at the foot, as a play score does
    "alert_play": AlertScreen("Renege", ("Bob said go at 30 holding AD, which fitted", "ACC 7.3: Ann may claim 2 a card",
                                         "MENU: Renege, play back"), count=1, turn="Ann"),
    "message_play": MessageScreen(("took back: Ann lays 5C",), "Undone", count=10, turn="Dan & Eve"),
    # board mode at rest: what PEG does, as other screens say the next press
    "scores_board": ScoresScreen((ScoreRow("Red", 97), ScoreRow("Blue", 121, 1), ScoreRow("Green", 58)), "Board",
                                 hint="PEG to peg, OK: next deal"),
    "scores_board_four": ScoresScreen(tuple(ScoreRow(n, s) for n, s in [("Red", 97), ("Blue", 121), ("Green", 58),
                                                                         ("Yellow", 7)]), "Board",
                                      hint="PEG to peg, OK: next deal"),
    "show_flush": ShowScreen("Carol crib", (ScoreItem("double pair royal", cards("5H 5S 5D 5C"), 12),
                                            ScoreItem("flush", cards("2H 4H 6H 8H TH"), 5)), 17),
}
ALL = {**SCREENS, **MORE}


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def paged(screen, page: int):
    return dataclasses.replace(screen, page=page)


@pytest.mark.parametrize("name", sorted(MORE))
def test_more_screens_match_golden_at_128x64(name, golden):
    golden.png(f"oled_{name}", render_screen(MORE[name]))


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", sorted(ALL))
def test_screen_matches_golden_at_other_sizes(name, size, golden):
    image = render_screen(ALL[name], size)
    assert image.size == size and image.mode == "1"
    golden.png(f"oled_{size_id(size)}_{name}", image)


def test_the_second_page_of_a_long_alert_on_a_low_display(golden):
    screen = MORE["alert_items"]
    assert pages(screen, (128, 32)) == 2 and pages(screen) == 1
    golden.png("oled_128x32_alert_items_page2", render_screen(paged(screen, 1), (128, 32)))


def test_the_default_size_is_128x64():
    assert DEFAULT_SIZE == (128, 64)
    screen = SCREENS["play_count"]
    assert render_screen(screen).tobytes() == render_screen(screen, (128, 64)).tobytes()


def test_show_pages_depend_on_the_display():
    assert show_pages(SHOW) == show_pages(SHOW, (256, 64)) == 2  # five items a page
    assert show_pages(SHOW, (128, 32)) == 3  # three
    assert show_pages(SHOW, (128, 128)) == 1
    with pytest.raises(ViewError, match="page 2 of a 2-page show"):
        render_screen(paged(SHOW, 2))
    render_screen(paged(SHOW, 2), (128, 32))  # the third page exists there


def test_too_small_or_bad_sizes_are_refused():
    with pytest.raises(ViewError, match="at least 128x32"):
        render_screen(SCREENS["play_count"], (96, 16))
    with pytest.raises(ViewError, match="width, height"):
        render_screen(SCREENS["play_count"], "big")  # type: ignore[arg-type]


def test_a_page_past_the_last_is_refused_for_every_paged_screen():
    for screen in (SCREENS["score"], SCREENS["alert_muggins"], SCREENS["message"]):
        with pytest.raises(ViewError, match="page 1 of a 1-page"):
            render_screen(paged(screen, 1))


@pytest.fixture
def draws(monkeypatch):
    """Every string a font draws, with where and on what image."""
    calls = []
    original = BitmapFont.draw

    def spy(font, image, xy, text, fill=1):
        calls.append((font, image.size, xy, text))
        original(font, image, xy, text, fill)

    monkeypatch.setattr(BitmapFont, "draw", spy)
    return calls


def assert_whole_characters_inside(calls) -> None:
    for font, (width, height), (x, y), text in calls:
        assert 0 <= x and x + font.text_width(text) <= width, f"{text!r} at x={x} leaves a {width}-pixel image"
        assert 0 <= y and y + font.height <= height, f"{text!r} at y={y} leaves a {height}-pixel image"


@pytest.mark.parametrize("size", [DEFAULT_SIZE, *SIZES, *ODD_SIZES], ids=size_id)
def test_every_page_of_every_screen_fits_in_whole_characters(size, draws):
    for name, screen in ALL.items():
        for page in range(pages(screen, size)):
            shown = paged(screen, page) if hasattr(screen, "page") else screen
            draws.clear()
            canvas = draw_screen(shown, size)
            assert canvas.dropped == [], (name, page)
            assert_whole_characters_inside(draws)


WORDS = st.text(alphabet="abcdefghij ,:", min_size=1, max_size=12)
SENTENCE = st.lists(WORDS, min_size=1, max_size=12).map(" ".join)
BODY = st.lists(SENTENCE, min_size=0, max_size=5).map(tuple)
NAME = st.sampled_from(["Ann", "Bob", "Carol", "Dan & Eve"])


@st.composite
def screens(draw):
    kind = draw(st.sampled_from(["score", "alert", "message", "play", "prompt"]))
    if kind == "score":
        played = draw(st.booleans())  # a play score has a footer: the count and whose turn
        return ScoreScreen(draw(NAME), draw(st.integers(0, 29)), draw(BODY), count=draw(st.integers(0, 31)) if played else None,
                           turn=draw(NAME) if played else "", starter=draw(st.sampled_from(DECK[:8])) if played else None)
    if kind == "alert":
        return AlertScreen(draw(st.sampled_from(["MUGGINS!", "Overclaim", "GAME!"])), draw(BODY))
    if kind == "message":
        return MessageScreen(draw(BODY), draw(st.sampled_from(["", "Deal done"])))
    if kind == "play":
        return PlayScreen(draw(st.integers(0, 31)), draw(NAME), ScoreLine(draw(NAME), draw(st.integers(1, 12)), draw(SENTENCE)),
                          starter=draw(st.sampled_from([None, *DECK[:8]])),
                          laid=draw(st.sampled_from([None, *((name, DECK[9]) for name in ["Ann", "Carol", "Dan & Eve"])])))
    return PromptScreen(draw(st.sampled_from(["Crib cards", "Bob claims", "Cut:"])), draw(st.text("5HDCS 7", max_size=14)),
                        draw(SENTENCE.filter(lambda s: len(s) < 50)))


@settings(max_examples=150, deadline=None)
@given(screen=screens(), size=st.sampled_from([DEFAULT_SIZE, *SIZES, *ODD_SIZES]))
def test_any_text_is_wrapped_or_paged_and_never_lost(screen, size):
    """Body text is never shortened or dropped; a play score too long for its rows loses its
    whole reason (``Bob 8``) rather than part of it."""
    for page in range(pages(screen, size)):
        shown = paged(screen, page) if hasattr(screen, "page") else screen
        canvas = draw_screen(shown, size)
        assert canvas.dropped == [] and canvas.shortened == []


def test_a_play_score_too_long_for_the_display_keeps_who_and_how_many(draws):
    screen = PlayScreen(20, "Ann", ScoreLine("Bob", 12, " ".join(["a double pair royal is twelve"] * 4)))
    render_screen(screen, (128, 64))
    assert [text for *_, text in draws][-1] == "Bob 12"


def test_menus_scroll_to_the_selected_item_on_a_low_display(draws):
    render_screen(MenuScreen("Menu", ("a", "b", "c", "d"), 3), (128, 32))
    assert [text for *_, text in draws] == ["Menu", "c", "d"]


def test_a_prompt_and_hint_too_long_for_a_small_display_run_on_rather_than_drop():
    """Found by the property above: two prompt lines and three hint lines on a 4-row display."""
    screen = PromptScreen(prompt="Crib cards", entry="55555555555555", hint=": ::: ::::::: :::::::::::: : : :::::::::")
    canvas = draw_screen(screen, (128, 32))
    assert canvas.dropped == [] and canvas.shortened == []
