"""Phones as keypads (issue 30): four phones (Chromium, phone viewports, touch) at one table on
loopback, the journal on (SQLite), the table's loop in its own thread as the daemon runs it, in
a process of its own (its RSS and CPU are the table's, not the Playwright driver's).

    python benchmarks/bench_phones.py [--games 3] [--idle 10]

Four players play ``--games`` times the two scripted count-mode deals of tests/phones (every
seat's own cards, go and claims tapped on its phone; the cut and the OKs that read a score
away on the simulator's keys). Prints:

- tap -> LED frame and OLED image: from the tap (its touchend on the phone: a key acts when the
  finger lifts; touchstart is a driver's round trip earlier under playwright) to the table's
  update that journalled it, drawn on the mock pegboard and OLED (target p99 <= 30 ms);
- tap -> every phone's screen: from the tap to the last of the four pages having drawn the
  state it made (target p99 <= 100 ms);
- the table's RSS growth from before the phones joined to after the games (target <= 25 MB);
- the table's CPU with the four phones connected and nobody tapping, over ``--idle`` seconds
  (target < 2 % of one core);
- the taps a whole deal takes on each player's phone against the presses the shared keypad
  takes for the same deal (two a card, PEG, points and OK a claim).

The clocks of the page and of Python are the same machine's (``performance.timeOrigin``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' scripted deals

from cribpi.app.listeners import Update  # noqa: E402
from cribpi.game import Mode  # noqa: E402
from cribpi.phones.attach import serve  # noqa: E402
from cribpi.phones.server import PhoneServer  # noqa: E402
from cribpi.phonesconfig import PhonesConfig  # noqa: E402
from cribpi.rules import Card  # noqa: E402
from benchmarks.localhost import rss_mb  # noqa: E402
from tests.browser import CHROMIUM_ARGS  # noqa: E402
from tests.phones.table_script import (  # noqa: E402
    DEALS, LoopTable, Step, Table, board_actions, board_table, call, deal_over, next_step, play_on_board, sim_key,
)

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
RANKS, SUITS = "A23456789TJQK", "SHDC"
#: in each page: when each state version was drawn (after the page's own handler), and the tap
WATCH = """
window.__seen = {};
window.__tap = 0;
document.addEventListener('touchend', () => { window.__tap = performance.timeOrigin + performance.now(); }, true);
const Native = window.EventSource;
window.EventSource = class extends Native {
  addEventListener(type, fn, options) {
    if (type === 'state') {
      const draw = fn;
      fn = (e) => { draw(e); const v = JSON.parse(e.data).version;
                    if (!(v in window.__seen)) window.__seen[v] = performance.timeOrigin + performance.now(); };
    }
    return super.addEventListener(type, fn, options);
  }
};
"""


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]


class Drawn:
    """A listener after the parts' view: when each journalled update was drawn (wall clock)."""

    def __init__(self) -> None:
        self.at: list[float] = []

    def __call__(self, update: Update) -> None:
        if update.events:
            self.at.append(time.time() * 1000)


def tap(page: Any, action: str, seat: int) -> int:
    """``action`` tapped on ``page``; the version it made."""
    verb, *args = action.split()
    with page.expect_response("**/api/action") as answer:
        if verb == "card":
            card = Card.parse(args[0])
            page.locator("#cards button").nth(SUITS.index(card.suit.symbol) * 13 + RANKS.index(card.rank.symbol)).tap()
        elif verb == "claim":
            page.locator("#points").fill(args[0])
            page.locator("#claim").tap()
        else:
            page.locator(f"#{verb}").tap()
    data = answer.value.json()
    assert answer.value.status == 200, (seat, action, data)
    return int(data["version"])


def taps_of(action: str) -> int:
    verb, *args = action.split()
    return 1 + len(args[0]) if verb == "claim" else 1


def _table_process(conn: Any, folder: str, players: int) -> None:
    """The child: the table with its journal and phones' server, answering the driver's asks."""
    servers: list[PhoneServer] = []
    drawn = Drawn()

    def setup(table: Table) -> None:
        servers.append(serve(table.app, PhonesConfig(enabled=True, host="127.0.0.1", port=0)))
        table.app.subscribe(drawn)
        table.app.listeners.remove(table.recorder)  # the tests' record of every update: not the table's

    with LoopTable(Path(folder), players, Mode.COUNT, setup=setup) as table:
        server = servers[0]

        def new_game() -> None:
            table.ui.new_game()
            table.app.publish((), ())

        def keys(step: Step) -> None:
            for action in board_actions(step, table.ui):
                sim_key(table, action)

        def idle(seconds: float) -> float:
            cpu0, wall0 = time.process_time(), time.monotonic()
            time.sleep(seconds)
            return (time.process_time() - cpu0) / (time.monotonic() - wall0) * 100

        deals = DEALS[players]
        asks: dict[str, Callable[..., Any]] = {
            "server": lambda: (server.url, server.pin),
            "version": lambda: call(table, lambda: server.table.version),
            "step": lambda d: call(table, lambda: (deal_over(table.ui), next_step(table.ui, deals[d]))),
            "keys": keys, "new_game": lambda: call(table, new_game),
            "drawn": lambda since: drawn.at[since:], "presses": lambda: table.presses, "idle": idle,
        }
        while True:
            ask, args = conn.recv()
            if ask == "stop":
                break
            try:
                conn.send((True, asks[ask](*args)))
            except Exception as exc:  # noqa: BLE001 - told to the driver
                conn.send((False, repr(exc)))
        server.stop()
    conn.send((True, None))


