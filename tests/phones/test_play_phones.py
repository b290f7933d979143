"""Players at one table, each keying their own seat on their own phone: Chromium with phone
viewports and touch (one browser for the module, a context a phone), the table's page under
real uvicorn (one server for the module, on a table whose loop runs in its own thread with its
SQLite journal), and the simulator's keys (the table's action queue) for what no phone does:
the cut, reading a score away, a seat with no phone.

Whole deals of count and claim mode with two, three and four phones: the journal, the LED frame
and the OLED image after each journalled event equal those of the same deals keyed on the shared
keypad alone (tests/phones/table_script.py); after every step every phone shows the table's
newest state. Then a phone reloaded mid-deal, a phone off the network for 30 s (as the issue
asks; ``CRIBPI_PHONE_OFFLINE_S`` shortens it on a developer's machine), a key tapped on a stale
screen, and a connection that goes quiet without a word: the table is right afterwards and the
phone shows what the table shows."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cribpi.game import Mode, Phase
from cribpi.phones.attach import serve
from cribpi.phones.server import PhoneServer
from cribpi.phonesconfig import PhonesConfig
from cribpi.rules import Card
from tests.phones.table_script import (
    DEALS, Cable, LoopTable, Step, Table, board_actions, board_table, call, deal_over, next_step, play_on_board, sim_key,
)

pytestmark = pytest.mark.phone

OFFLINE_S = float(os.environ.get("CRIBPI_PHONE_OFFLINE_S", "30"))
PING_S = 2.0  # the module's server pings its live streams this often (15 s on a table)
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
RANKS, SUITS = "A23456789TJQK", "SHDC"  # the page's grid of cards: a row a suit
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


@dataclasses.dataclass
class Served:
    table: Table
    server: PhoneServer

    def version(self) -> int:
        return call(self.table, lambda: self.server.table.version)

    def new_game(self, players: int, mode: Mode) -> tuple[int, int]:
        """A fresh game of ``players`` in ``mode``; its journal id and where its snapshots start."""
        def fresh() -> tuple[int, int]:
            ui = self.table.ui
            ui.settings = dataclasses.replace(ui.settings, players=players, mode=mode)
            ui.new_game()
            self.table.app.publish((), ())
            return ui.session.game_id, len(self.table.recorder.snapshots)
        return call(self.table, fresh)

    def events(self, game_id: int) -> list[str]:
        return call(self.table, lambda: [repr(e) for e in self.table.store.events(game_id)])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One table and its phones' server for the module, on a free loopback port."""
    servers: list[PhoneServer] = []

    def setup(table: Table) -> None:
        server = serve(table.app, PhonesConfig(enabled=True, host="127.0.0.1", port=0), ping_s=PING_S)
        table.ui.join_info = lambda: (server.url, server.pin)  # as the daemon hands it in
        servers.append(server)
    with LoopTable(tmp_path_factory.mktemp("table"), 2, Mode.COUNT, setup=setup) as table:
        assert servers[0].running, servers[0].problem
        yield Served(table, servers[0])
        servers[0].stop()


@dataclasses.dataclass
class Phone:
    """One player's phone: a browser context of its own (its own session storage: its token)."""

    seat: int
    page: Any
    taps: int = 0

    def synced(self, version: int, timeout: float = 20.0) -> None:
        """The page shows the table's state of ``version`` (from its live stream)."""
        try:
            self.page.wait_for_function("v => typeof state !== 'undefined' && state && state.version === v",
                                        arg=version, timeout=timeout * 1000)
        except Exception as exc:
            shown = self.page.evaluate("[state && state.version, document.getElementById('link').textContent]")
            raise AssertionError(f"seat {self.seat}'s phone shows {shown}, not version {version}") from exc

    def tap(self, selector: str, nth: int = 0) -> None:
        self.page.locator(selector).nth(nth).tap()
        self.taps += 1

    def act(self, action: str) -> Any:
        """``action`` tapped on the page's keys; the table's answer to it."""
        verb, *args = action.split()
        with self.page.expect_response("**/api/action") as answer:
            if verb == "card":
                card = Card.parse(args[0])
                self.tap("#cards button", SUITS.index(card.suit.symbol) * 13 + RANKS.index(card.rank.symbol))
            elif verb == "claim":
                self.page.locator("#points").fill(args[0])
                self.taps += len(args[0])  # the digits typed
                self.tap("#claim")
            else:
                self.tap(f"#{verb}")
        return answer.value


