"""Once the playoffs are seated the bracket is fixed: the cut is taken when qualifying closes,
recorded, and neither a correction nor a late registration moves it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cribpi.exc import ConfigError
from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import hash_password
from cribpi.tournament.director.web import create_app
from tests.tournament.test_standings import PLAYERS, ROUND_1, ROUND_2, Room
from tests.tournament.test_web import PASSWORD, admin_room


def pairs(d: Director) -> list[tuple[str | None, str | None]]:
    return [(m["a"], m["b"]) for m in d.bracket()["rounds"][0]]


def test_a_seated_bracket_is_not_reshuffled_by_a_correction_or_late_players(tmp_path: Path) -> None:
    room = Room(tmp_path)
    for name in PLAYERS:
        room.director.register(name)
    room.play_round(ROUND_1)
    room.play_round(ROUND_2, game=2)
    d = room.director
    before = pairs(d)
    assert before == [("P04", "P07"), ("P06", "P01")] and not d.bracket()["closed"]
    number, seating = d.seat_round("bracket", random.Random(1))  # closes qualifying: the cut is recorded
    assert d.bracket()["closed"] and d.bracket()["seeds"] == ["P04", "P06", "P01", "P07"]
    p07 = next(r for r in d.db.results() if r["players"] == ["P07", "P10"])  # P07 beat P10 121-90 in round 1
    d.correct(p07["id"], [90, 121], 1, "skunk", 31, by="admin", why="the card says P10 won")
    assert "P07" not in [x["name"] for x in d.ranked()[:4]]  # the standings moved...
    assert pairs(d) == before  # ...the seated bracket did not
    for n in range(17, 24):  # 23 entrants would make a cut of 6
        d.register(f"P{n:02}")
    assert d.bracket()["qualifiers"] == 4 and pairs(d) == before
    with pytest.raises(ConfigError, match="qualifying is closed"):
        d.seat_round("swiss", random.Random(1))
    assert Director(d.db).bracket()["seeds"] == ["P04", "P06", "P01", "P07"]  # recorded: a restart keeps it


def test_the_admin_closes_qualifying(tmp_path: Path) -> None:
    room = admin_room(tmp_path)
    client = TestClient(create_app(room.director))
    ok = {"x-csrf-token": client.post("/admin/login", json={"password": PASSWORD}).json()["csrf"]}
    assert client.post("/admin/qualifying/close", json={}).status_code == 403
    seeds = client.post("/admin/qualifying/close", json={}, headers=ok).json()["seeds"]
    assert seeds == [x["name"] for x in room.director.ranked()[:4]]
    assert client.get("/api/bracket").json()["seeds"] == seeds
    assert client.post("/admin/rounds", json={"method": "random"}, headers=ok).status_code == 400


def level_room(tmp_path: Path) -> Room:
    """8 entrants (a cut of 2); A, B and C each won 121-100: level on points, games won and spread."""
    room = Room(tmp_path)
    for name in "ABCDEFGH":
        room.director.register(name)
    room.play_round([("A", "E", 100), ("B", "F", 100), ("C", "G", 100)])
    return room


def test_players_level_on_points_games_and_spread_share_a_rank(tmp_path: Path) -> None:
    d = level_room(tmp_path).director
    assert [(x["rank"], x["name"]) for x in d.ranked()] == [
        (1, "A"), (1, "B"), (1, "C"), (4, "E"), (4, "F"), (4, "G"), (None, "D"), (None, "H")]
    assert (d.player("C") or {})["rank"] == 1


def test_a_tie_across_the_cut_is_not_broken_by_name_but_by_the_director(tmp_path: Path) -> None:
    room = level_room(tmp_path)
    d = room.director
    assert d.bracket()["tie_at_cut"] == ["A", "B", "C"]
    with pytest.raises(ConfigError, match="a tie at the cut: A, B, C are level .* for 2 places"):
        d.close_qualifying()
    with pytest.raises(ConfigError, match="a tie at the cut"):
        d.seat_round("bracket", random.Random(1))  # nor by seating the bracket
    assert not d.bracket()["closed"]
    with pytest.raises(ConfigError, match="the tied players are A, B, C"):
        d.close_qualifying(["C", "A"])
    client = TestClient(create_app(d))
    d.db.put("admin", hash_password(PASSWORD))
    ok = {"x-csrf-token": client.post("/admin/login", json={"password": PASSWORD}).json()["csrf"]}
    assert client.post("/admin/qualifying/close", json={"order": "C"}, headers=ok).status_code == 400
    # broken as the event's rules say (a cut of the cards, say): C, then A, then B
    assert client.post("/admin/qualifying/close", json={"order": ["C", "A", "B"]}, headers=ok).json() == {
        "seeds": ["C", "A"]}
    assert d.bracket()["seeds"] == ["C", "A"] and d.bracket()["tie_at_cut"] == []


def test_a_tie_above_the_cut_needs_no_breaking(tmp_path: Path) -> None:
    room = Room(tmp_path)
    for name in "ABCDEFGH":
        room.director.register(name)
    room.play_round([("A", "E", 100), ("B", "F", 100), ("C", "G", 110)])  # A and B level; C won by less
    assert room.director.bracket()["tie_at_cut"] == []
    assert room.director.close_qualifying() == ["A", "B"]  # both qualify: nothing to break


def test_a_player_who_has_played_no_game_has_no_rank_yet_and_is_not_in_the_cut(tmp_path: Path) -> None:
    room = level_room(tmp_path)  # D and H have not played; E, F and G lost
    d = room.director
    d.register("Late")  # registered after the round
    rows = d.ranked()
    assert [x["name"] for x in rows[-3:]] == ["D", "H", "Late"] and all(x["rank"] is None for x in rows[-3:])
    assert [x["rank"] for x in rows[:6]] == [1, 1, 1, 4, 4, 4]  # the losers rank above them
    assert (d.player("Late") or {})["rank"] is None
    room.play_round([("D", "Late", 120)], game=2)  # once played, ranked like anyone
    assert next(x for x in d.ranked() if x["name"] == "Late")["rank"] == 5  # after D, lost by 1: above E, F, G (by 21)
