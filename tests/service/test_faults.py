"""Faults never stop the table: each is injected through the mock backend (or a real pty),
shown on what still works, retried with backoff, and the table is redrawn once it clears."""

from __future__ import annotations

import os
import random
import time
from contextlib import contextmanager


from cribpi.app import TableSettings, TableUI
from cribpi.app.listeners import problem_screen
from cribpi.daemon.backoff import FIRST_RETRY_S, LAST_RETRY_S
from cribpi.daemon.table import CHECK_S, guarded_app
from cribpi.hal.base import CombinedInputs, Parts
from cribpi.hal.mock import UNPLUGGED, open_mock
from cribpi.hal.serial_cards import SerialCardReader
from cribpi.views.oled import render_screen
from service_tools import Clock, pumped, waiter

I2C_ERROR = OSError(121, "Remote I/O error")


@contextmanager
def guarded_table(parts=None):
    """A started table on guarded mock parts, with a clock the test moves."""
    parts = parts or open_mock()
    clock = Clock()
    ui = TableUI(TableSettings(), rng=random.Random(1))
    app, guard = guarded_app(parts, ui, clock=clock)
    app.start()
    try:
        yield parts, ui, app, guard, waiter(app, clock)
    finally:
        app.close()


def shows(parts, screen) -> bool:
    return parts.image.tobytes() == render_screen(screen, (128, 64)).tobytes()


def key(parts, app, *words):
    parts.press(*words)
    app.pump()


def test_an_oled_i2c_error_is_shown_by_the_leds_going_on_and_redrawn_when_it_answers(caplog):
    with guarded_table() as (parts, ui, app, guard, wait):
        parts.fail_display(I2C_ERROR)
        key(parts, app, "ok")  # the cut: the game goes on without its screen
        assert len(ui.session.game.journal) == 2
        assert guard.problems() == ("display (mock): [Errno 121] Remote I/O error",)
        assert parts.boards[-1] == ui.board()  # the LEDs still follow the game
        wait(5 * FIRST_RETRY_S)  # retried, still failing, and logged once only
        assert sum("Remote I/O error" in r.message for r in caplog.records) == 1
        parts.fail_display(None)
        wait(8 * FIRST_RETRY_S)  # the backoff has grown: the next retry is within 8x the first
        assert guard.problems() == ()
        assert shows(parts, ui.screen())  # redrawn with the table as it is now


def test_the_controller_unplugged_a_hundred_times(caplog):
    with guarded_table() as (parts, ui, app, guard, wait):
        for round in range(100):
            parts.memory.unplug()
            if round == 50:
                key(parts, app, "ok")  # a key while unplugged still reaches the game
            else:
                wait(CHECK_S)  # the controller says so itself (its `problem`)
            assert guard.problems()[0].startswith("pegboard (mock):") and UNPLUGGED in guard.problems()[0]
            assert shows(parts, problem_screen(guard.problems()))  # the OLED says why the LEDs are dark
            wait(FIRST_RETRY_S)
            shown = len(parts.boards)
            parts.memory.replug()
            wait(2 * FIRST_RETRY_S + CHECK_S)
            assert guard.problems() == ()
            assert len(parts.boards) > shown and parts.boards[-1] == ui.board()  # redrawn
            assert shows(parts, ui.screen())
        assert len(ui.session.game.journal) == 2


def test_the_leds_down_are_marked_on_the_oled_after_a_key_took_the_problem_as_read():
    with guarded_table() as (parts, ui, app, guard, wait):
        parts.memory.unplug()
        wait(CHECK_S)
        assert guard.missing() == ("LEDs",)
        assert shows(parts, problem_screen(guard.problems()))  # the problem screen names them
        key(parts, app, "ok")  # taken as read: the table's screen, with the mark in its corner
        assert len(ui.session.game.journal) == 2
        marked = render_screen(ui.screen(), (128, 64), {"missing"}).tobytes()
        assert parts.image.tobytes() == marked
        wait(8 * FIRST_RETRY_S)
        assert parts.image.tobytes() == marked  # for as long as they are down
        parts.memory.replug()
        wait(LAST_RETRY_S + CHECK_S)
        assert guard.problems() == () and guard.missing() == ()
        assert shows(parts, ui.screen())  # back: no mark


