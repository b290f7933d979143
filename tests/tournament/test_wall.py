"""The room's pages as a room reads them (issue 21, item 14), measured in Debian's headless
Chromium: at 1920x1080 the wall shows up to 24 tables without scrolling, each score at least
1/30 of the screen's height (36 px: readable from 5 m), fills the screen at 8 tables and pages
through more than fit; boards of 3 and 4 sides have a colour for every side; the leaderboard
uses the width; a 64-character name pushes nothing off the screen. Screenshots of each go to
docs/img/ with CRIBPI_SCREENSHOTS=1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tournament.test_browser import Server, browser, shots  # noqa: F401 - fixtures
from tests.tournament.test_standings import Room

pytestmark = [pytest.mark.browser]
WALL = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
LONG = "Maximilian-Alexander Bartholomew Fitzgerald-Worthington of Kent"  # 63 characters
LONG += "!"  # 64: the longest a name may be (NAME_MAX)
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lee", "Max", "Ned", "Ola",
         "Pat", "Quin", "Rae", "Sam", "Tom", "Una", "Vic", "Wes", "Xia", "Yul", "Zoe"]


def a_room(tmp_path: Path, tables: int, sides: int = 2, long_name: bool = False) -> Room:
    """``tables`` boards, each part-way through a game of ``sides`` players."""
    room = Room(tmp_path, tables)
    d = room.director
    for n in range(1, tables + 1):
        players = [NAMES[(n + k * 7) % len(NAMES)] for k in range(sides)]
        if long_name and n == 1:
            players[0] = LONG
        scores = [(n * 13 + k * 41) % 122 for k in range(sides)]
        d.live[f"t{n}"] = {"table": f"t{n}", "online": True, "state": {
            "game": 1, "players": players, "scores": scores, "rear": [0] * sides, "dealer": n % sides,
            "game_number": 1, "match_games": 1, "games_won": [0] * sides, "phase": "play", "status": "playing",
            "last": {"seat": 0, "points": 2, "reason": "fifteen", "text": "fifteen two"}, "at": 1.0}}
    return room


def open_wall(server: Server, browser: Any, viewport: dict[str, int], query: str = "") -> Any:  # noqa: F811
    page = browser.new_page(viewport=viewport)
    page.goto(server.url("/" + query))
    page.wait_for_selector("#conn.live")
    page.wait_for_selector(".board .score")
    return page


MEASURE = """() => {
  const scores = [...document.querySelectorAll('.wall .score')];
  const boards = [...document.querySelectorAll('.wall .board')];
  const wall = document.querySelector('.wall').getBoundingClientRect();
  const inside = (r) => r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  return {
    boards: boards.map((b) => b.id.slice(6)),
    scoreSizes: scores.map((s) => parseFloat(getComputedStyle(s).fontSize)),
    scoreHeights: scores.map((s) => s.getBoundingClientRect().height),
    allInside: [...scores, ...boards].every((e) => inside(e.getBoundingClientRect())),
    scrolls: document.scrollingElement.scrollHeight > document.scrollingElement.clientHeight
      || document.scrollingElement.scrollWidth > document.scrollingElement.clientWidth,
    covered: boards.reduce((sum, b) => { const r = b.getBoundingClientRect(); return sum + r.width * r.height; }, 0)
      / ((innerHeight - wall.top) * innerWidth),
    pager: document.getElementById('pager') ? document.getElementById('pager').textContent : '',
  };
}"""


@pytest.mark.parametrize("tables", [8, 24])
def test_the_wall_shows_every_table_readable_from_five_metres(tmp_path: Path, browser: Any, shots: Path,  # noqa: F811
                                                              tables: int) -> None:
    room = a_room(tmp_path, tables)
    server = Server(room.director)
    try:
        page = open_wall(server, browser, WALL)
        m = page.evaluate(MEASURE)
        assert m["boards"] == [f"t{n}" for n in range(1, tables + 1)] and m["pager"] == ""
        assert not m["scrolls"] and m["allInside"], m
        assert min(m["scoreSizes"]) >= 1080 / 30, m["scoreSizes"]  # 36 px
        assert m["covered"] >= 0.6, m["covered"]  # the boards fill the screen, not a strip of it
        print(tables, "tables:", min(m["scoreSizes"]), "px scores, covered", round(m["covered"], 2))
        page.screenshot(path=str(shots / f"tournament-wall-{tables}.png"))
    finally:
        server.stop()


def test_the_wall_pages_through_more_tables_than_fit(tmp_path: Path, browser: Any, shots: Path) -> None:  # noqa: F811
    room = a_room(tmp_path, 40)
    server = Server(room.director)
    try:
        page = open_wall(server, browser, WALL, "?seconds=1")
        seen: list[str] = []
        for n in (1, 2):
            page.wait_for_function(f"document.getElementById('pager').textContent.startsWith('page {n}/2')")
            m = page.evaluate(MEASURE)
            assert not m["scrolls"] and m["allInside"] and min(m["scoreSizes"]) >= 36, m
            assert len(m["boards"]) == 20, m["boards"]  # two even pages of 20, not 24 and 16
            seen += m["boards"]
            if n == 1:
                print("40 tables, a page:", min(m["scoreSizes"]), "px scores")
                page.screenshot(path=str(shots / "tournament-wall-40.png"))
        assert seen == [f"t{n}" for n in range(1, 41)]  # every table, each once
        assert page.inner_text("#pager") == "page 2/2 · tables 21–40 of 40"
    finally:
        server.stop()


@pytest.mark.parametrize("sides", [3, 4])
def test_a_board_of_three_or_four_sides_has_a_colour_for_each(tmp_path: Path, browser: Any, shots: Path,  # noqa: F811
                                                              sides: int) -> None:
    room = a_room(tmp_path, 12, sides)
    server = Server(room.director)
    try:
        page = open_wall(server, browser, WALL)
        colours = page.evaluate("[...document.querySelectorAll('#table-t1 .track i')]"
                                ".map((i) => getComputedStyle(i).backgroundColor)")
        assert len(colours) == sides and len(set(colours)) == sides, colours  # one each, all different
        assert all(c not in ("rgba(0, 0, 0, 0)", "transparent") for c in colours), colours
        m = page.evaluate(MEASURE)
        assert not m["scrolls"] and m["allInside"] and min(m["scoreSizes"]) >= 36, m
        print(sides, "sides, 12 tables:", min(m["scoreSizes"]), "px scores", m["pager"])
        page.screenshot(path=str(shots / f"tournament-wall-{sides}-sides.png"))
    finally:
        server.stop()


def long_name_room(tmp_path: Path, players: int) -> Room:
    """``players`` registered (the first with a 64-character name), a round seated and played."""
    room = a_room(tmp_path, players // 2, long_name=True)
    names = [LONG] + [f"{NAMES[n % len(NAMES)]} {n:02}" for n in range(1, players)]
    for name in names:
        assert room.director.register(name)
    games = [(names[n], names[n + 1], 60 + n) for n in range(0, players, 2)]
    room.play_round(games)
    return room


NO_OVERFLOW = """(selector) => {
  const s = document.scrollingElement;
  const out = [...document.querySelectorAll(selector)].filter((e) => {
    const r = e.getBoundingClientRect(); return r.right > innerWidth + 0.5 || r.left < -0.5; });
  return { sideways: s.scrollWidth > s.clientWidth, off: out.map((e) => e.textContent.slice(0, 20)) };
}"""


def test_a_64_character_name_pushes_nothing_off_the_screen(tmp_path: Path, browser: Any, shots: Path) -> None:  # noqa: F811
    room = long_name_room(tmp_path, 16)
    server = Server(room.director)
    pages = {"/": ".score, .board", "/leaderboard": "td, th", "/seating": "td, .seat", "/player?name=" + LONG: "td, th, h2",
             "/bracket": ".match span"}
    try:
        for viewport in (WALL, PHONE):
            page = browser.new_page(viewport=viewport)
            for path, selector in pages.items():
                page.goto(server.url(path))
                page.wait_for_selector("#conn.live")
                page.wait_for_selector(selector.split(",")[0])
                assert page.evaluate(NO_OVERFLOW, selector) == {"sideways": False, "off": []}, (path, viewport)
                size = page.evaluate(f"parseFloat(getComputedStyle(document.querySelector('{selector.split(',')[0]}'))"
                                     ".fontSize)")
                assert size >= (24 if viewport is WALL else 16), (path, size)  # a wall's text is not 16 px
            page.goto(server.url("/leaderboard"))
            page.wait_for_selector("td.name")
            cut = page.evaluate("(() => { const a = document.querySelector('td.name');"
                                " return a.scrollWidth > a.clientWidth && a.textContent.length === 64; })()")
            assert page.evaluate("document.querySelector('td.name').clientWidth") >= viewport["width"] / 4
            # on a phone the name is shortened with an ellipsis, its numbers kept in their columns;
            # a wall has the room to show it whole
            assert cut == (viewport is PHONE)
            if viewport is PHONE:
                page.screenshot(path=str(shots / "tournament-leaderboard-phone.png"))
            page.close()
    finally:
        server.stop()


def test_the_leaderboard_uses_the_width_of_a_wall(tmp_path: Path, browser: Any, shots: Path) -> None:  # noqa: F811
    room = long_name_room(tmp_path, 48)
    server = Server(room.director)
    try:
        page = browser.new_page(viewport=WALL)
        page.goto(server.url("/leaderboard"))
        page.wait_for_selector("#conn.live")
        page.wait_for_selector("td.name")
        m = page.evaluate("""(() => {
          const tables = [...document.querySelectorAll('main table')].map((t) => t.getBoundingClientRect());
          return { used: (Math.max(...tables.map((r) => r.right)) - Math.min(...tables.map((r) => r.left))) / innerWidth,
                   columns: tables.length, rows: document.querySelectorAll('main td.name').length,
                   size: parseFloat(getComputedStyle(document.querySelector('main td')).fontSize) };
        })()""")
        print("leaderboard:", m)
        assert m["used"] >= 0.9 and m["columns"] == 2 and m["rows"] == 48, m  # side by side, every player
        assert m["size"] >= 24, m  # 1.25 vw: readable across the room
        page.screenshot(path=str(shots / "tournament-leaderboard-wall.png"))
    finally:
        server.stop()


def test_the_seating_of_24_tables_fits_a_wall(tmp_path: Path, browser: Any, shots: Path) -> None:  # noqa: F811
    import random

    room = long_name_room(tmp_path, 48)  # 24 tables, one player with a 64-character name
    room.director.seat_round("swiss", random.Random(1))
    server = Server(room.director)
    try:
        page = browser.new_page(viewport=WALL)
        page.goto(server.url("/seating"))
        page.wait_for_selector("#conn.live")
        page.wait_for_selector("tr[data-players]")
        m = page.evaluate("""(() => {
          const s = document.scrollingElement, rows = [...document.querySelectorAll('tr[data-players]')];
          return { rows: rows.length, scrolls: s.scrollHeight > s.clientHeight || s.scrollWidth > s.clientWidth,
                   size: parseFloat(getComputedStyle(rows[0].cells[0]).fontSize),
                   inside: rows.every((r) => { const b = r.getBoundingClientRect();
                     return b.bottom <= innerHeight && b.right <= innerWidth; }) };
        })()""")
        print("seating, 24 tables:", m)
        page.screenshot(path=str(shots / "tournament-seating-24.png"))
        assert m["rows"] == 24 and not m["scrolls"] and m["inside"], m
        assert m["size"] >= 24, m  # on a wall, across the room: not 16 px
        page.fill("input", "Bob 27")  # the box still finds one table among the columns
        assert page.locator("tr[data-players]:not(.hidden)").count() == 1
    finally:
        server.stop()


def test_a_phone_scrolls_one_column_of_boards(tmp_path: Path, browser: Any) -> None:  # noqa: F811
    room = a_room(tmp_path, 24)
    server = Server(room.director)
    try:
        page = open_wall(server, browser, PHONE)
        m = page.evaluate(MEASURE)
        assert len(m["boards"]) == 24 and m["pager"] == "", m  # every table on the one page, no paging
        assert min(m["scoreSizes"]) >= 32, m  # 2 em of 16 px
        lefts = page.evaluate("[...document.querySelectorAll('.wall .board')].map((b) => b.getBoundingClientRect().left)")
        assert len(set(lefts)) == 1  # one column
        assert page.evaluate(NO_OVERFLOW, ".board") == {"sideways": False, "off": []}
    finally:
        server.stop()