class TableProcess:
    """The table (its loop, journal and phones' server) in a process of its own, as the daemon
    runs it: its RSS and CPU are the table's alone, not this driver's (Playwright's client keeps
    objects of its own for every page call)."""

    def __init__(self, folder: str, players: int) -> None:
        context = multiprocessing.get_context("fork")  # before any thread of this process
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_table_process, args=(child, folder, players), daemon=True)
        self.process.start()
        self.url, self.pin = self.ask("server")

    def ask(self, ask: str, *args: Any) -> Any:
        self.conn.send((ask, args))
        ok, value = self.conn.recv()
        if not ok:
            raise RuntimeError(f"the table failed {ask}: {value}")
        return value

    def rss_mb(self) -> float:
        return rss_mb(self.process.pid)

    def close(self) -> None:
        self.ask("stop")
        self.process.join(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="times the two deals are played (default 3)")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle CPU measured (default 10)")
    args = parser.parse_args()

    players = 4
    to_leds: list[float] = []
    to_phones: list[float] = []
    phone_taps = [0] * players
    with tempfile.TemporaryDirectory() as folder:
        table = TableProcess(folder, players)
        from playwright.sync_api import sync_playwright  # after the fork: the driver's threads are this side's

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS, headless=True)
            rss_before = table.rss_mb()
            pages = []
            for seat in range(players):
                context = browser.new_context(**PHONE)
                context.add_init_script(WATCH)
                page = context.new_page()
                page.goto(table.url)
                page.wait_for_selector("#seats button")
                page.locator("#pin").fill(table.pin)
                page.locator("#seats button").nth(seat).tap()
                page.wait_for_selector("#pad:not([hidden])")
                pages.append(page)

            def synced(v: int) -> None:
                for page in pages:
                    page.wait_for_function("v => state && state.version === v", arg=v, timeout=20000)

            drawn = 0
            for game in range(args.games):
                if game:
                    table.ask("new_game")
                    synced(table.ask("version"))
                    pin = table.ask("server")[1]
                    for seat, page in enumerate(pages):  # a new game: a new PIN, the seats joined again
                        page.locator("#pin").fill(pin)
                        page.locator("#seats button").nth(seat).tap()
                        page.wait_for_selector("#pad:not([hidden])")
                for deal in range(len(DEALS[players])):
                    for _ in range(400):
                        last, step = table.ask("step", deal)
                        if step.seat is None:
                            table.ask("keys", step)
                        else:
                            synced(table.ask("version"))
                            page = pages[step.seat]
                            drawn += len(table.ask("drawn", drawn))
                            made = tap(page, step.action, step.seat)
                            phone_taps[step.seat] += taps_of(step.action)
                            tapped = page.evaluate("window.__tap")
                            synced(made)
                            news = table.ask("drawn", drawn)
                            if news:
                                to_leds.append(news[0] - tapped)
                            seen = [page.evaluate("v => window.__seen[v]", made) for page in pages]
                            to_phones.append(max(seen) - tapped)
                        if last:
                            break
            rss_after = table.rss_mb()
            table_keys = table.ask("presses")
            synced(table.ask("version"))
            idle = table.ask("idle", args.idle)
            browser.close()
        table.close()

    with tempfile.TemporaryDirectory() as folder, board_table(Path(folder), players, Mode.COUNT) as alone:
        play_on_board(alone, DEALS[players])
        keypad = alone.presses

    deals = 2 * args.games
    print(f"four phones, count mode, {deals} deals, journal on, loopback Chromium")
    print(f"tap -> LED frame and OLED image: median {statistics.median(to_leds):.1f} ms, "
          f"p99 {p99(to_leds):.1f} ms over {len(to_leds)} taps (target p99 <= 30 ms)")
    print(f"tap -> every phone's screen: median {statistics.median(to_phones):.1f} ms, "
          f"p99 {p99(to_phones):.1f} ms over {len(to_phones)} taps (target p99 <= 100 ms)")
    print(f"table RSS: {rss_before:.1f} MB before the phones joined, {rss_after:.1f} MB after, "
          f"growth {rss_after - rss_before:.1f} MB (target <= 25 MB)")
    print(f"idle CPU with four phones connected: {idle:.2f} % of one core over {args.idle:.0f} s (target < 2 %)")
    each = ", ".join(f"seat {seat + 1} {phone_taps[seat] / deals:.1f}" for seat in range(players))
    print(f"taps a deal on each player's phone: {each} (total {sum(phone_taps) / deals:.1f}, and "
          f"{table_keys / deals:.1f} presses a deal on the table's keys: the cut, OK to read a score away); "
          f"the shared keypad alone: {keypad / 2:.1f} presses a deal for the same deals, all by one player")


if __name__ == "__main__":
    main()
