"""The admin's session and the public player pages: log out, a login that outlives a restart,
a refusal that says what is missing; any name has a page, and a page lists only what counts."""

from __future__ import annotations

import time
from pathlib import Path

from starlette.testclient import TestClient

from cribpi.tournament.director import Director
from cribpi.tournament.director.web import NO_CSRF, NOT_ADMIN, create_app
from tests.tournament.test_standings import Room
from tests.tournament.test_web import PASSWORD, admin_room


def logged_in(room: Room) -> tuple[TestClient, dict[str, str]]:
    client = TestClient(create_app(room.director))
    token = client.post("/admin/login", json={"password": PASSWORD}).json()["csrf"]
    return client, {"x-csrf-token": token}


def test_a_change_without_the_csrf_token_says_so_and_logging_out_ends_the_session(tmp_path: Path) -> None:
    room = admin_room(tmp_path)
    client, ok = logged_in(room)
    refused = client.post("/admin/players", json={"name": "Zed"})
    assert refused.status_code == 403 and refused.json() == {"error": NO_CSRF}  # logged in: the token is missing
    assert client.post("/admin/players", json={"name": "Zed"}, headers={"x-csrf-token": "x"}).json()["error"] == NO_CSRF
    assert client.post("/admin/logout", json={}).json() == {"error": NO_CSRF}  # a page elsewhere cannot log you out
    assert client.post("/admin/logout", json={}, headers=ok).json() == {"ok": True}
    assert client.get("/admin/session").status_code == 403
    assert client.post("/admin/players", json={"name": "Zed"}, headers=ok).json() == {"error": NOT_ADMIN}
    assert "Zed" not in room.director.db.players()


def test_a_login_outlives_a_restart_of_the_director(tmp_path: Path) -> None:
    room = admin_room(tmp_path)
    client, ok = logged_in(room)
    cookies = dict(client.cookies)
    again = TestClient(create_app(Director(room.director.db)))  # a new process on the same database
    again.cookies.update(cookies)
    assert again.get("/admin/session").json() == {"csrf": ok["x-csrf-token"]}
    assert again.post("/admin/players", json={"name": "Zed"}, headers=ok).json() == {"added": True}
    cookie = next(iter(cookies.values()))
    assert cookie not in str(room.director.db.db.execute("SELECT * FROM admin_sessions").fetchall())  # a digest only


def test_any_name_has_a_player_page(tmp_path: Path) -> None:
    room = admin_room(tmp_path)
    client, ok = logged_in(room)
    for name in ("A/B", "..", "Ann & Cy", "?x=1#y"):
        assert client.post("/admin/players", json={"name": name}, headers=ok).json() == {"added": True}
        found = client.get("/api/player", params={"name": name})
        assert found.status_code == 200 and found.json()["name"] == name
        page = client.get("/player", params={"name": name})
        assert page.status_code == 200 and "No such player" in page.text and "/api/player?name=" in page.text
    assert client.get("/api/player", params={"name": "Nobody"}).status_code == 404
    assert client.get("/api/player").status_code == 404
    assert client.get("/api/players/P01").json()["name"] == "P01"  # the old address still answers


def test_a_player_page_lists_only_the_results_that_count(tmp_path: Path) -> None:
    room = admin_room(tmp_path)  # round 1 seated P01 v P16 at t1, and played
    assert not room.send("t2", "result", room.result("t2", "P01", "P02", 100, game=7))  # not seated: kept, uncounted
    assert not room.send("t1", "result", room.result("t1", "P01", "P16", 100, game=8))  # one more: too many
    statuses = sorted(r["status"] for r in room.director.db.results() if "P01" in r["players"])
    assert statuses == ["confirmed", "not_seated", "too_many"]
    client = TestClient(create_app(room.director))
    p01 = client.get("/api/player", params={"name": "P01"}).json()
    assert [r["status"] for r in p01["results"]] == ["confirmed"] and p01["games"] == 1


def test_the_seating_of_the_round_is_public_with_each_seats_colour(tmp_path: Path) -> None:
    room = admin_room(tmp_path)  # round 1 seated P01 v P16 at t1, P02 v P15 at t2, ...
    client = TestClient(create_app(room.director))
    seating = client.get("/api/seating").json()
    assert seating["round"] == 1 and seating["kind"] == "qualifying" and seating["games"] == 1
    assert seating["tables"][0] == {"table": "t1", "players": ["P01", "P16"], "colours": ["Red", "Blue"], "games": 1}
    assert [t["table"] for t in seating["tables"]] == [f"t{n}" for n in range(1, 9)]
    room.director.db.add_round("qualifying", {"t2": ["P01", "P02", "P03", "P04"]}, 3)  # a four-handed table
    assert client.get("/api/seating").json() == {"round": 2, "kind": "qualifying", "games": 3, "tables": [
        {"table": "t2", "players": ["P01", "P02", "P03", "P04"], "colours": ["Red", "Blue", "Red", "Blue"],
         "games": 3}]}
    assert "Find your name" in client.get("/seating").text


