"""The ACC's tie-breakers (Cross-checking Guidelines, item 7), each in its turn: game points,
games won, net spread, plus points (the margins of the games won), head-to-head in qualifying,
and last a one-game playoff, which is the director's (the close at the cut is refused until the
director gives the order). Worked out by hand for a 12-player event; each step on its own; a
correction takes back and adds head-to-head and plus points like the rest."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from cribpi.exc import ConfigError
from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import hash_password
from cribpi.tournament.director.standings import Outcome, Standings
from tests.tournament.test_browser import Server, admin_page, browser  # noqa: F401 - a fixture
from tests.tournament.test_standings import Room
from tests.tournament.test_web import PASSWORD

# 12 entrants (a cut of 3), three rounds; (winner, loser, loser's score), every game a plain
# win (the loser on 91 or more: 2 game points).
ROUNDS = [
    [("A", "J", 100), ("X", "Y", 100), ("Z", "K", 91), ("R", "L", 111), ("S", "Q", 106), ("P", "I", 106)],
    [("A", "K", 100), ("X", "I", 91), ("Y", "Z", 100), ("R", "S", 101), ("L", "P", 96), ("Q", "J", 111)],
    [("A", "L", 100), ("Z", "X", 100), ("Y", "J", 91), ("P", "R", 101), ("S", "I", 106), ("Q", "K", 106)],
]
# Worked out by hand: (rank, name, game points, games won, spread, plus points), in order.
EXPECTED = [
    (1, "A", 6, 3, 63, 63),   # won by 21, 21, 21
    # X beat Y, Y beat Z, Z beat X (each by 21), and each won another by 30: level on all four,
    # and head-to-head is a cycle (each 1 won, 1 lost among them): they stay level, by name
    (2, "X", 4, 2, 30, 51),
    (2, "Y", 4, 2, 30, 51),
    (2, "Z", 4, 2, 30, 51),
    # P, R, S and Q: 4 points, 2 won, spread 10 each; plus points part them...
    (5, "P", 4, 2, 10, 35),   # won by 15 and 20, lost by 25
    # ...but R and S (won by 20 and 10, lost by 20 / lost by 20, won by 15 and 15) are level on
    # plus points too: R beat S, so R ranks above S (S comes after R by name anyway: see
    # test_head_to_head_separates_two_level_players for the other way round)
    (6, "R", 4, 2, 10, 30),
    (7, "S", 4, 2, 10, 30),
    (8, "Q", 4, 2, 10, 25),   # won by 10 and 15, lost by 15
    (9, "L", 2, 1, -6, 25),   # lost by 21 and 10, won by 25
    (10, "I", 0, 0, -60, 0),  # lost by 15, 30, 15
    (11, "J", 0, 0, -61, 0),  # lost by 21, 10, 30
    (12, "K", 0, 0, -66, 0),  # lost by 30, 21, 15
]


def rows(director: Director) -> list[tuple[int | None, str, int, int, int, int]]:
    return [(x["rank"], x["name"], x["points"], x["won"], x["spread"], x["plus"]) for x in director.ranked()]


def event(tmp_path: Path, names: Iterable[str], rounds: list[list[tuple[str, str, int]]]) -> Room:
    room = Room(tmp_path)
    for name in names:
        room.director.register(name)
    for number, games in enumerate(rounds, 1):
        room.play_round(games, game=number)
    return room


def test_twelve_players_three_rounds_match_the_hand_worked_table(tmp_path: Path) -> None:
    room = event(tmp_path, "AXYZPRSQLIJK", ROUNDS)
    d = room.director
    assert rows(d) == EXPECTED
    assert sum(x["spread"] for x in d.ranked()) == 0
    assert rows(Director(d.db)) == EXPECTED  # a restart counts the same from its database
    # the cut (3) falls among X, Y and Z: two places for three players level on everything
    assert d.bracket()["tie_at_cut"] == ["X", "Y", "Z"]
    with pytest.raises(ConfigError, match="a tie at the cut: X, Y, Z are level .*head-to-head does not separate them,"
                                          " for 2 places; a one-game playoff"):
        d.close_qualifying()
    # the director has them play it off (cut for first deal), and gives the order
    assert d.close_qualifying(["Z", "X", "Y"]) == ["A", "Z", "X"]


def test_plus_points_separate_players_level_on_spread(tmp_path: Path) -> None:
    # Amy: won by 25, lost by 5; Bob: won by 30, lost by 10. Both 2 points, 1 won, spread +20;
    # Bob's plus points (30) rank him above Amy (25), for the one place of the cut (8 entrants).
    room = event(tmp_path, ["Amy", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"],
                 [[("Amy", "Cy", 96), ("Bob", "Di", 91)], [("Ed", "Amy", 116), ("Flo", "Bob", 111)]])
    d = room.director
    top = [(x["rank"], x["name"], x["spread"], x["plus"]) for x in d.ranked()[:4]]
    # Flo and Ed (won by 10 / by 5): 2 points and 1 won too, below Amy and Bob on spread
    assert top == [(1, "Bob", 20, 30), (2, "Amy", 20, 25), (3, "Flo", 10, 10), (4, "Ed", 5, 5)]
    assert d.bracket()["tie_at_cut"] == [] and d.close_qualifying() == ["Bob", "Amy"]


def test_head_to_head_separates_two_level_players(tmp_path: Path) -> None:
    # Bea beat Al by 21; Al then beat Cal by 21, Bea lost to Dot by 21: Al and Bea are both 2
    # points, 1 won, spread 0, plus 21. Bea won their game: Bea above Al (not by name), and
    # she takes the second place of the cut (8 entrants: 2) after Dot (spread +21).
    room = event(tmp_path, ["Al", "Bea", "Cal", "Dot", "E", "F", "G", "H"],
                 [[("Bea", "Al", 100)], [("Al", "Cal", 100), ("Dot", "Bea", 100)]])
    d = room.director
    assert [(x["rank"], x["name"]) for x in d.ranked()[:3]] == [(1, "Dot"), (2, "Bea"), (3, "Al")]
    assert d.bracket()["tie_at_cut"] == [] and d.close_qualifying() == ["Dot", "Bea"]


def test_two_level_players_who_split_their_games_stay_level(tmp_path: Path) -> None:
    room = event(tmp_path, ["Al", "Bea", "Cal", "Dot", "E", "F", "G", "H"],
                 [[("Bea", "Al", 100)], [("Al", "Bea", 100)]])
    assert [(x["rank"], x["name"]) for x in room.director.ranked()[:2]] == [(1, "Al"), (1, "Bea")]
    # both qualify (8 entrants: a cut of 2), seeded by name: nothing to break
    assert room.director.bracket()["tie_at_cut"] == [] and room.director.close_qualifying() == ["Al", "Bea"]


def test_a_three_way_tie_head_to_head_cannot_separate_stays_level_and_refuses_the_close(tmp_path: Path) -> None:
    # 12 entrants: a cut of 3. Dan and Eve won a game each against the other, each by 30: level
    # on everything, plus points 30 above the rest; both qualify, no order needed between them.
    # Ann beat Ben, Ben beat Cat, Cat beat Ann, each by 21: level, and a cycle head to head, for
    # the one place left.
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "F", "G", "H", "I", "J", "K", "L"]
    room = event(tmp_path, names, [[("Ann", "Ben", 100), ("Dan", "Eve", 91)], [("Ben", "Cat", 100), ("Eve", "Dan", 91)],
                                   [("Cat", "Ann", 100)]])
    d = room.director
    assert [(x["rank"], x["name"], x["points"], x["won"], x["spread"], x["plus"]) for x in d.ranked()[:5]] == [
        (1, "Dan", 2, 1, 0, 30), (1, "Eve", 2, 1, 0, 30),
        (3, "Ann", 2, 1, 0, 21), (3, "Ben", 2, 1, 0, 21), (3, "Cat", 2, 1, 0, 21)]
    assert d.bracket()["tie_at_cut"] == ["Ann", "Ben", "Cat"]
    with pytest.raises(ConfigError, match="a tie at the cut: Ann, Ben, Cat are level .* for 1 place; a one-game"
                                          r" playoff \(cut for first deal\) decides"):
        d.close_qualifying()
    assert not d.bracket()["closed"]
    assert d.close_qualifying(["Cat", "Ann", "Ben"]) == ["Dan", "Eve", "Cat"]


def test_head_to_head_needs_every_level_player_to_have_met_every_other() -> None:
    # U beat V; W met neither: U, V and W (2 points, 1 won, spread 0, plus 21 each) stay level,
    # U's win over V notwithstanding.
    s = Standings(["U", "V", "W", "Q1", "Q2", "Q3", "Q4"])
    for winner, loser in (("U", "V"), ("W", "Q1"), ("Q2", "U"), ("V", "Q3"), ("Q4", "W")):
        s.add(Outcome((winner,), (loser,), "win", 21))
    level = {line.name: key for line, key in s.ranking()}
    assert level["U"] == level["V"] == level["W"] == (2, 1, 0, 21, 0)
    assert s.head_to_head(["U", "V", "W"]) is None and s.head_to_head(["U", "V"]) == {"U": 1, "V": -1}


def test_a_correction_that_flips_a_head_to_head(tmp_path: Path) -> None:
    # Bea beat Al, Al beat Cal, Dot beat Bea (each by 21): Al and Bea level, Bea above.
    room = event(tmp_path, ["Al", "Bea", "Cal", "Dot", "E", "F", "G", "H"],
                 [[("Bea", "Al", 100)], [("Al", "Cal", 100), ("Dot", "Bea", 100)]])
    d = room.director
    assert [x["name"] for x in d.ranked()[:3]] == ["Dot", "Bea", "Al"]
    # The scorecards say otherwise: Al beat Bea, Cal beat Al, Bea beat Dot (the same margins).
    ids = {tuple(r["players"]): r["id"] for r in d.db.results()}
    d.correct(ids["Bea", "Al"], [100, 121], 1, "win", 21, by="admin", why="Al won")
    assert [(x["name"], x["points"], x["plus"]) for x in d.ranked()[:2]] == [("Al", 4, 42), ("Dot", 2, 21)]
    d.correct(ids["Al", "Cal"], [100, 121], 1, "win", 21, by="admin", why="Cal won")
    d.correct(ids["Dot", "Bea"], [100, 121], 1, "win", 21, by="admin", why="Bea won")
    # Cal: 2, 1, +21; Al and Bea level again (2, 1, 0, 21), and now Al won their game
    expected = [(1, "Cal", 2, 1, 21, 21), (2, "Al", 2, 1, 0, 21), (3, "Bea", 2, 1, 0, 21), (4, "Dot", 0, 0, -21, 0)]
    assert rows(d)[:4] == expected
    assert rows(Director(d.db))[:4] == expected  # as a recount from the database has it
    assert d.close_qualifying() == ["Cal", "Al"]


def test_a_partnership_gives_each_partner_the_sides_plus_points_and_head_to_head(tmp_path: Path) -> None:
    # Ann & Cy beat Ben & Di by a skunk, 121-85: each partner +36 spread and 36 plus points;
    # each of them beat each of Ben and Di head to head (not each other).
    room = Room(tmp_path)
    for name in ("Ann", "Ben", "Cy", "Di"):
        room.director.register(name)
    room.director.db.add_round("qualifying", {"t1": ["Ann", "Ben", "Cy", "Di"]})
    assert room.send("t1", "result", room.result("t1", "Ann & Cy", "Ben & Di", 85))
    assert rows(room.director) == [(1, "Ann", 3, 1, 36, 36), (1, "Cy", 3, 1, 36, 36),
                                   (3, "Ben", 0, 0, -36, 0), (3, "Di", 0, 0, -36, 0)]
    s = room.director.standings
    assert s.head_to_head(["Ann", "Ben"]) == {"Ann": 1, "Ben": -1} and not s.met("Ann", "Cy")
    assert s.head_to_head(["Ann", "Cy"]) is None  # partners never met


def test_plus_points_are_what_a_win_adds_to_the_spread() -> None:
    """Three sides: the winner gains the margin over each losing side, in spread and in plus
    points alike, so spread = plus points minus the margins lost, for everyone."""
    s = Standings(["A", "B", "C"])
    s.add(Outcome(("A",), ("B", "C"), "win", 10, sides=3))
    s.add(Outcome(("B",), ("A", "C"), "win", 5, sides=3))
    assert [(x.name, x.spread, x.plus) for x in s.ranked()] == [("A", 15, 20), ("B", 0, 10), ("C", -15, 0)]
    s.add(Outcome(("B",), ("A", "C"), "win", 5, sides=3), -1)  # taken back: as if never counted
    assert [(x.name, x.spread, x.plus) for x in s.ranked()] == [("A", 20, 20), ("B", -10, 0), ("C", -10, 0)]
    assert s.beat == {("A", "B"): 1, ("A", "C"): 1}


@pytest.mark.browser
def test_the_admin_page_takes_the_order_after_the_playoff(tmp_path: Path, browser: Any) -> None:  # noqa: F811
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "F", "G", "H", "I", "J", "K", "L"]
    room = event(tmp_path, names, [[("Ann", "Ben", 100), ("Dan", "Eve", 91)], [("Ben", "Cat", 100), ("Eve", "Dan", 91)],
                                   [("Cat", "Ann", 100)]])
    room.director.db.put("admin", hash_password(PASSWORD))
    server = Server(room.director)
    try:
        page = admin_page(browser, server, PASSWORD)
        close = page.locator("form:has(h3:text-is('Close qualifying'))")
        close.locator("button").click()
        page.wait_for_function("document.getElementById('said').textContent.startsWith('refused')")
        assert "a tie at the cut: Ann, Ben, Cat" in page.inner_text("#said")
        close.locator("textarea").fill("Cat\n Ann \n\nBen")
        close.locator("button").click()
        page.wait_for_function("document.getElementById('said').textContent.startsWith('done')")
        assert room.director.bracket()["seeds"] == ["Dan", "Eve", "Cat"]
    finally:
        server.stop()
