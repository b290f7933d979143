"""The admin's corrections and the tables' results are held to what a game can end as: a
refused correction changes nothing (the row, the audit trail, the standings, a restart), a
stored row the standings cannot use never stops a director from starting, and registration
refuses names no page can show."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cribpi.tournament.director import Director
from cribpi.tournament.messages import result_problem
from cribpi.tournament.director.web import create_app
from tests.tournament.test_standings import PLAYERS, Room, table
from tests.tournament.test_web import PASSWORD, admin_room

@pytest.fixture
def room(tmp_path: Path) -> Room:
    return admin_room(tmp_path)


@pytest.fixture
def admin(room: Room) -> TestClient:
    client = TestClient(create_app(room.director))
    token = client.post("/admin/login", json={"password": PASSWORD}).json()["csrf"]
    client.headers["x-csrf-token"] = token
    return client


def snapshot(room: Room) -> tuple[Any, ...]:
    return room.director.db.results(), room.director.db.corrections(), table(room.director)


BAD_CORRECTIONS = [  # (body, a word the refusal must name)
    ({"scores": ["a", "b"], "winner": 0, "kind": "foo", "margin": -50, "why": "test"}, "scores"),
    ({"scores": [121, 80], "winner": 0, "kind": "foo", "margin": 41}, "kind"),
    ({"scores": [121, 80], "winner": 0, "kind": "skunk", "margin": -50}, "margin"),
    ({"scores": [121, 130], "winner": 0, "kind": "lurch", "margin": 10**9}, "scores [121, 130]"),
    ({"scores": [121, 100], "winner": 0, "kind": "win", "margin": 10**9}, "margin"),
    ({"scores": [121, 121], "winner": 0, "kind": "win", "margin": 0}, "losing score"),
    ({"scores": [121, 100], "winner": 0, "kind": "lurch", "margin": 21}, "kind 'lurch'"),
    ({"scores": [121, 30], "winner": 1, "kind": "double_skunk", "margin": 91}, "winner's score"),
    ({"scores": [121, 80], "winner": 0, "kind": "win", "margin": 41}, "skunk"),
    ({"scores": [121, 80], "winner": 0, "kind": "skunk", "margin": 40}, "won by 41"),
    ({"scores": [121, 80, 70], "winner": 0, "kind": "skunk", "margin": 41}, "scores"),
    ({"scores": [121, 80], "winner": 2, "kind": "skunk", "margin": 41}, "winner"),
    ({"scores": [121, 80], "winner": True, "kind": "skunk", "margin": 41}, "winner"),
    ({"scores": [121, 80], "kind": "skunk", "margin": 41}, "winner is missing"),
    ({"scores": [121, 80], "winner": 0, "kind": "skunk", "margin": 41, "why": 5}, "why"),
]


@pytest.mark.parametrize("fix, named", BAD_CORRECTIONS)
def test_a_refused_correction_changes_nothing_even_after_a_restart(room: Room, admin: TestClient, fix: dict[str, Any],
                                                                   named: str) -> None:
    first = room.director.db.results()[0]["id"]  # P01 beat P16 121-80, a skunk
    before = snapshot(room)
    response = admin.post(f"/admin/results/{first}", json=fix)
    assert response.status_code == 400 and named in response.json()["error"]
    assert snapshot(room) == before
    assert table(Director(room.director.db)) == before[2]  # a restarted director starts, with the same standings


def test_a_correction_of_a_result_that_does_not_exist_is_404(admin: TestClient, room: Room) -> None:
    before = snapshot(room)
    fix = {"scores": [121, 100], "winner": 0, "kind": "win", "margin": 21}
    response = admin.post("/admin/results/99", json=fix)
    assert response.status_code == 404 and response.json() == {"error": "result 99 does not exist"}
    assert snapshot(room) == before


def test_a_good_correction_in_a_61_point_game_counts(admin: TestClient, room: Room) -> None:
    room.director.db.put("game_length", "61")  # an event of games to 61
    first = room.director.db.results()[0]["id"]
    fix = {"scores": [61, 20], "winner": 0, "kind": "skunk", "margin": 41, "why": "a game to 61"}
    assert admin.post(f"/admin/results/{first}", json=fix).json() == {"ok": True}
    p01 = next(x for x in room.director.ranked() if x["name"] == "P01")
    assert (p01["points"], p01["spread"]) == (3, 41)
    assert admin.post(f"/admin/results/{first}", json={**fix, "kind": "double_skunk"}).status_code == 400


def store_unusable(room: Room, **changes: Any) -> int:
    """Rewrite the first result in the database as an older director (or a hand) could have."""
    first = room.director.db.results()[0]["id"]
    sets = ", ".join(f"{k} = ?" for k in changes)
    values = [json.dumps(v) if isinstance(v, list) else v for v in changes.values()]
    room.director.db.db.execute(f"UPDATE results SET {sets} WHERE id = ?", (*values, first))
    return int(first)


@pytest.mark.parametrize("changes", [
    {"kind": "foo"}, {"scores": ["a", "b"], "margin": -50}, {"winner": 5}, {"players": ["P01", "Nobody"]},
    {"scores": [121]},
])
def test_a_stored_row_the_standings_cannot_use_is_left_out_with_one_log_line(
        room: Room, admin: TestClient, caplog: pytest.LogCaptureFixture, changes: dict[str, Any]) -> None:
    others = table(room.director)
    first = store_unusable(room, **changes)
    with caplog.at_level(logging.ERROR, logger="cribpi.tournament.director"):
        again = Director(room.director.db)
    lines = [r.getMessage() for r in caplog.records if r.name == "cribpi.tournament.director"]
    assert len(lines) == 1 and f"result {first} (table t1) left out" in lines[0]
    p01, p16 = (next(x for x in again.ranked() if x["name"] == n) for n in ("P01", "P16"))
    assert p01["games"] == 0 and p16["games"] == 0  # the row left out; the rest as before
    assert [x for x in table(again) if x[0] not in ("P01", "P16")] == \
        [x for x in others if x[0] not in ("P01", "P16")]
    if "players" not in changes:  # the admin corrects it: counted once, nothing taken back
        again.correct(first, [121, 100], 0, "win", 21, by="admin", why="fixed")
        p01, p16 = (next(x for x in again.ranked() if x["name"] == n) for n in ("P01", "P16"))
        assert (p01["games"], p01["points"], p01["spread"], p16["games"], p16["spread"]) == (1, 2, 21, 1, -21)


# -- the tables' results --------------------------------------------------------------------


def result(room: Room, scores: list[int], kind: str, margin: int, winner: int = 0) -> dict[str, Any]:
    body = room.result("t1", "P01", "P16", 0, game=7)
    return {**body, "scores": scores, "kind": kind, "margin": margin, "winner": winner}


@pytest.mark.parametrize("scores, kind, margin", [
    ([121, 120], "skunk", 9999),  # a skunk with the loser on 120
    ([121, 120], "skunk", 1),
    ([121, 120], "win", 9999),
    ([12, 0], "win", 12),  # not a game's end
    ([125, 80], "skunk", 41),  # past the game hole: the peg stops in it
    ([121, 80], "win", 41),  # a skunk called a win
    ([121, 50], "skunk", 71),  # a double skunk called a skunk
    ([121, 50], "lurch", 71),  # Hoyle's name; the event grades by ACC
    ([61, 20], "double_skunk", 41),  # no double skunk in a game to 61
    ([61, 61], "win", 0),
])
def test_a_tables_result_that_no_game_ends_with_is_refused(tmp_path: Path, scores: list[int], kind: str,
                                                           margin: int) -> None:
    room = Room(tmp_path)
    for name in PLAYERS:
        room.director.register(name)
    room.director.db.add_round("qualifying", {"t1": ["P01", "P16"]})
    assert not room.send("t1", "result", result(room, scores, kind, margin))
    assert room.director.refused == {"bad_field": 1} and room.director.health()["refused"] == {"bad_field": 1}
    assert room.director.db.results() == [] and all(x["games"] == 0 for x in room.director.ranked())


@pytest.mark.parametrize("scores, kind, margin, points", [
    ([121, 120], "win", 1, 2), ([121, 90], "skunk", 31, 3), ([121, 0], "double_skunk", 121, 3),
    ([61, 30], "skunk", 31, 3), ([61, 31], "win", 30, 2), ([80, 121], "skunk", 41, 3),
])
def test_a_tables_result_as_the_rules_grade_it_counts(tmp_path: Path, scores: list[int], kind: str, margin: int,
                                                      points: int) -> None:
    room = Room(tmp_path)
    for name in PLAYERS:
        room.director.register(name)
    room.director.db.add_round("qualifying", {"t1": ["P01", "P16"]})
    room.director.db.put("game_length", str(max(scores)))  # an event of games to 121, or to 61
    winner = scores.index(max(scores))
    assert room.send("t1", "result", result(room, scores, kind, margin, winner))
    top = room.director.ranked()[0]
    assert (top["name"], top["points"], top["spread"]) == (["P01", "P16"][winner], points, margin)


def test_result_problem_names_what_is_wrong() -> None:
    assert result_problem([121, 85], 0, "skunk", 36) is None
    assert result_problem([121, 85], 0, "win", 36) == "kind 'win': a game won 121-85 is a skunk"
    assert result_problem([121, 85], 0, "skunk", 9) == "margin 9: a game won 121-85 is won by 36"
    assert result_problem([121, 85, 100], 0, "win", 21) is None  # the runner-up's score grades it
    assert "not a side" in (result_problem([121, 85], 3, "win", 36) or "")
    text: Any = "121"
    assert "whole numbers" in (result_problem([text, 85], 0, "win", 36) or "")


def test_the_director_refuses_a_correction_of_the_wrong_types_and_changes_nothing(room: Room) -> None:
    first = room.director.db.results()[0]["id"]
    before = snapshot(room)
    with pytest.raises(ValueError, match="whole numbers"):
        room.director.correct(first, list[Any](["a", "b"]), 0, "foo", -50, by="admin", why="test")
    assert snapshot(room) == before


# -- registration -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["a\u0000b\nc", "tab\there", "bell\u0007", "x" * 65, "", "   ", 5, None])
def test_registration_refuses_control_characters_and_overlong_names(admin: TestClient, room: Room,
                                                                    name: Any) -> None:
    before = room.director.db.players()
    response = admin.post("/admin/players", json={"name": name})
    assert response.status_code == 400 and "1-64 printable characters" in response.json()["error"]
    assert room.director.db.players() == before


def test_registering_a_name_twice_says_so(admin: TestClient, room: Room) -> None:
    assert admin.post("/admin/players", json={"name": " Zoë "}).json() == {"added": True}
    again = admin.post("/admin/players", json={"name": "Zoë"})
    assert again.status_code == 200 and again.json() == {"added": False, "message": "Zoë is already registered"}
    assert room.director.db.players().count("Zoë") == 1


# -- a result finished after the next round was seated ---------------------------------------


def test_a_result_of_the_round_before_is_kept_for_the_admin_and_counts_once_accepted(room: Room,
                                                                                       admin: TestClient) -> None:
    room.director.db.add_round("qualifying", {"t1": ["P01", "P02"]})  # round 2 seated: t1 still had P01 v P16 on
    before = table(room.director)
    late = room.result("t1", "P01", "P16", 85, game=2)
    assert not room.send("t1", "result", late)
    assert room.director.refused == {"not_seated": 1} and table(room.director) == before
    kept = [r for r in admin.get("/admin/results").json() if r["status"] == "not_seated"]
    assert [(r["table_id"], r["players"], r["scores"], r["kind"], r["round"]) for r in kept] == \
        [("t1", ["P01", "P16"], [121, 85], "skunk", 1)]  # in the round that seated them there
    assert not room.send("t1", "result", late)  # delivered again: kept once
    assert len([r for r in room.director.db.results() if r["status"] == "not_seated"]) == 1
    assert table(Director(room.director.db)) == before  # not counted at a restart either
    fix = {"scores": [121, 85], "winner": 0, "kind": "skunk", "margin": 36, "why": "played in round 1"}
    assert admin.post(f"/admin/results/{kept[0]['id']}", json=fix).json() == {"ok": True}
    p01 = next(x for x in room.director.ranked() if x["name"] == "P01")
    assert (p01["games"], p01["points"], p01["spread"]) == (2, 6, 41 + 36)
    assert table(Director(room.director.db)) == table(room.director)


def test_results_of_unseated_players_kept_are_bounded_per_table(room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cribpi.tournament.director.intake.WAITING_PER_TABLE", 2)
    room.director.db.add_round("qualifying", {"t1": ["P01", "P02"]})
    for game in range(3, 7):
        assert not room.send("t1", "result", room.result("t1", "P03", "P04", 100, game=game))
    assert len([r for r in room.director.db.results() if r["status"] == "not_seated"]) == 2
    assert room.director.refused == {"not_seated": 4}


def test_a_disputed_game_is_confirmed_only_by_its_own_players(room: Room) -> None:
    """A disputed result waits for its table's confirmation; a "confirmation" of that game by the
    next round's players seated there (the same game and game number, a newer id) counted the
    disputed players' game with the newcomers' figures."""
    room.director.db.add_round("qualifying", {"t1": ["P01", "P02"]})
    assert room.send("t1", "result", room.result("t1", "P02", "P01", 100, game=9, status="disputed"))
    room.director.db.add_round("qualifying", {"t1": ["P03", "P04"]})
    before = table(room.director)
    assert not room.send("t1", "result", room.result("t1", "P03", "P04", 0, game=9))
    assert room.director.refused == {"not_seated": 1} and table(room.director) == before
    assert [r["status"] for r in room.director.db.results() if r["game"] == 9] == ["disputed"]
    room.director.db.add_round("qualifying", {"t1": ["P01", "P02"]})  # its own players confirm it
    assert room.send("t1", "result", room.result("t1", "P02", "P01", 100, game=9))
    assert [r["status"] for r in room.director.db.results() if r["game"] == 9] == ["confirmed"]


def test_a_table_not_seated_in_the_round_has_its_result_kept_not_counted(room: Room) -> None:
    """A review: once a round seats tables, a result from a table it did not seat was counted."""
    room.director.db.add_round("qualifying", {"t1": ["P01", "P02"]})  # round 2 seats t1 only
    before = table(room.director)
    assert not room.send("t5", "result", room.result("t5", "P01", "P03", 100, game=7))
    assert room.director.refused == {"not_seated": 1} and table(room.director) == before
    assert [r["table_id"] for r in room.director.db.results() if r["status"] == "not_seated"] == ["t5"]