def join(browser: Any, served: Served, seat: int, url: str | None = None, shot: Path | None = None) -> Phone:
    page = browser.new_context(**PHONE).new_page()
    page.goto(url or served.server.url)
    page.wait_for_selector("#seats button")
    page.locator("#pin").fill(served.server.pin)
    if shot is not None:
        page.screenshot(path=str(shot))
    page.locator("#seats button").nth(seat).tap()
    page.wait_for_selector("#pad:not([hidden])")
    return Phone(seat, page)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where the page's pictures go: docs/img/ with CRIBPI_SCREENSHOTS=1 (to refresh the docs'
    pictures, as tests/tournament/test_browser.py does), else a temporary folder."""
    return DOCS_IMG if os.environ.get("CRIBPI_SCREENSHOTS") == "1" else tmp_path


@pytest.fixture
def browser(chromium_once: Any) -> Iterator[Any]:
    """The module's Chromium (tests/browser.py, as the tournament pages'); each test's phones
    (a context each) are closed after it."""
    yield chromium_once
    for context in chromium_once.contexts:
        context.close()


def take_step(served: Served, phones: dict[int, Phone], step: Step) -> None:
    """``step`` on its seat's phone when it has one, else on the simulator's keys; then every
    phone shows the table's newest state."""
    phone = phones.get(step.seat) if step.seat is not None else None
    if phone is not None:
        phone.synced(served.version())
        answer = phone.act(step.action)
        assert answer.status == 200, (step, answer.text())
    else:
        for action in board_actions(step, served.table.ui):
            sim_key(served.table, action)
    version = served.version()
    for each in phones.values():
        each.synced(version)


def play(served: Served, phones: dict[int, Phone], players: int, deals: int = 2) -> None:
    for deal in DEALS[players][:deals]:
        for _ in range(400):
            last, step = call(served.table, lambda d=deal: (deal_over(served.table.ui), next_step(served.table.ui, d)))
            take_step(served, phones, step)
            if last:
                break


@pytest.mark.parametrize("players, with_phones, mode", [
    (2, 2, Mode.COUNT), (3, 3, Mode.CLAIM), (4, 4, Mode.COUNT), (4, 2, Mode.CLAIM),
], ids=["2-phones-count", "3-phones-claim", "4-phones-count", "2-phones-of-4-claim"])
def test_phones_play_whole_deals_as_the_board_alone(served: Served, browser: Any, tmp_path: Path,
                                                    players: int, with_phones: int, mode: Mode) -> None:
    game_id, first = served.new_game(players, mode)
    phones = {seat: join(browser, served, seat) for seat in range(with_phones)}
    play(served, phones, players)
    with board_table(tmp_path, players, mode) as alone:
        play_on_board(alone, DEALS[players])
    assert served.events(game_id) == alone.journal()
    shown = served.table.recorder.snapshots[first:]
    assert [s.events for s in shown] == [s.events for s in alone.recorder.snapshots]
    assert [s.frame for s in shown] == [s.frame for s in alone.recorder.snapshots]
    assert [s.image for s in shown] == [s.image for s in alone.recorder.snapshots]
    assert all(phone.taps > 0 for phone in phones.values())
    assert call(served.table, lambda: served.table.ui.state.phase) is Phase.STARTER  # two whole deals


def test_claim_crib_from_the_phone(served: Served, browser: Any) -> None:
    """Claim mode: the dealer's phone keys the crib's cards, as the dealer does on the board."""
    served.new_game(2, Mode.CLAIM)
    phones = {seat: join(browser, served, seat) for seat in range(2)}
    deal = DEALS[2][0]
    for _ in range(200):
        step = call(served.table, lambda: next_step(served.table.ui, deal))
        if step.what == "crib":
            break
        take_step(served, phones, step)
    dealer = phones[step.seat]
    dealer.synced(served.version())
    card = Card.parse(deal.crib[0])
    key = dealer.page.locator("#cards button").nth(SUITS.index(card.suit.symbol) * 13 + RANKS.index(card.rank.symbol))
    assert key.is_enabled(), key.get_attribute("title")
    answer = dealer.act(f"card {deal.crib[0]}")
    assert answer.status == 200, answer.text()
    assert call(served.table, lambda: list(served.table.ui.entry.cards)) == [card]  # the table took it as the crib's first


def shows_the_table(served: Served, phone: Phone) -> None:
    """The phone's page holds the table's state now, and its words say it."""
    phone.synced(served.version())
    _, now = served.server.table.snapshot()
    assert phone.page.evaluate("state") == now
    count = phone.page.locator("#count").inner_text()
    assert count == (f"count {now['count']}" if now["count"] is not None else "")


