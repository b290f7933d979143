"""A result counts only where a seating or the director expects it: a table's password (t1's,
publishing by hand as ``mosquitto_pub`` would) can neither count a result before a round is
seated, nor turn a result kept for the admin into a counted one by sending it again. Only the
admin counts (or rejects) a kept result, and each ruling is in the audit trail. Open play
(``director init --open``) counts a table's results with no round seated, as ever. Against a
real mosquitto (one for the module) and the director; each test has an event of its own."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cribpi.cli import main
from cribpi.tournament.broker import parse_broker
from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.messages import acks_topic, parse_acks
from cribpi.tournament.director.room import DIRECTOR, EVENT_DB
from cribpi.tournament.director.web import create_app
from tests.tournament.conftest import ADMIN_PASSWORD, EVENT, Mosquitto, running_room
from tests.tournament.test_attacks import Intruder, line, send
from tests.tournament.test_browser import Server, admin_page, browser, shots  # noqa: F401 - fixtures
from tests.tournament.test_publisher import wait_for

pytestmark = pytest.mark.mqtt
NAMES = ("Ann", "Ben", "Cat", "Dan")
ids = itertools.count(1)  # the intruders' message ids: one broker, and a new event for each test


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mosquitto]:
    yield from running_room(tmp_path_factory.mktemp("kept"))


def event(room: Mosquitto, folder: Path, *more: str) -> Director:
    """An event made by ``cribpi director init`` (``more``: its options) with ``NAMES``
    registered, its director following ``room``'s broker."""
    (folder / "pw").write_text(ADMIN_PASSWORD)
    assert main(["director", "init", EVENT, "--dir", str(folder / "ev"), "--tables", "4", "--port", "1",
                 "--admin-password-file", str(folder / "pw"), *more]) == 0
    d = Director(EventDB(folder / "ev" / EVENT_DB))
    for name in NAMES:
        d.register(name)
    d.connect(parse_broker(room.url, username=DIRECTOR, password=room.room.credentials[DIRECTOR]))
    wait_for(d.subscribed.is_set)
    return d


def result(players: tuple[str, str], game: int, game_number: int = 1, *, loser: int = 100,
           msg_id: int | None = None) -> bytes:
    margin = 121 - loser
    kind = "win" if loser >= 91 else "skunk" if loser >= 61 else "double_skunk"
    return json.dumps({"id": next(ids) if msg_id is None else msg_id, "game": game, "game_number": game_number,
                       "players": list(players), "scores": [121, loser], "winner": 0, "kind": kind,
                       "game_points": 2, "margin": margin, "status": "confirmed", "at": 1.0}).encode()


def owner(room: Mosquitto, table: str) -> Intruder:
    """``table``'s password in a client of its own, reading what the director says it has."""
    intruder = Intruder(room, table, f"owner-{next(ids)}", clean_session=True)
    intruder.client.subscribe(acks_topic(EVENT, table), qos=1)
    assert intruder.subscribed.wait(30)
    return intruder


def told(intruder: Intruder) -> set[int]:
    """The ids the director has said it has its last word on."""
    return {n for _, payload in list(intruder.messages) for n in (parse_acks(payload) or ("", []))[1]}


def standings(d: Director) -> list[tuple[str, int, int, int]]:
    return [(x["name"], x["games"], x["won"], x["points"]) for x in d.ranked()]


def closed(d: Director, *intruders: Intruder) -> None:
    for intruder in intruders:
        intruder.close()
    d.close()
    d.db.close()


def test_a_kept_too_many_sent_again_with_newer_ids_stays_kept(room: Mosquitto, tmp_path: Path) -> None:
    """The attack: the same extra game and game number again with a newer id found the kept row
    and confirmed it, counted (5 to 14 points in a one-game round)."""
    d = event(room, tmp_path)
    number, seating = d.seat_round("random", random.Random(1))
    (table, seated), = ((t, p) for t, p in seating.items() if "Ann" in p)
    pair = (seated[0], seated[1])
    t = owner(room, table)
    send(t, table, "result", result(pair, 1, 1))  # the match's one game
    wait_for(lambda: d.accepted["result"] == 1)
    extra = result(pair, 1, 2, loser=0)
    send(t, table, "result", extra)  # one game more: kept
    wait_for(lambda: d.refused["too_many"] == 1)
    before = standings(d)
    again = [json.loads(extra) | {"id": next(ids)} for _ in range(3)]
    for body in again:  # the same game, newer ids
        send(t, table, "result", json.dumps(body).encode())
    wait_for(lambda: sum(d.refused.values()) + d.accepted["result"] == 5)  # each taken or refused
    assert d.refused == {"too_many": 4}
    assert standings(d) == before and line(d, pair[0])[:2] == (1, 1)
    assert [r["status"] for r in d.db.results()] == ["confirmed", "too_many"]
    wait_for(lambda: {b["id"] for b in again} <= told(t))  # acknowledged: the table's outbox lets them go
    assert standings(Director(d.db)) == before  # nor does a restart count it
    assert [k["reason"] for k in d.kept()] == [f"one game more than round {number}'s match of {pair[0]} v {pair[1]}"
                                               f" at {table} has"]
    closed(d, t)


