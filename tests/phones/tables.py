"""A table for the phones' tests: a TableApp on mock parts running its one loop in a thread,
its phones' server on a free loopback port (real uvicorn), an httpx client, and helpers that
key as a phone (``act``) or as the table's own keys (``board``: the ActionQueue, as a card
reader's card comes). ``table`` (tests/phones/conftest.py) gives one per module."""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any, TypeVar

import httpx2 as httpx

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.hal import Action
from cribpi.hal.mock import open_mock
from cribpi.phones.attach import serve
from cribpi.phones.seats import Limits
from cribpi.phones.server import PhoneServer
from cribpi.phonesconfig import PhonesConfig

__all__ = ["Table", "running_table", "to_play", "NAMES"]

T = TypeVar("T")
NAMES = ("Ann", "Bob")


@dataclasses.dataclass
class Table:
    app: TableApp
    server: PhoneServer
    http: httpx.Client
    stop: threading.Event

    def in_loop(self, call: Callable[[], T]) -> T:
        """``call`` run in the table's loop (as the server's actions are); its result."""
        future: Future[T] = Future()
        self.app.mailbox.put(lambda: future.set_result(call()))
        return future.result(10)

    def new_game(self, **settings: Any) -> str:
        """A fresh game with ``settings``; its PIN."""
        def fresh() -> None:
            ui = self.app.ui
            ui.settings = TableSettings(names=NAMES, **settings)  # each test its own set-up
            ui.new_game()
            self.app.publish((), ())
        self.in_loop(fresh)
        self.server.limits.clear()
        return self.server.pin

    def state(self) -> dict[str, Any]:
        return self.http.get("/api/state").json()

    def join(self, pin: str, seat: int, confirm: bool = False) -> httpx.Response:
        return self.http.post("/api/join", json={"pin": pin, "seat": seat, "confirm": confirm})

    def token(self, seat: int) -> str:
        answer = self.join(self.server.pin, seat, confirm=True)
        assert answer.status_code == 200, answer.text
        return str(answer.json()["token"])

    def act(self, token: str, action: str, version: int | None = None) -> httpx.Response:
        version = self.state()["version"] if version is None else version
        return self.http.post("/api/action", json={"version": version, "action": action}, headers={"x-seat-token": token})

    def board(self, action: str) -> None:
        """A key on the table itself (a card reader's card, a button), handled by the loop."""
        self.app.queue(Action.parse(action))

    def wait_state(self, check: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if check(state):
                return state
            assert time.monotonic() < deadline, f"the state never came: {state}"
            self.in_loop(lambda: None)  # the loop has run what came before: ask again


#: The live streams' ping here: an idle stream says the table's version this often.
PING_S = 1.0


def running_table() -> Iterator[Table]:
    ui = TableUI(TableSettings(names=NAMES), rng=random.Random(3))
    app = TableApp(open_mock(), ui)
    server = serve(app, PhonesConfig(enabled=True, host="127.0.0.1", port=0), limits=Limits(rate=200, burst=400),
                   ping_s=PING_S)
    assert server.problem is None and server.bound
    app.start()
    stop = threading.Event()
    loop = threading.Thread(target=app.run, kwargs={"should_stop": stop.is_set}, daemon=True)
    loop.start()
    with httpx.Client(base_url=f"http://127.0.0.1:{server.bound}", timeout=10) as http:
        yield Table(app, server, http, stop)
    stop.set()
    app.mailbox.put(lambda: None)
    loop.join(5)
    server.stop()
    app.close()


def to_play(t: Table, **settings: Any) -> tuple[dict[str, str], int, int]:
    """A new game cut and its starter keyed by the dealer's phone: the tokens, dealer, pone."""
    pin = t.new_game(**settings)
    tokens = {str(s): t.token(s) for s in (0, 1)}
    assert pin == t.server.pin
    assert t.act(tokens["0"], "ok").status_code == 200  # the cut: on no seat in particular
    state = t.wait_state(lambda s: s["phase"] == "starter" or s["dealer"] is not None)
    while t.state()["screen"]["kind"] != "PromptScreen" and t.state()["phase"] == "starter":
        assert t.act(tokens["0"], "ok").status_code == 200  # the cut's screens read
    state = t.state()
    dealer = state["dealer"]
    pone = 1 - dealer
    refused = t.act(tokens[str(pone)], "card 5H")
    assert refused.status_code == 403 and "dealer" in refused.json()["error"]
    assert t.act(tokens[str(dealer)], "card 5H").status_code == 200
    t.wait_state(lambda s: s["phase"] == "play" and s["starter"] == "5H")
    return tokens, dealer, pone
