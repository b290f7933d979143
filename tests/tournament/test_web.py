"""The director's JSON API and admin actions through Starlette's test client: public pages
read-only, admin changes only with the session cookie and its CSRF token."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import EventDB, hash_password
from cribpi.tournament.director.web import create_app
from tests.tournament.test_standings import PLAYERS, ROUND_1, Room

PASSWORD = "let me in please"


def admin_room(tmp_path: Path) -> Room:
    """A room with an admin password, the players registered and round 1 played."""
    made = Room(tmp_path)
    made.director.db.put("admin", hash_password(PASSWORD))
    for name in PLAYERS:
        made.director.register(name)
    made.play_round(ROUND_1)
    return made


@pytest.fixture
def room(tmp_path: Path) -> Room:
    return admin_room(tmp_path)


@pytest.fixture
def client(room: Room) -> TestClient:
    return TestClient(create_app(room.director))


def test_the_api_serves_standings_tables_bracket_and_players(client: TestClient, room: Room) -> None:
    ranked = client.get("/api/standings").json()
    assert ranked[0] == {"rank": 1, "name": "P04", "games": 1, "won": 1, "points": 3, "spread": 71,
                         "plus": 71, "withdrawn": False}
    assert [t["table"] for t in client.get("/api/tables").json()] == [f"t{n}" for n in range(1, 9)]
    assert client.get("/api/tables/t1").json()["online"] is False
    assert client.get("/api/tables/t99").status_code == 404
    assert client.get("/api/bracket").json()["qualifiers"] == 4
    p01 = client.get("/api/players/P01").json()
    assert p01["points"] == 3 and p01["results"][0]["players"] == ["P01", "P16"]
    assert client.get("/api/players/Nobody").status_code == 404
    for page in ("/", "/leaderboard", "/bracket", "/feature/t1", "/player/P01", "/admin"):
        response = client.get(page)
        assert response.status_code == 200 and "<main" in response.text


def test_public_routes_refuse_changes(client: TestClient) -> None:
    assert client.post("/api/standings", json={}).status_code == 405
    assert client.post("/admin/players", json={"name": "Mallory"}).status_code == 403
    assert "Mallory" not in [r["name"] for r in client.get("/api/standings").json()]


def test_admin_needs_the_password_and_the_csrf_token(client: TestClient, room: Room) -> None:
    assert client.post("/admin/login", json={"password": "guess"}).status_code == 403
    assert client.post("/admin/login", content=b"not json").status_code == 400
    token = client.post("/admin/login", json={"password": PASSWORD}).json()["csrf"]
    assert client.post("/admin/players", json={"name": "Zed"}).status_code == 403  # cookie, no token
    assert client.post("/admin/players", json={"name": "Zed"}, headers={"x-csrf-token": "forged"}).status_code == 403
    ok = {"x-csrf-token": token}
    assert client.post("/admin/players", json={"name": "Zed"}, headers=ok).json() == {"added": True}
    assert "Zed" in room.director.db.players()
    seated = client.post("/admin/rounds", json={"method": "swiss"}, headers=ok).json()
    assert seated["round"] == 2 and len(seated["seating"]) == 8  # 17 players: one sits out
    pairs = [frozenset(p) for p in seated["seating"].values()]
    assert not set(pairs) & {frozenset((w, lo)) for w, lo, _ in ROUND_1}  # no rematch
    assert client.post("/admin/rounds", json={"method": "coin"}, headers=ok).status_code == 400
    playoff = client.post("/admin/rounds", json={"method": "bracket"}, headers=ok).json()
    top = [x["name"] for x in client.get("/api/standings").json()[:5]]  # 17 entrants: 5 qualify, 3 byes
    # seed 4 v 5 for the place against seed 1; seeds 2 and 3, both through on byes, meet already
    assert playoff == {"round": 3, "seating": {"t1": [top[3], top[4]], "t2": [top[1], top[2]]}}
    first = room.director.db.results()[0]["id"]
    fix = {"scores": [121, 100], "winner": 0, "kind": "win", "margin": 21, "why": "card says 100"}
    assert client.post(f"/admin/results/{first}", json=fix, headers=ok).json() == {"ok": True}
    assert client.get("/api/players/P01").json()["points"] == 2
    assert room.director.db.corrections()[0]["why"] == "card says 100"


def test_a_fresh_director_on_the_same_database_keeps_the_login_hash(room: Room) -> None:
    again = Director(EventDB(room.director.db.db.execute("PRAGMA database_list").fetchone()[2]))
    client = TestClient(create_app(again))
    assert client.post("/admin/login", json={"password": PASSWORD}).status_code == 200
