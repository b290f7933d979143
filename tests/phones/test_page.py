"""The seat page in a real Chromium at a phone's size, with touch: it joins a seat with the
PIN, shows the board and the table's words, keys a card with one tap, shows a key that does
nothing now as disabled with why, and shows a name as text, never as HTML."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.phones.tables import NAMES, Table, to_play

pytestmark = pytest.mark.phone


@pytest.fixture
def phone(chromium_once: Any, table: Table) -> Iterator[Any]:
    context = chromium_once.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(str(table.http.base_url) + "/")
    yield page
    context.close()
    assert errors == []


def test_a_phone_joins_and_keys_its_own_cards(table: Table, phone: Any) -> None:
    def rename() -> None:
        ui = table.app.ui
        ui.settings = dataclasses.replace(ui.settings, names=("<b>Ann</b>", NAMES[1]))
        ui.new_game()
        table.app.publish((), ())
    table.in_loop(rename)
    phone.reload()
    seat = phone.locator("#seats button").first
    seat.wait_for()
    assert seat.inner_text().startswith("<b>Ann</b>")  # the name as text, not bold HTML
    assert phone.locator("#seats b").count() == 0
    phone.fill("#pin", table.server.pin)
    seat.tap()
    phone.locator("#pad").wait_for()
    assert "seat 1" in phone.inner_text("#who")
    phone.tap("#ok")  # the cut, from the phone
    table.wait_state(lambda s: s["dealer"] is not None)
    while table.state()["screen"]["kind"] != "PromptScreen":
        table.board("ok")
        table.in_loop(lambda: None)
    dealer = table.state()["dealer"]
    five = phone.locator("#cards button", has_text="5\u2665")
    if dealer != 0:  # the starter is the dealer's: Ann's key is off, saying so
        phone.locator("#why", has_text="dealer").wait_for()
        assert five.is_disabled()
        table.board("card 5H")
    else:
        five.tap()
    table.wait_state(lambda s: s["starter"] == "5H")
    phone.locator("#starter", has_text=re.compile(r"^starter 5H$")).wait_for()
    if table.state()["turn"] == 0:
        phone.locator("#cards button", has_text="10\u2660").tap()
        phone.locator("#count", has_text=re.compile(r"^count 10$")).wait_for()
    else:
        phone.locator("#why", has_text="lays next").wait_for()
        assert phone.locator("#cards button", has_text="10\u2660").is_disabled()
    assert phone.locator("#board .track").count() == 2
    undo = phone.inner_text("#keywhy")  # the keys that are off say why, in words a phone shows
    assert "UNDO: the last event is not yours" in undo or "GO:" in undo, undo


def test_a_watcher_sees_the_board_without_keys(table: Table, chromium_once: Any) -> None:
    context = chromium_once.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        watch = context.new_page()
        watch.goto(str(table.http.base_url) + "/watch")
        watch.locator("#link", has_text=re.compile(r"^watching$")).wait_for()  # (a string function: the page's CSP forbids eval)
        watch.locator("#board .track").first.wait_for()
        assert watch.locator("#board .track").count() == 2
        assert watch.locator("#pad").is_hidden() and watch.locator("#join").is_hidden()
    finally:
        context.close()


def test_the_pegs_are_drawn_to_the_games_length(table: Table, phone: Any) -> None:
    """In a 61-point game a peg at 2 is 2/61 of the way along its bar, not 2/121."""
    tokens, dealer, pone = to_play(table, game_length=61)
    assert table.act(tokens[str(pone)], "card 7C").status_code == 200
    assert table.act(tokens[str(dealer)], "card 8C").status_code == 200  # fifteen two
    now = table.wait_state(lambda s: s["tracks"][dealer]["front"] == 2)
    assert now["length"] == 61
    phone.goto(str(table.http.base_url) + "/watch")
    peg = phone.locator("#board .track").nth(dealer).locator(".peg:not(.rear)")
    peg.wait_for()
    assert float(peg.evaluate("p => p.style.left").rstrip("%")) == pytest.approx(2 / 61 * 100, abs=1e-4)  # 121: 1.65