def test_a_failing_contrast_is_logged_not_raised(caplog):
    with guarded_table() as (parts, ui, app, guard, wait):
        parts.fail_display(I2C_ERROR)
        app.parts.displays[0].contrast(16)
        assert "contrast 16 failed" in caplog.text


def test_a_serial_port_that_vanishes_is_opened_again_when_it_returns(pty_port):
    link, plug, pull = pty_port
    master = plug()
    mock = open_mock()
    reader = SerialCardReader(str(link))
    parts = Parts(CombinedInputs([mock.inputs, reader]), mock.pegboard, mock.displays, backends=mock.backends)
    with guarded_table(parts) as (_, ui, app, guard, wait):
        os.write(master, b"6S\n")
        assert pumped(app)
        pull(master)
        deadline = time.monotonic() + 30  # only bounds a failure: both cores may be busy
        while not guard.problems() and time.monotonic() < deadline:
            wait(CHECK_S)
            time.sleep(0.05)
        assert "gone" in guard.problems()[0] and str(link) in guard.problems()[0]
        wait(4 * FIRST_RETRY_S)  # the port is still missing: retried, not fatal
        master = plug()
        wait(8 * FIRST_RETRY_S)
        assert guard.problems() == ()
        os.write(master, b"7C\n")
        assert pumped(app)


def test_a_full_disk_refuses_the_score_says_so_and_takes_it_once_there_is_room(tmp_path):
    from cribpi.app import open_table
    from cribpi.store import Store
    from cribpi.views.text import screen_text

    with Store(tmp_path / "cribpi.db") as store:
        conn = store._conn  # SQLite's own page limit gives the very error a full disk gives (SQLITE_FULL)
        parts = open_mock()
        clock = Clock()
        ui = open_table(store, TableSettings(table="main"), rng=random.Random(1))
        app, guard = guarded_app(parts, ui, clock=clock)
        app.start()
        try:
            key(parts, app, "ok")  # the cut
            parts.feed_card("6S")  # the starter
            app.pump()
            size = len(ui.session.game.journal)
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {pages}")
            refused = None
            for step in range(400):  # lay a card and take it back until a page is wanted that may not be had
                act = (lambda: parts.feed_card("QH")) if step % 2 == 0 else (lambda: parts.press("undo"))
                act()
                app.pump()
                if len(ui.session.game.journal) == size:  # not stored, so not played
                    refused = act
                    break
                size = len(ui.session.game.journal)
            assert refused is not None
            words = screen_text(ui.screen())
            assert "disk full: this score is not saved" in words
            assert shows(parts, ui.screen())  # on the OLED
            assert guard.problems() == ()  # the parts are fine: it is the journal's refusal
            conn.execute("PRAGMA max_page_count = 1000000")  # room again
            key(parts, app, "ok")  # the refusal read
            refused()  # the same key again
            app.pump()
            assert len(ui.session.game.journal) == size + 1
            assert store.current("main").game.journal == ui.session.game.journal
        finally:
            app.close()


def test_the_status_line_names_a_failing_part():
    from cribpi.daemon.table import StatusListener

    sent: list[str] = []

    class Notifier:
        def send(self, *fields: str) -> bool:
            sent.extend(fields)
            return True

    with guarded_table() as (parts, ui, app, guard, wait):
        app.subscribe(StatusListener(Notifier(), guard.problems))
        parts.memory.unplug()
        wait(CHECK_S)
        assert sent[-1] == (f"STATUS=degraded, retrying the parts: pegboard (mock): {UNPLUGGED} "
                            "(check them with `sudo cribpi doctor`); game None: Red 0, Blue 0 (cut)")
        parts.memory.replug()
        wait(3 * FIRST_RETRY_S)
        assert sent[-1] == "STATUS=game None: Red 0, Blue 0 (cut)"