def forge(room: Mosquitto, d: Director) -> tuple[Intruder, list[bytes], list[dict[str, Any]]]:
    """Before round 1 is seated, t1's password publishes results of other players: Cat beat Dan,
    and Eve (not registered yet) beat Ann; Eve is registered after. With what the admin's kept
    list held before she was."""
    t1 = owner(room, "t1")
    forged = [result(("Cat", "Dan"), 1, loser=0), result(("Eve", "Ann"), 2, loser=0)]
    for payload in forged:
        send(t1, "t1", "result", payload)
    wait_for(lambda: sum(d.refused.values()) + d.accepted["result"] == 2)
    listed = d.kept()
    d.register("Eve")
    return t1, forged, listed


def test_before_round_1_is_seated_a_tables_results_are_kept_not_counted(room: Mosquitto, tmp_path: Path) -> None:
    d = event(room, tmp_path)
    t1, forged, listed = forge(room, d)
    assert [(k["id"] is None, k["status"], k["reason"]) for k in listed] == \
        [(False, "no_seating", listed[0]["reason"]), (True, "waiting", "Eve not registered: registering them checks it"
                                                                         " again")]
    assert d.refused == {"no_seating": 2, "unknown_player": 1} and d.accepted["result"] == 0  # Eve's: waited, kept
    assert all(games == 0 for _, games, _, _ in standings(d))
    kept = d.kept()
    assert [(k["table_id"], k["players"], k["status"]) for k in kept] == \
        [("t1", ["Cat", "Dan"], "no_seating"), ("t1", ["Eve", "Ann"], "no_seating")]
    assert all("no round was seated" in k["reason"] for k in kept)
    wait_for(lambda: {json.loads(p)["id"] for p in forged} <= told(t1))  # both acknowledged to the table
    # round 1 seats Cat v Dan at t1: the forged game sent again with a newer id is still kept
    d.db.add_round("qualifying", {"t1": ["Cat", "Dan"], "t2": ["Ann", "Ben"]})
    send(t1, "t1", "result", json.dumps(json.loads(forged[0]) | {"id": next(ids)}).encode())
    wait_for(lambda: sum(d.refused.values()) + d.accepted["result"] == 4)
    assert d.refused["no_seating"] == 3
    assert all(games == 0 for _, games, _, _ in standings(d))
    assert [r["status"] for r in d.db.results()] == ["no_seating", "no_seating"]
    # and round 2's Swiss pairings are the standings' alone: a kept result is no game met
    _, seating = d.seat_round("swiss", random.Random(1))
    assert seating == {"t1": ["Ann", "Ben"], "t2": ["Cat", "Dan"]}  # by name, nobody having played; Eve sits out
    closed(d, t1)