def test_a_reload_a_lost_network_and_a_stale_key(served: Served, browser: Any, tmp_path: Path, shots: Path) -> None:
    game_id, first = served.new_game(2, Mode.COUNT)
    cable = Cable(served.server.bound or 0)  # Bob's phone reaches the table through it
    phones = {0: join(browser, served, 0, shot=shots / "phones-join.png"), 1: join(browser, served, 1, f"http://127.0.0.1:{cable.port}/")}
    deal = DEALS[2][0]

    def upto(stop: Any) -> Step:
        for _ in range(200):
            step = call(served.table, lambda: next_step(served.table.ui, deal))
            if stop(step):
                return step
            take_step(served, phones, step)
        raise AssertionError("the deal never came to it")

    def laid() -> int:
        return call(served.table, lambda: len(served.table.ui.state.deal.played))

    ann, bob = phones[0], phones[1]
    step = upto(lambda s: s.seat == 0 and s.action.startswith("card") and laid() >= 2)
    ann.page.reload()  # mid-deal: the seat is kept (the tab's session), the state is the table's
    ann.page.wait_for_selector("#pad:not([hidden])")
    shows_the_table(served, ann)
    ann.page.screenshot(path=str(shots / "phones-seat.png"))  # her keys: the cards, GO, OK, UNDO, claims

    # Ann's push stalls; her card is keyed on the board; she taps it on her stale screen
    ann.page.evaluate("stream.close()")
    before, journal = served.version(), len(served.events(game_id))
    for action in board_actions(step, served.table.ui):
        sim_key(served.table, action)
    assert served.version() == before + 1
    answer = ann.act(step.action)
    assert answer.status == 409 and answer.json()["reason"] == "stale", answer.text()
    assert any(step.action.split()[1] in said for said in answer.json()["changed"]), answer.json()
    assert served.version() == before + 1 and len(served.events(game_id)) == journal + 1  # taken once
    assert ann.page.locator("#said").inner_text() != ""  # the phone says why
    shows_the_table(served, ann)  # and fetched the table's state at once, its stream still closed
    assert ann.page.evaluate("stream.readyState") == 2  # EventSource.CLOSED: not from the stream
    ann.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # her screen comes back
    shows_the_table(served, ann)
    ann.page.wait_for_function("() => stream.readyState === 1", timeout=10_000)  # EventSource.OPEN: live again

    # Bob's phone loses the network; meanwhile his card is keyed on the board
    bob_step = upto(lambda s: s.seat == 1)
    bob.page.context.set_offline(True)
    cable.cut()  # the Wi-Fi is gone: the stream's connection dies, and no new one is made
    lost = time.monotonic()
    bob.page.wait_for_selector("#link.off", timeout=OFFLINE_S * 1000 + 5000)
    for action in board_actions(bob_step, served.table.ui):
        sim_key(served.table, action)
    time.sleep(max(0.0, OFFLINE_S - (time.monotonic() - lost)))  # the time the network is away
    assert bob.page.evaluate("state.version") < served.version()  # he missed it
    bob.page.context.set_offline(False)
    shows_the_table(served, bob)
    assert bob.page.locator("#link").inner_text() == "live"

    upto(lambda s: call(served.table, lambda: deal_over(served.table.ui)))  # the rest of the deal, phones and keys
    take_step(served, phones, Step(None, "ok"))
    with board_table(tmp_path, 2, Mode.COUNT) as alone:
        play_on_board(alone, DEALS[2][:1])
    assert served.events(game_id) == alone.journal()
    shown = served.table.recorder.snapshots[first:]
    assert [s.events for s in shown] == [s.events for s in alone.recorder.snapshots]
    assert [(s.frame, s.image) for s in shown] == [(s.frame, s.image) for s in alone.recorder.snapshots]
    for phone in phones.values():
        shows_the_table(served, phone)
    cable.close()


def test_a_connection_gone_quiet_is_opened_again(served: Served, browser: Any) -> None:
    """The phone's live stream stays open but nothing comes any more (no error, no end: Wi-Fi
    lost without a word), and a card is keyed on the board meanwhile: within two and a half
    pings of the table's last word the page opens its stream again and shows the table."""
    served.new_game(2, Mode.COUNT)
    cable = Cable(served.server.bound or 0)
    bob = join(browser, served, 1, f"http://127.0.0.1:{cable.port}/")
    deal = DEALS[2][0]
    for _ in range(20):  # to the starter: a card for the board to key
        step = call(served.table, lambda: next_step(served.table.ui, deal))
        if call(served.table, lambda: served.table.ui.state.phase) is Phase.STARTER:
            break
        take_step(served, {1: bob}, step)  # the cut and its screens
    bob.synced(served.version())
    deadline = time.monotonic() + 15
    while cable.connections() > 1 and time.monotonic() < deadline:
        time.sleep(0.1)  # the page's other connections closed as idle: the live stream alone is left
    assert cable.connections() == 1
    cable.hush()
    hushed = time.monotonic()
    for action in board_actions(step, served.table.ui):
        sim_key(served.table, action)
    assert bob.page.evaluate("state.version") < served.version()
    bob.synced(served.version(), timeout=PING_S * 2.5 + 10)
    assert time.monotonic() - hushed >= PING_S  # not from the quiet stream: from the one opened again
    assert bob.page.locator("#link").inner_text() == "live"
    shows_the_table(served, bob)
    cable.close()