def test_a_button_stuck_down_is_reported_once_and_ignored_until_released(caplog):
    from cribpi.daemon.stuck import STUCK_S
    from cribpi.hal.buttons import ButtonTiming

    with guarded_table(open_mock(timing=ButtonTiming(repeat_s=0.5))) as (parts, ui, app, guard, wait):
        key(parts, app, "ok")  # the cut
        for card in ("6S", "QH", "5C"):
            parts.feed_card(card)
        app.pump()
        played = len(ui.session.game.journal)
        parts.hold_down("undo")
        parts.clock.advance(1.0)  # a long press: one undo_long, as the player means it
        app.pump()
        assert len(ui.session.game.journal) == played + 1
        wait(STUCK_S + CHECK_S)
        assert guard.problems() == ("button undo (GPIO21) stuck down: ignored until released",)
        assert shows(parts, problem_screen(guard.problems()))
        parts.clock.advance(10.0)  # it would repeat every 0.5 s: 20 more undos, all dropped
        assert app.pump() == 0 and len(ui.session.game.journal) == played + 1
        wait(5.0)
        assert sum("stuck down" in r.message for r in caplog.records) == 1  # reported once
        parts.let_go("undo")
        wait(CHECK_S)
        assert guard.problems() == () and shows(parts, ui.screen())
        key(parts, app, "undo")  # and it works again
        assert len(ui.session.game.journal) == played + 2


def test_the_pi_buttons_are_watched_through_gpiozeros_default_pin_factory(monkeypatch):
    """The Pi backend as it runs on a Pi (no factory injected): its buttons use gpiozero's
    default factory, which the watch reads; here that default is a MockFactory."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from cribpi.config import DEFAULT_PINS, Config, DisplayConfig, PartsConfig
    from cribpi.daemon.stuck import STUCK_S, button_pins
    from cribpi.wiring import open_parts

    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    config = Config(parts=PartsConfig(inputs=("pi",), pegboard="sim", displays=(DisplayConfig("sim"),)))
    with open_parts(config) as parts:
        assert button_pins(config.pins, parts) == (config.pins, factory)
        clock = Clock()
        ui = TableUI(TableSettings(), rng=random.Random(1))
        app, guard = guarded_app(parts, ui, clock=clock, pins=config.pins)
        ok_pin = next(pin for pin, binding in DEFAULT_PINS.items() if str(binding.press) == "ok")
        factory.pin(ok_pin).drive_low()
        for seconds in (CHECK_S, STUCK_S):  # seen down, then still down STUCK_S later
            clock.now += seconds
            app.run_timers()
        assert guard.problems() == (f"button ok (GPIO{ok_pin}) stuck down: ignored until released",)
        factory.pin(ok_pin).drive_high()
        clock.now += CHECK_S
        app.run_timers()
        assert guard.problems() == ()
        app.queue.close()


def test_no_gpio_buttons_no_watch():
    from cribpi.config import Config
    from cribpi.daemon.stuck import button_pins
    from cribpi.hal.sim import SimDisplay, SimInputs, SimPegboard

    parts = Parts(CombinedInputs([SimInputs()]), SimPegboard(), (SimDisplay(),), backends=(("inputs", "sim"),))
    assert button_pins(Config().pins, parts) is None


def test_a_pi_oled_written_by_its_thread_reports_its_fault_to_the_guard_and_is_redrawn():
    """On a Pi the OLED is written by a thread of its own (LatestFrameDisplay): a write that
    fails raises nothing at the loop, but the guard shows it as the part's problem and redraws
    the table on it once the panel answers again."""
    from cribpi.hal.frames import LatestFrameDisplay

    mock = open_mock()
    device = mock.displays[0].device
    threaded = LatestFrameDisplay(mock.displays[0], first_retry=0.02, last_retry=0.05)
    parts = Parts(mock.inputs, mock.pegboard, (threaded,), mock.pages, mock.backends)
    with guarded_table(parts) as (_, ui, app, guard, wait):
        device.fault = I2C_ERROR
        key(mock, app, "ok")  # the loop goes on: nothing raised
        assert len(ui.session.game.journal) == 2 and mock.boards[-1] == ui.board()
        deadline = time.monotonic() + 30  # only bounds a failure: both cores may be busy
        while not guard.problems() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert guard.problems() == ("display (mock): [Errno 121] Remote I/O error",)
        wait(CHECK_S)  # the loop's check sees it open and draws the problem screen
        device.fault = None
        while guard.problems() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert guard.problems() == ()
        assert threaded.flush(5) and shows(mock, problem_screen(["display (mock): [Errno 121] Remote I/O error"]))
        wait(CHECK_S)  # cleared: the loop's check redraws the table as it is now
        assert threaded.flush(5) and shows(mock, ui.screen())