def test_a_withdrawn_player_keeps_the_games_played_but_is_seated_no_more_and_passed_over_for_the_cut(
        tmp_path: Path) -> None:
    import random

    room = admin_room(tmp_path)
    client, ok = logged_in(room)
    d = room.director
    top = d.ranked()[0]["name"]
    before = {x["name"]: (x["games"], x["points"]) for x in d.ranked()}
    assert client.post("/admin/players/withdraw", json={"name": top}, headers=ok).json() == {"ok": True}
    assert client.post("/admin/players/withdraw", json={"name": "Nobody"}, headers=ok).status_code == 400
    assert {x["name"]: (x["games"], x["points"]) for x in d.ranked()} == before  # the games played stay
    assert [x["withdrawn"] for x in client.get("/api/standings").json()] == [True] + [False] * 15
    for method in ("random", "swiss"):
        _, seating = d.seat_round(method, random.Random(2))
        assert top not in {p for names in seating.values() for p in names}
    seeds = d.close_qualifying()
    assert top not in seeds and seeds == [x["name"] for x in d.ranked()[1:5]]  # the fifth takes the place


def test_a_player_renamed_keeps_every_game_under_the_new_name(tmp_path: Path) -> None:
    room = admin_room(tmp_path)
    client, ok = logged_in(room)
    d = room.director
    old = next(x for x in d.ranked() if x["name"] == "P01")
    assert client.post("/admin/players/rename", json={"name": "P01", "new": "Pat One"}, headers=ok).json() == {"ok": True}
    assert client.post("/admin/players/rename", json={"name": "P02", "new": "P03"}, headers=ok).status_code == 400
    new = next(x for x in d.ranked() if x["name"] == "Pat One")
    assert {**old, "name": "Pat One"} == new and "P01" not in [x["name"] for x in d.ranked()]
    assert d.db.results()[0]["players"] == ["Pat One", "P16"] and d.seating()["tables"][0]["players"] == ["Pat One", "P16"]
    assert next(x for x in Director(d.db).ranked() if x["name"] == "Pat One") == new  # as a restart counts it
    assert client.get("/api/player", params={"name": "Pat One"}).json()["results"][0]["players"][0] == "Pat One"


def test_partners_entered_one_by_one_each_have_their_games_on_their_page(tmp_path: Path) -> None:
    room = admin_room(tmp_path)  # round 1 seated P01 v P16 at t1, and played
    room.director.db.add_round("qualifying", {"t1": ["P01", "P02", "P03", "P04"]})
    assert room.send("t1", "result", room.result("t1", "P01 & P03", "P02 & P04", 85, game=2))
    client = TestClient(create_app(room.director))
    pair = ["P01 & P03", "P02 & P04"]
    for name, games in (("P01", [["P01", "P16"], pair]), ("P03", [["P03", "P14"], pair]),
                        ("P04", [["P04", "P13"], pair]), ("P05", [["P05", "P12"]])):
        page = client.get("/api/player", params={"name": name}).json()
        assert [r["players"] for r in page["results"]] == games and page["games"] == len(games)


def test_a_director_whose_clock_is_behind_is_told_so_by_its_health(tmp_path: Path) -> None:
    """The director's clock 30 days behind the tables': their messages are taken by the room's
    clock, and ``/api/health`` says the director's clock is behind, and which table is refused."""
    room = admin_room(tmp_path)
    now = time.time()
    room.director.clock = lambda: now - 30 * 86_400
    for n, table in enumerate(("t1", "t2"), 1):
        room.send(table, "events", {"id": int(now * 1_000_000) + n, "game": 1, "event": {"type": "go", "seat": 0},
                                    "at": now})
    assert room.send("t1", "events", {"id": int(now * 1_000_000) + 9, "game": 1, "event": {"type": "go", "seat": 0},
                                      "at": now})
    assert not room.send("t2", "events", {"id": 2**53 - 1, "game": 1, "event": {"type": "go", "seat": 0}, "at": now})
    warnings = TestClient(create_app(room.director)).get("/api/health").json()["warnings"]
    assert warnings[0].startswith("the tables' clocks are 30 days ahead of this machine's clock")
    assert "is the director's clock right?" in warnings[0]
    assert warnings[1].startswith("t2's ids are ") and "is t2's clock right?" in warnings[1]
