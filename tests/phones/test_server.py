"""The phones' server as a phone meets it: real uvicorn on a free loopback port, httpx, and a
table (TableApp on mock parts) running its one loop in a thread; the board's keys come in as a
card reader's do (the ActionQueue). One server for the module; each test starts its own game
(a new game: a new PIN, new tokens)."""

from __future__ import annotations

import dataclasses
import json
import random
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.game import Mode
from cribpi.hal import Action
from cribpi.hal.mock import open_mock
from cribpi.phones.attach import serve
from cribpi.phones.server import RETRY_MS
from cribpi.phonesconfig import PhonesConfig
from tests.phones.tables import NAMES, PING_S, Table, to_play

pytestmark = pytest.mark.phone


def test_the_page_and_its_guards(table: Table) -> None:
    page = table.http.get("/")
    assert page.status_code == 200 and "<title>cribpi table</title>" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY" and page.headers["x-content-type-options"] == "nosniff"
    assert table.http.get("/watch").status_code == 200
    assert "EventSource" in table.http.get("/static/page.js").text
    huge = table.http.post("/api/join", content=b"{" + b" " * 40_000 + b"}", headers={"content-type": "application/json"})
    assert huge.status_code == 413 and huge.json()["reason"] == "too_large"
    form = table.http.post("/api/join", content=b"pin=1234&seat=0", headers={"content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415 and form.json()["reason"] == "not_json"


def test_join_with_the_pin_takeover_and_a_token_of_last_game(table: Table) -> None:
    pin = table.new_game()
    state = table.state()
    assert [s["name"] for s in state["seats"]] == list(NAMES) and not any(s["taken"] for s in state["seats"])
    wrong = "0000" if pin != "0000" else "1111"
    assert table.join(wrong, 0).json()["reason"] == "wrong_pin"
    first = table.join(pin, 0)
    assert first.status_code == 200
    token = first.json()["token"]
    assert table.wait_state(lambda s: s["seats"][0]["taken"])
    taken = table.join(pin, 0)
    assert taken.status_code == 409 and taken.json()["reason"] == "taken"
    second = table.join(pin, 0, confirm=True)
    assert second.status_code == 200
    shown = table.wait_state(lambda s: s["screen"]["title"] == "Phones")
    assert shown["changed_hands"] == "Ann" and "Ann's seat is on" in shown["screen"]["lines"]
    assert table.act(token, "ok").json()["reason"] == "bad_token"  # the first phone's token stopped
    later = second.json()["token"]
    new_pin = table.new_game()
    old = table.act(later, "ok")
    assert old.status_code == 401 and old.json()["reason"] == "bad_token"  # a token of last game
    assert table.join(pin, 1).status_code == 403 or pin == new_pin  # last game's PIN


def test_wrong_pins_are_rate_limited(table: Table) -> None:
    pin = table.new_game()
    wrong = f"{(int(pin) + 1) % 10000:04d}"
    codes = [table.join(wrong, 0).status_code for _ in range(5)]
    assert codes[:3] == [403, 403, 403] and 429 in codes
    limited = table.join(pin, 0)  # even the right PIN waits now: a guess is not checked
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
    table.server.limits.clear()


def test_each_action_kind_and_seat_authority(table: Table) -> None:
    tokens, dealer, pone = to_play(table)
    out_of_turn = table.act(tokens[str(dealer)], "card 9C")
    assert out_of_turn.status_code == 403 and out_of_turn.json()["error"] == f"{NAMES[pone]} lays next"
    keys = table.state()["keys"]
    assert keys[str(dealer)]["card"] == {"on": False, "why": f"{NAMES[pone]} lays next"}
    assert keys[str(pone)]["card"] == {"on": True, "why": ""} and keys[str(dealer)]["go"]["on"] is False
    laid = table.act(tokens[str(pone)], "card TH")
    assert laid.status_code == 200
    state = table.wait_state(lambda s: s["count"] == 10)
    assert state["turn"] == dealer
    # UNDO is the seat's own last event only
    refused = table.act(tokens[str(dealer)], "undo")
    assert refused.status_code == 403 and refused.json()["reason"] == "not_your_seat"
    undone = table.act(tokens[str(pone)], "undo")
    assert undone.status_code == 200
    assert table.wait_state(lambda s: s["count"] == 0)["turn"] == pone
    assert table.act(tokens[str(pone)], "card TH").status_code == 200
    assert table.act(tokens[str(dealer)], "card 5C").status_code == 200  # fifteen for the dealer
    state = table.wait_state(lambda s: s["count"] == 15)
    assert "fifteen" in state["last_score"].lower() or "15" in state["last_score"]
    bad = table.act(tokens[str(pone)], "card ZZ")
    assert bad.status_code == 400 and "not a card" in bad.json()["error"] and "5H" in bad.json()["error"]
    mug = table.act(tokens[str(pone)], f"muggins {dealer} 2")
    assert mug.status_code == 403 and "your own seat" in mug.json()["error"]
    off = table.act(tokens[str(pone)], f"muggins {pone} 2")
    assert off.status_code == 422 and "muggins" in off.json()["error"]  # count mode has none


def test_a_stale_key_is_refused_with_what_changed(table: Table) -> None:
    tokens, dealer, pone = to_play(table)
    seen = table.state()["version"]
    table.board("card 7D")  # the pone's card, keyed on the table
    table.wait_state(lambda s: s["version"] > seen)
    stale = table.act(tokens[str(pone)], "card 8D", version=seen)
    assert stale.status_code == 409 and stale.json()["reason"] == "stale"
    assert any("7D" in c for c in stale.json()["changed"]) and stale.json()["version"] == table.state()["version"]
    assert table.state()["count"] == 7  # not applied to the newer state


def test_a_card_keyed_on_a_phone_and_the_board_at_once_is_taken_once(table: Table) -> None:
    tokens, dealer, pone = to_play(table)
    version = table.state()["version"]
    events = table.in_loop(lambda: len(table.app.ui.session.game.journal))
    table.board("card 4S")
    phone = table.act(tokens[str(pone)], "card 4S", version=version)
    table.in_loop(lambda: None)
    assert table.in_loop(lambda: len(table.app.ui.session.game.journal)) == events + 1
    assert phone.status_code in (409, 422), phone.text  # the second is refused, saying why
    assert phone.json()["error"]


def test_claims_and_muggins_in_claim_mode(table: Table) -> None:
    tokens, dealer, pone = to_play(table, mode=Mode.CLAIM, rules="acc", muggins=True)
    assert table.state()["muggins"] is True
    assert table.act(tokens[str(pone)], "card 5D").status_code == 200
    assert table.act(tokens[str(dealer)], "card TD").status_code == 200  # fifteen: the dealer claims it
    state = table.wait_state(lambda s: s["count"] == 15)
    other = table.act(tokens[str(pone)], "claim 2", version=state["version"])
    assert other.status_code == 403, other.text
    claimed = table.act(tokens[str(dealer)], "claim 2", version=state["version"])
    assert claimed.status_code == 200, claimed.text
    assert table.wait_state(lambda s: s["tracks"][dealer]["front"] == 2)


def test_live_stream_delivers_each_change_and_resyncs(table: Table) -> None:
    tokens, dealer, pone = to_play(table)
    got: list[dict[str, Any]] = []
    with httpx.Client(base_url=str(table.http.base_url), timeout=10) as sse:
        with sse.stream("GET", "/api/events") as stream:
            lines = stream.iter_lines()

            def next_state() -> dict[str, Any]:
                return next_event(lines, "state")

            got.append(next_state())  # the whole state at once
            assert got[0]["version"] == table.state()["version"]
            table.board("card 2C")
            while got[-1]["count"] != 2:
                got.append(next_state())
    assert got[-1]["version"] > got[0]["version"]
    # a phone back from a locked screen: a new stream starts with the table's state now
    table.board("card 3C")
    now = table.wait_state(lambda s: s["count"] == 5)
    with httpx.Client(base_url=str(table.http.base_url), timeout=10) as sse:
        with sse.stream("GET", "/api/events") as stream:
            assert next_event(stream.iter_lines(), "state")["version"] == now["version"]


def next_event(lines: Iterator[str], kind: str) -> dict[str, Any]:
    """The data of the stream's next event of ``kind`` (state or ping)."""
    event = "message"
    for line in lines:
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == kind:
            return dict(json.loads(line[6:]))
        elif not line:
            event = "message"
    raise AssertionError("the stream ended")


def test_an_idle_stream_pings_with_the_version_shown(table: Table) -> None:
    """A page hears the table every ping (tables.PING_S here, 15 s on a table): with the version
    and run it was last sent, so a push it missed is fetched and a connection gone quiet found."""
    to_play(table)
    with httpx.Client(base_url=str(table.http.base_url), timeout=10) as sse:
        with sse.stream("GET", "/api/events") as stream:
            lines = stream.iter_lines()
            state = next_event(lines, "state")
            started = time.monotonic()
            ping = next_event(lines, "ping")
            waited = time.monotonic() - started
            assert ping == {"version": state["version"], "epoch": state["epoch"], "every": PING_S}
            table.board("card 2C")  # a change: pushed, and the next ping names it
            moved = next_event(lines, "state")
            assert moved["version"] > state["version"] and moved["epoch"] == state["epoch"]
            assert next_event(lines, "ping")["version"] == moved["version"]
    assert PING_S * 0.5 <= waited <= PING_S * 3, waited
    # the stream tells the browser how soon to reconnect
    with httpx.Client(base_url=str(table.http.base_url), timeout=10) as sse:
        with sse.stream("GET", "/api/events") as stream:
            assert next(stream.iter_lines()) == f"retry: {RETRY_MS}"


def test_a_name_with_a_script_is_sent_as_text(table: Table) -> None:
    table.new_game()

    def rename() -> None:
        ui = table.app.ui
        ui.settings = dataclasses.replace(ui.settings, names=("<script>alert(1)</script>", "Bob"))
        ui.new_game()
        table.app.publish((), ())
    table.in_loop(rename)
    state = table.state()
    assert state["names"][0] == "<script>alert(1)</script>"  # JSON, set as text by the page
    assert "innerHTML" not in table.http.get("/static/page.js").text


def test_a_port_taken_is_a_problem_shown_then_served_when_free() -> None:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    port = holder.getsockname()[1]
    app = TableApp(open_mock(), TableUI(TableSettings(names=NAMES), rng=random.Random(1)))
    server = serve(app, PhonesConfig(enabled=True, host="127.0.0.1", port=port), retry_s=0.05)
    try:
        app.start()
        assert server.problem is not None and str(port) in server.problem
        assert any(str(port) in p for p in app.view.problems())
        assert app.view.showing  # on the table's display, as a part's problem is
        app.handle(Action.parse("ok"))  # the table plays on
        assert app.ui.state.phase.value != "cut" or app.ui.screens
        holder.close()
        deadline = time.monotonic() + 10
        while server.problem is not None:
            assert time.monotonic() < deadline, server.problem
            time.sleep(0.06)
            app.run_timers()
        assert httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=5).json()["names"] == list(NAMES)
        assert app.view.problems() == () and not app.view.showing  # the problem cleared from the display
    finally:
        holder.close()
        server.stop()
        app.close()


def test_muggins_is_called_as_oneself_for_a_score_missed(table: Table) -> None:
    tokens, dealer, pone = to_play(table, mode=Mode.CLAIM, rules="acc", muggins=True)
    assert table.act(tokens[str(pone)], "card 5D").status_code == 200
    assert table.act(tokens[str(dealer)], "card TD").status_code == 200  # fifteen for 2
    assert table.act(tokens[str(dealer)], "claim 1").status_code == 200  # under-claimed
    before = table.wait_state(lambda s: s["tracks"][dealer]["front"] == 1)["tracks"][pone]["front"]
    called = table.act(tokens[str(pone)], f"muggins {pone} 1")
    assert called.status_code == 200, called.text
    assert table.wait_state(lambda s: s["tracks"][pone]["front"] == before + 1)


def test_a_result_confirmed_and_disputed_from_the_phones(table: Table) -> None:
    table.new_game(mode=Mode.BOARD, confirm_results=True)
    tokens = {str(s): table.token(s) for s in (0, 1)}
    assert table.act(tokens["0"], "ok").status_code == 200  # the cut
    state = table.wait_state(lambda s: s["phase"] == "board")
    while state["screen"]["kind"] in ("MessageScreen", "AlertScreen"):
        assert table.act(tokens["0"], "ok").status_code == 200
        state = table.state()
    assert table.act(tokens["0"], "claim 3").status_code == 200  # the board: each seat pegs its own
    assert table.wait_state(lambda s: s["tracks"][0]["front"] == 3)
    for points in (29, 29, 29, 29, 29):
        assert table.act(tokens["1"], f"claim {points}").status_code == 200
    over = table.wait_state(lambda s: s["phase"] in ("game_over", "match_over"))
    assert over["keys"]["0"]["confirm"]["on"] and not over["keys"]["1"]["confirm"]["on"]
    early = table.act(tokens["1"], "confirm")
    assert early.status_code == 403 and "confirms the result" in early.json()["error"]
    assert table.act(tokens["0"], "confirm").status_code == 200
    assert table.wait_state(lambda s: s["keys"]["1"]["confirm"]["on"])
    assert table.act(tokens["1"], "dispute").status_code == 200
    assert table.wait_state(lambda s: s["screen"]["title"] == "Disputed")


def test_go_is_said_by_the_seat_to_lay_only(table: Table) -> None:
    """GO is the seat's to lay, and only when no card of its fits: a go while one may fit is
    its own key refused (422, why), not another seat's (403); another seat's go is 403."""
    tokens, dealer, pone = to_play(table)
    own = table.act(tokens[str(pone)], "go")  # count 0: any card fits
    assert own.status_code == 422 and own.json()["reason"] == "refused", own.text
    assert own.json()["error"] == table.state()["keys"][str(pone)]["go"]["why"] == \
        "a card of yours fits the count: go only when none does"
    early = table.act(tokens[str(dealer)], "go")
    assert early.status_code == 403 and early.json()["error"] == f"{NAMES[pone]} lays next", early.text
    for seat, card in ((pone, "KS"), (dealer, "KH"), (pone, "QS")):
        assert table.act(tokens[str(seat)], f"card {card}").status_code == 200
    state = table.wait_state(lambda s: s["count"] == 30)
    assert state["keys"][str(dealer)]["go"]["on"] and not state["keys"][str(pone)]["go"]["on"]
    theirs = table.act(tokens[str(pone)], "go")
    assert theirs.status_code == 403 and theirs.json()["error"] == f"{NAMES[dealer]} lays next"
    assert table.act(tokens[str(dealer)], "go").status_code == 200
    assert table.wait_state(lambda s: s["turn"] == pone)["version"] == state["version"] + 1


def test_half_open_connections_leave_the_players_a_way_in(table: Table) -> None:
    """A phone on the network opens connections and never finishes a request (half say
    nothing, half half a head), twice the server's cap: the players' requests and live streams
    still get in at once, the held ones are closed (the oldest first, each within the head's
    time limit), and the table's loop never notices."""
    from cribpi.phones.server import MAX_CONNECTIONS
    from cribpi.webguard import HEAD_SECONDS

    tokens, dealer, pone = to_play(table)
    port = table.server.bound
    held: list[socket.socket] = []
    try:
        for n in range(2 * MAX_CONNECTIONS):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            if n % 2:
                s.sendall(b"GET /api/state HTTP/1.1\r\nhost: x\r\n")
            held.append(s)
        with httpx.Client(base_url=str(table.http.base_url), timeout=2) as phone:
            started = time.monotonic()
            assert phone.get("/api/state").status_code == 200
            with phone.stream("GET", "/api/events") as stream:
                assert next_event(stream.iter_lines(), "state")["version"] == table.state()["version"]
            answer = phone.post("/api/action", json={"version": table.state()["version"], "action": "card 7C"},
                                headers={"x-seat-token": tokens[str(pone)]})
            assert answer.status_code == 200, answer.text
            assert time.monotonic() - started < 2
        # every held connection is closed by the server: the oldest for room, the rest in time
        deadline = time.monotonic() + HEAD_SECONDS + 5
        still = [n for n, s in enumerate(held) if not closed_by_the_server(s, deadline)]
        assert still == []
    finally:
        for s in held:
            s.close()
    assert table.wait_state(lambda s: s["count"] == 7)["count"] == 7


def closed_by_the_server(s: socket.socket, deadline: float) -> bool:
    """Whether the server ends the connection ``s`` (whatever it says first) by ``deadline``."""
    s.settimeout(max(0.1, deadline - time.monotonic()))
    try:
        while s.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


@pytest.mark.parametrize("mode, opened, closed, why", [
    (Mode.COUNT, "menu", "menu", "menu is open"), (Mode.CLAIM, "peg", "undo", "peg is being keyed"),
], ids=["menu", "peg"])
def test_while_the_table_is_busy_every_phone_key_is_off_and_refused(table: Table, mode: Mode, opened: str,
                                                                     closed: str, why: str) -> None:
    """The table's menu open, or a peg being keyed on the table's own keys: each seat's keys
    are off with why, and a phone's key is refused (422) and changes nothing; once it is closed
    the keys are as before and the card is taken."""
    tokens, dealer, pone = to_play(table, mode=mode)
    before = table.state()
    assert before["keys"][str(pone)]["card"]["on"]
    table.board(opened)
    busy = table.wait_state(lambda s: not s["keys"][str(pone)]["card"]["on"])
    for seat in ("0", "1"):
        assert all(not key["on"] and why in key["why"] for key in busy["keys"][seat].values()), busy["keys"][seat]
    answer = table.act(tokens[str(pone)], "card 7C")
    assert answer.status_code == 422 and answer.json()["reason"] == "refused" and why in answer.json()["error"]
    assert table.state()["count"] == before["count"]  # nothing laid
    table.board(closed)
    table.wait_state(lambda s: s["keys"][str(pone)]["card"]["on"])
    assert table.act(tokens[str(pone)], "card 7C").status_code == 200
    assert table.wait_state(lambda s: s["count"] == 7)["count"] == 7


def test_the_pin_is_not_in_the_state_while_the_join_screen_shows(table: Table) -> None:
    """MENU > Phones shows the PIN on the table's OLED; the state every watcher reads says the
    join screen is up, with its address, but never the PIN."""
    pin = table.new_game()
    table.in_loop(lambda: setattr(table.app.ui, "join_info", lambda: (table.server.url, table.server.pin)))
    try:
        table.board("menu")
        table.wait_state(lambda s: s["screen"]["kind"] == "MenuScreen")
        for _ in range(12):  # down the menu to Phones, then into it
            if table.in_loop(lambda: table.app.ui.menu.screen().items[table.app.ui.menu.selected]) == "Phones":
                break
            table.board("go")
            time.sleep(0.05)
        table.board("ok")
        shown = table.wait_state(lambda s: s["screen"]["kind"] == "JoinScreen")
        assert table.server.url in shown["screen"]["lines"]
        assert pin not in json.dumps(shown) and pin not in table.http.get("/api/state").text
    finally:
        table.board("menu")
        table.wait_state(lambda s: s["screen"]["kind"] != "JoinScreen" and s["screen"]["kind"] != "MenuScreen")
        table.in_loop(lambda: setattr(table.app.ui, "join_info", None))


def test_each_phone_keys_its_own_card_of_the_cut(table: Table) -> None:
    """The cut for the deal wants a card a seat, in seat order: each phone keys its own when it
    is its turn (another seat's turn: 403 with whose), and the lower card deals."""
    table.new_game()
    tokens = {seat: table.token(seat) for seat in (0, 1)}
    state = table.state()
    assert state["phase"] == "cut"
    assert state["keys"]["0"]["card"]["on"] and not state["keys"]["1"]["card"]["on"]
    assert state["keys"]["1"]["card"]["why"] == f"{NAMES[0]} keys the next card of the cut"
    early = table.act(tokens[1], "card KD")
    assert early.status_code == 403 and early.json()["reason"] == "not_your_seat", early.text
    assert table.act(tokens[0], "card 3C").status_code == 200
    now = table.wait_state(lambda s: s["keys"]["1"]["card"]["on"])
    assert not now["keys"]["0"]["card"]["on"]
    assert table.act(tokens[1], "card KD").status_code == 200
    assert table.wait_state(lambda s: s["dealer"] is not None)["dealer"] == 0  # the 3 is lower: Ann deals
