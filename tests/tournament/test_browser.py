"""The director's pages in Debian's headless Chromium (driven by Playwright, no browser
download): the wall and the leaderboard see a table's score change arrive live over a real
mosquitto and server-sent events. Screenshots of each page go to docs/img/."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from cribpi.tournament.director import Director
from cribpi.tournament.table.loadgen import play_match
from cribpi.tournament.director.web import LoginGate, create_app
from tests.tournament.conftest import Mosquitto, free_port
from tests.tournament.test_publisher import publisher, wait_for
from tests.tournament.test_room import director

pytestmark = [pytest.mark.mqtt, pytest.mark.browser]
DOCS_IMG = Path(__file__).parents[2] / "docs" / "img"


class Server:
    """uvicorn serving the director's pages on a free loopback port, in a thread."""

    def __init__(self, d: Director, gate: LoginGate | None = None) -> None:
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(create_app(d, gate=gate), host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        wait_for(lambda: self.server.started)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        # Without force_exit uvicorn waits for every open connection to end, and a page's live
        # stream never does: each stop cost its full 5 s timeout.
        self.server.should_exit = self.server.force_exit = True
        self.thread.join(5)
        assert not self.thread.is_alive(), "uvicorn did not stop"



def admin_page(browser: Any, server: Server, password: str) -> Any:
    """A new page on ``server``'s /admin, logged in with ``password`` by its form."""
    page = browser.new_page()
    page.goto(server.url("/admin"))
    page.fill("input[name=password]", password)
    page.click("button:text-is('Log in')")
    return page


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: docs/img/ with CRIBPI_SCREENSHOTS=1 (to refresh the docs' pictures),
    else a temporary folder (Chromium's anti-aliasing differs by a few pixels between runs)."""
    return DOCS_IMG if os.environ.get("CRIBPI_SCREENSHOTS") == "1" else tmp_path


@pytest.fixture
def browser(chromium_once: Any) -> Iterator[Any]:
    """The module's Chromium; each page a test opened (each in a context of its own: no cookie
    or storage is shared between tests) is closed after it."""
    yield chromium_once
    for context in chromium_once.contexts:
        context.close()


def test_the_wall_and_leaderboard_update_live(broker: Mosquitto, tmp_path: Path, browser: Any, shots: Path) -> None:
    d = director(broker)
    for name in ("Cat", "Dan", "Eve", "Fay", "Gus", "Hal"):
        d.register(name)
    server = Server(d)
    tables = [publisher(broker, tmp_path, f"t{n}") for n in range(1, 5)]
    for pub in tables:
        pub.start()
    seats = [("Ann", "Ben"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")]
    games = [play_match(names, random.Random(n), pub, 1) for n, (names, pub) in enumerate(zip(seats, tables))]
    try:
        page = browser.new_page(viewport={"width": 1200, "height": 700})
        page.goto(server.url("/"))
        page.wait_for_selector("#conn.live")
        for game in games[1:]:  # three tables part-way through their games
            for _ in range(60):
                next(game)
        t1 = games[0]
        state = next(t1)
        while max(state.scores, default=0) == 0:
            state = next(t1)
        scores = "#table-t1 .score"
        page.wait_for_function(f"[...document.querySelectorAll('{scores}')].map(e => e.textContent).join() == "
                               f"'{','.join(map(str, state.scores))}'", timeout=30_000)
        wait_for(lambda: all(pub.outbox.unsent() == 0 for pub in tables))
        page.wait_for_timeout(300)
        page.screenshot(path=str(shots / "tournament-wall.png"))
        page.goto(server.url("/feature/t2"))
        page.wait_for_selector("#conn.live")
        page.wait_for_selector(".feature .board .score")
        page.screenshot(path=str(shots / "tournament-feature.png"))
        board = browser.new_page(viewport={"width": 900, "height": 560})
        board.goto(server.url("/leaderboard"))
        board.wait_for_selector("#conn.live")
        board.wait_for_selector("td.name")  # the standings drawn: "live" is set before the page fetches them
        assert board.locator("td:nth-child(5)").all_text_contents() == ["0"] * 8
        for state in t1:  # the rest of table 1's game, and its result confirmed by each side
            pass
        from cribpi.tournament.table.loadgen import start_next
        start_next(("Ann", "Ben"), tables[0], 2)
        winner = state.names[state.games[0].winner]
        board.wait_for_function(f"document.querySelector('tr:nth-child(2) td:nth-child(2)').textContent == '{winner}'"
                                f" && document.querySelector('tr:nth-child(2) td:nth-child(5)').textContent != '0'",
                                timeout=30_000)
        board.screenshot(path=str(shots / "tournament-leaderboard.png"))
    finally:
        for pub in tables:
            pub.stop()
        server.stop()
        d.close()


def test_the_bracket_and_a_players_page(tmp_path: Path, browser: Any, shots: Path) -> None:
    """The scripted 16-player event of test_standings, its semi-finals played."""
    from tests.tournament.test_standings import PLAYERS, ROUND_1, ROUND_2, Room

    room = Room(tmp_path)
    for name in PLAYERS:
        room.director.register(name)
    room.play_round(ROUND_1)
    room.play_round(ROUND_2, game=2)
    room.director.db.add_round("playoff", {"t1": ["P04", "P07"], "t2": ["P06", "P01"]})
    for n, (table, w, lo) in enumerate([("t1", "P04", "P07"), ("t1", "P04", "P07"), ("t2", "P01", "P06")]):
        assert room.send(table, "result", room.result(table, w, lo, 100, game=10, game_number=n + 1))
    server = Server(room.director)
    try:
        page = browser.new_page(viewport={"width": 900, "height": 420})
        page.goto(server.url("/bracket"))
        page.wait_for_selector("#conn.live")
        page.wait_for_selector(".match")
        first = page.locator(".round").first
        assert first.locator(".match").nth(0).inner_text().split() == ["P04", "2", "P07", "0", "best", "of", "3"]
        assert page.locator(".round").nth(1).locator(".won").count() == 0  # the final is not decided
        page.screenshot(path=str(shots / "tournament-bracket.png"))
        page.goto(server.url("/player/P01"))
        page.wait_for_selector("#conn.live")
        page.wait_for_selector("td")
        assert "P01: #3, 5 points, 2 of 2 won, spread 57" in page.inner_text("h2")
        assert page.locator("tr").count() == 4  # a header and three games (one a semi-final)
    finally:
        server.stop()


def test_any_name_has_a_page_that_says_how_each_game_went(tmp_path: Path, browser: Any) -> None:
    from tests.tournament.test_standings import PLAYERS, ROUND_1, Room

    room = Room(tmp_path)
    for name in (*PLAYERS, "A/B", ".."):
        room.director.register(name)
    room.play_round(ROUND_1)  # P01 beat P16 by a skunk (121-80), P02 beat P15 (121-100)
    assert not room.send("t2", "result", room.result("t2", "P01", "P02", 100, game=7))  # not seated: not listed
    server = Server(room.director)
    try:
        page = browser.new_page()
        page.goto(server.url("/leaderboard"))
        page.wait_for_selector("#conn.live")
        page.click("a:text-is('A/B')")  # its link goes to its page, "/" and all
        page.wait_for_selector("h2")
        assert page.inner_text("h2").startswith("A/B: no game yet")
        page.goto(server.url("/player?name=.."))
        page.wait_for_selector("h2")
        assert page.inner_text("h2").startswith("..: no game yet") and page.url.endswith("/player?name=..")
        for name, said in (("P01", "won by a skunk"), ("P16", "lost, skunked"), ("P02", "won"), ("P15", "lost")):
            page.goto(server.url(f"/player?name={name}"))
            page.wait_for_selector("td")
            assert page.locator("tr").count() == 2  # a header and the game that counts
            assert page.locator("tr").nth(1).locator("td").last.inner_text() == said
        page.goto(server.url("/admin"))
        page.wait_for_selector("form")
        assert page.inner_text("#conn") == "not logged in"  # not "connecting…" for ever
    finally:
        server.stop()


def test_the_seating_page_on_a_phone_and_on_the_wall(tmp_path: Path, browser: Any, shots: Path) -> None:
    import random

    from tests.tournament.test_standings import PLAYERS, Room

    room = Room(tmp_path)
    for name in PLAYERS:
        room.director.register(name)
    server = Server(room.director)
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
        page.goto(server.url("/seating"))
        page.wait_for_selector("#conn.live")
        page.wait_for_selector("h2")
        assert page.inner_text("h2") == "No round is seated yet."
        _, seating = room.director.seat_round("random", random.Random(5))
        page.wait_for_selector("tr[data-players]")  # live: the page follows the seating
        assert page.inner_text("h2") == "Round 1 · 1 game a match" and page.locator("tr[data-players]").count() == 8
        table, (red, blue) = next(iter(seating.items()))
        page.fill("input", red)  # "where do I sit?"
        shown = page.locator("tr[data-players]:not(.hidden)")
        assert shown.count() == 1 and shown.inner_text().split() == [table, "●", red, "(Red)", "v", "●", blue, "(Blue)"]
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")  # nothing off the side
        page.screenshot(path=str(shots / "tournament-seating-phone.png"))
        wall = browser.new_page(viewport={"width": 1920, "height": 1080})
        wall.goto(server.url("/seating"))
        wall.wait_for_selector("tr[data-players]")
        size = wall.evaluate("parseFloat(getComputedStyle(document.querySelector('tr[data-players] td')).fontSize)")
        assert size >= 1080 / 40  # readable across a room (2.2 vw at 1920 px wide: 42 px)
        assert wall.evaluate("document.scrollingElement.scrollHeight <= innerHeight")  # 8 tables, no scrolling
        wall.screenshot(path=str(shots / "tournament-seating.png"))
        four = PLAYERS[:4]  # a four-handed table plays as partners: seats 1 and 3 share Red's track
        room.director.db.add_round("qualifying", {"t2": list(four)}, 1)
        page.goto(server.url("/seating"))
        page.wait_for_selector("tr[data-players]")
        row = page.locator("tr[data-players]")
        assert row.count() == 1 and row.inner_text().split() == [
            "t2", "●", *four[0].split(), "&", *four[2].split(), "(Red)", "v", "●", *four[1].split(), "&", *four[3].split(),
            "(Blue)"]
        colours = page.evaluate("[...document.querySelectorAll('tr[data-players] .seat > span:first-child')]"
                                ".map((e) => getComputedStyle(e).color)")
        red_seat = page.evaluate("getComputedStyle(document.querySelector('.c0')).color")
        assert colours[0] == red_seat and colours[1] != red_seat  # each side in its own track's colour
        # names as players write them: the find box matches without accents, in any case
        room.director.db.add_round("qualifying", {"t3": ["Zoë Ødegaard", "Ann"], "t4": ["Łukasz Żółw", "Zoey"]}, 1)
        page.goto(server.url("/seating"))
        page.wait_for_selector("tr[data-players]")
        for typed, tables in [("zoe", ["t3", "t4"]), ("zoë", ["t3", "t4"]), ("ZOE O", ["t3"]),
                              ("odegaard", ["t3"]), ("lukasz zolw", ["t4"]), ("ŁUKASZ", ["t4"]), ("zoë x", [])]:
            page.fill("input", typed)
            found = page.locator("tr[data-players]:not(.hidden) td:first-child").all_inner_texts()
            assert found == tables, typed
    finally:
        server.stop()


def test_the_admin_page_shows_the_directors_warnings_and_follows_them(tmp_path: Path, browser: Any) -> None:
    """/api/health's warnings (here: the director's clock 30 days behind the tables', and a table
    whose ids are refused as from the future) are listed at the top of the admin page, and
    followed while the page is open."""
    import time

    from tests.tournament.test_web import PASSWORD, admin_room

    room = admin_room(tmp_path)
    now = time.time()
    room.director.clock = lambda: now - 30 * 86_400

    def event(table: str, number: int) -> bool:
        return room.send(table, "events", {"id": number, "game": 1, "event": {"type": "go", "seat": 0}, "at": now})

    for n, table in enumerate(("t1", "t2", "t3"), 1):
        event(table, int(now * 1_000_000) + n)  # the first heard is refused till a second agrees
    assert event("t1", int(now * 1_000_000) + 9)
    assert not event("t2", 2**53 - 1)
    assert not room.send("t3", "state", b"[" * 4000 + b"]" * 4000)  # and what was refused, by reason
    server = Server(room.director)
    try:
        page = admin_page(browser, server, PASSWORD)
        page.wait_for_selector("#warnings li")
        assert page.locator("#drops li").all_inner_texts() == [
            "Messages refused: from_the_future 2, too_deep 1", "Dropped: none"]
        said = page.locator("#warnings li").all_inner_texts()
        assert said[0].startswith("the tables' clocks are 30 days ahead of this machine's clock")
        assert [w.split("'")[0] for w in said[1:]] == ["t2"]
        room.director.clock = time.time  # the director's clock is set right with the page open
        page.wait_for_function("document.querySelectorAll('#warnings li').length === 1",
                               timeout=30_000)  # read again every 10 s
        assert [w.split("'")[0] for w in page.locator("#warnings li").all_inner_texts()] == ["t2"]
        page.click("button:text-is('Log out')")
        page.wait_for_selector("#conn:text-is('logged out'), #conn:text-is('not logged in')")
        assert page.locator("#warnings").count() == 0  # for the director's eyes only
    finally:
        server.stop()