def test_an_open_play_event_counts_a_tables_results_with_no_round_seated(room: Mosquitto, tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    d = event(room, tmp_path, "--open")
    assert "open play" in capsys.readouterr().out and d.db.get("open_play") == "1"
    t1, _, _ = forge(room, d)
    wait_for(lambda: d.accepted["result"] == 2)
    assert line(d, "Cat") == (1, 1, 3) and line(d, "Eve") == (1, 1, 3) and line(d, "Ann")[:2] == (1, 0)
    assert d.kept() == [] and d.refused == {"unknown_player": 1}  # Eve's, till she was registered
    closed(d, t1)


@pytest.fixture
def ruled(room: Mosquitto, tmp_path: Path) -> Iterator[tuple[Director, Intruder, TestClient]]:
    """The forgery kept, and the admin logged in on the director's pages."""
    d = event(room, tmp_path)
    t1, _, _ = forge(room, d)
    client = TestClient(create_app(d))
    client.headers["x-csrf-token"] = client.post("/admin/login", json={"password": ADMIN_PASSWORD}).json()["csrf"]
    yield d, t1, client
    closed(d, t1)


def test_the_admin_counts_or_rejects_a_kept_result_and_each_is_audited(
        ruled: tuple[Director, Intruder, TestClient]) -> None:
    d, t1, admin = ruled
    listed = admin.get("/admin/kept").json()
    assert listed["open_play"] is False
    cat_dan, eve_ann = (k["id"] for k in listed["kept"])
    assert admin.post(f"/admin/results/{cat_dan}/count", json={"why": "played at t1"}).json() == {"ok": True}
    assert line(d, "Cat") == (1, 1, 3) and line(d, "Dan") == (1, 0, 0)
    assert admin.post(f"/admin/results/{eve_ann}/reject", json={}).json() == {"ok": True}
    assert line(d, "Eve") == (0, 0, 0) and line(d, "Ann") == (0, 0, 0)
    assert admin.get("/admin/kept").json()["kept"] == []
    audit = [(c["result"], c["by"], c["why"], c["before"]["status"], c["after"]["status"]) for c in d.db.corrections()]
    assert audit == [(cat_dan, "admin", "played at t1", "no_seating", "confirmed"),
                     (eve_ann, "admin", "rejected (no_seating)", "no_seating", "rejected")]
    # round 1 seats Eve v Ann at t1, which sends the rejected game again with a newer id: still
    # rejected, and acknowledged
    d.db.add_round("qualifying", {"t1": ["Eve", "Ann"]})
    body = next(r for r in d.db.results() if r["id"] == eve_ann)
    again = json.dumps({"id": next(ids), "game": body["game"], "game_number": body["game_number"],
                        "players": body["players"], "scores": body["scores"], "winner": 0, "kind": body["kind"],
                        "game_points": 2, "margin": body["margin"], "status": "confirmed", "at": 1.0}).encode()
    send(t1, "t1", "result", again)
    wait_for(lambda: sum(d.refused.values()) + d.accepted["result"] == 4)
    assert d.refused["rejected"] == 1
    wait_for(lambda: json.loads(again)["id"] in told(t1))
    assert line(d, "Eve") == (0, 0, 0) and standings(Director(d.db)) == standings(d)


def test_counting_or_rejecting_is_refused_without_a_login_its_token_or_a_kept_result(
        ruled: tuple[Director, Intruder, TestClient]) -> None:
    d, _, admin = ruled
    first = d.kept()[0]["id"]
    before = d.db.results(), d.db.corrections(), standings(d)
    anyone = TestClient(create_app(d))
    assert anyone.get("/admin/kept").status_code == 403
    assert anyone.post(f"/admin/results/{first}/count", json={}).json() == {"error": "log in as the director first"}
    no_token = TestClient(create_app(d))
    no_token.post("/admin/login", json={"password": ADMIN_PASSWORD})
    assert "CSRF" in no_token.post(f"/admin/results/{first}/reject", json={}).json()["error"]
    answers: list[tuple[str, dict[str, Any], int, str]] = [
        ("99/count", {}, 404, "result 99 does not exist"),
        (f"{first}/count", {"why": 5}, 400, "why 5 is not valid: text, up to 200 characters"),
        (f"{first}/reject", {"scores": [121, 0]}, 400, "unknown field scores: only why (text) is accepted"),
    ]
    for path, data, status, said in answers:
        response = admin.post(f"/admin/results/{path}", json=data)
        assert (response.status_code, response.json()["error"]) == (status, said)
    assert (d.db.results(), d.db.corrections(), standings(d)) == before
    admin.post(f"/admin/results/{first}/count", json={})
    response = admin.post(f"/admin/results/{first}/reject", json={})  # it counts now: a correction changes it
    assert response.status_code == 400 and "is confirmed" in response.json()["error"]
    assert admin.post(f"/admin/results/{first}/count", json={}).status_code == 400
    assert [c["after"]["status"] for c in d.db.corrections()] == ["confirmed"]


@pytest.mark.browser
def test_the_admin_page_lists_the_kept_results_and_counts_or_rejects_each(
        ruled: tuple[Director, Intruder, TestClient], browser: Any, shots: Path) -> None:  # noqa: F811
    d, _, _ = ruled
    server = Server(d)
    try:
        page = admin_page(browser, server, ADMIN_PASSWORD)
        rows = page.locator("#kept tr[data-status=no_seating]")
        rows.first.wait_for()
        assert rows.count() == 2 and page.inner_text("#kept-results h3") == "Kept, not counted (2)"
        assert "Cat v Dan" in rows.nth(0).inner_text() and "no round was seated" in rows.nth(0).inner_text()
        page.locator("#kept-results").screenshot(path=str(shots / "tournament-admin-kept.png"))
        rows.nth(0).locator("button:text-is('Count')").click()
        page.wait_for_selector("#kept-results h3:text-is('Kept, not counted (1)')")
        assert line(d, "Cat") == (1, 1, 3)
        assert "Eve v Ann" in rows.nth(0).inner_text()
        rows.nth(0).locator("button:text-is('Reject')").click()
        page.wait_for_selector("#kept-results h3:text-is('Kept, not counted (0)')")
        assert page.inner_text("#said").startswith("done")
        assert [c["after"]["status"] for c in d.db.corrections()] == ["confirmed", "rejected"]
        assert line(d, "Eve") == (0, 0, 0)
        statuses = page.locator("section table tr td:nth-child(6)").all_inner_texts()
        assert statuses == ["confirmed", "rejected"]  # the results listed below, as they are now
    finally:
        server.stop()
