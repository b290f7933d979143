"""A part that will not open at start: the table runs on the others, the missing part is named
on the displays that work and retried with backoff, and joins the table when it opens, without
a restart. Each part is made to fail at open through what the wiring injects (the OLED's
device factory, the buttons' pin factory)."""

from __future__ import annotations

import os
import random
import time

import pytest
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from cribpi.app import TableSettings, TableUI
from cribpi.app.listeners import problem_screen
from cribpi.config import Config, DisplayConfig, PartsConfig
from cribpi.daemon.backoff import FIRST_RETRY_S, LAST_RETRY_S
from cribpi.daemon.missing import NO_INPUT, MissingDisplay, MissingInputs, stand_ins
from cribpi.daemon.table import CHECK_S, guarded_app
from cribpi.exc import HardwareError
from cribpi.hal.buttons import ManualClock
from cribpi.hal.mock import PinDriver
from cribpi.hal.sim import SimInputs, action_from_words
from cribpi.views.oled import render_screen
from cribpi.wiring import Inject, open_parts
from tests.service.service_tools import Clock, pumped, waiter


class FlakyOled:
    """The OLED's device factory: no answer on the bus until ``plugged``."""

    def __init__(self) -> None:
        self.plugged = False
        self.tries = 0
        self.device = None

    def __call__(self, size, **_settings):
        self.tries += 1
        if not self.plugged:
            raise HardwareError("OLED ssd1306 on I2C bus 1 address 0x3c: [Errno 121] Remote I/O error")
        self.device = dummy(width=size[0], height=size[1])
        return self.device


class FlakyPins(MockFactory):
    """gpiozero's mock pins, refused (as off a Pi) until ``wired``."""

    wired = False

    def pin(self, spec, *args, **kwargs):
        if not self.wired:
            raise BadPinFactory("Unable to load any default pin factory!")
        return super().pin(spec, *args, **kwargs)


def table(config, inject):
    clock = Clock()
    parts = open_parts(config, inject=inject, stand_in=stand_ins(clock))
    ui = TableUI(TableSettings(), rng=random.Random(1))
    app, guard = guarded_app(parts, ui, clock=clock, pins=config.pins)
    app.start()
    return parts, ui, app, guard, waiter(app, clock)


def mock_screen(display):
    return display.device.image.convert("1").tobytes()


def test_with_the_oled_missing_the_keys_and_leds_play_and_the_oled_joins_with_the_screen_of_now():
    config = Config(parts=PartsConfig(inputs=("mock",), pegboard="mock", displays=(DisplayConfig("pi"),)))
    pins, keys_clock, oled = MockFactory(), ManualClock(), FlakyOled()
    parts, ui, app, guard, wait = table(config, Inject(pin_factory=pins, clock=keys_clock, device_factory=oled))
    try:
        stand_in = parts.displays[0]
        assert isinstance(stand_in, MissingDisplay) and stand_in.part is None  # nothing taken for shown
        assert guard.problems() == ("OLED: missing (OLED ssd1306 on I2C bus 1 address 0x3c: [Errno 121] "
                                    "Remote I/O error), retrying",)
        driver = PinDriver(pins, config.pins, keys_clock, config.timing)
        driver.press(action_from_words("ok"))  # the cut, on the buttons
        app.pump()
        assert len(ui.session.game.journal) == 2  # the game goes on without its screen
        assert parts.pegboard.boards[-1] == ui.board()  # and the LEDs follow it
        tries = oled.tries
        wait(LAST_RETRY_S)  # retried with backoff: 0.5, 1, 2, 4, 8, 16 s...
        assert 3 <= oled.tries - tries <= 7
        oled.plugged = True
        wait(LAST_RETRY_S + CHECK_S)
        assert guard.problems() == ()
        display = stand_in.part
        assert display.flush(5.0)
        assert display.inner.device.image.convert("1").tobytes() == render_screen(ui.screen(), (128, 64)).tobytes()
        screen = ui.screen()
        driver.press(action_from_words("ok"))  # the game goes on, on the OLED too
        app.pump()
        assert ui.screen() != screen
        assert display.flush(5.0)
        assert display.inner.device.image.convert("1").tobytes() == render_screen(ui.screen(), (128, 64)).tobytes()
    finally:
        app.close()


def test_with_the_buttons_missing_the_display_names_them_the_other_keys_play_and_the_buttons_join():
    config = Config(parts=PartsConfig(inputs=("mock", "sim"), pegboard="mock", displays=(DisplayConfig("mock"),)))
    pins, keys_clock = FlakyPins(), ManualClock()
    parts, ui, app, guard, wait = table(config, Inject(pin_factory=pins, clock=keys_clock))
    try:
        buttons, cards = parts.inputs.sources
        assert isinstance(buttons, MissingInputs) and isinstance(cards, SimInputs)
        (problem,) = guard.problems()
        assert problem.startswith("buttons: missing (GPIO17 (ok): Unable to load any default pin factory!")
        display = parts.displays[0]
        assert mock_screen(display) == render_screen(problem_screen((problem,)), (128, 64)).tobytes()
        cards.press("ok")  # the other keys play on, and the first takes the problem as read:
        app.pump()
        assert len(ui.session.game.journal) == 2
        # the table's screen, with a mark in its corner: a part is still missing
        assert guard.missing() == ("buttons",)
        assert mock_screen(display) == render_screen(ui.screen(), (128, 64), {"missing"}).tobytes()
        wait(2 * FIRST_RETRY_S)
        assert mock_screen(display) == render_screen(ui.screen(), (128, 64), {"missing"}).tobytes()  # still
        wait(2 * FIRST_RETRY_S)
        assert buttons.part is None and guard.problems() == (problem,)
        pins.wired = True
        wait(4 * FIRST_RETRY_S)
        assert buttons.part is not None and guard.problems() == () and guard.missing() == ()
        assert mock_screen(display) == render_screen(ui.screen(), (128, 64)).tobytes()  # joined: no mark
        screen = ui.screen()
        PinDriver(pins, config.pins, keys_clock, config.timing).press(action_from_words("ok"))
        app.pump()
        assert ui.screen() != screen  # the buttons joined the table
    finally:
        app.close()


def test_with_no_input_at_all_the_display_says_the_table_cannot_be_played():
    config = Config(parts=PartsConfig(inputs=("mock",), pegboard="sim", displays=(DisplayConfig("mock"),)))
    pins = FlakyPins()
    parts, ui, app, guard, wait = table(config, Inject(pin_factory=pins, clock=ManualClock()))
    try:
        problems = guard.problems()
        assert problems[0] == NO_INPUT and problems[1].startswith("buttons: missing")
        assert mock_screen(parts.displays[0]) == render_screen(problem_screen(problems), (128, 64)).tobytes()
        pins.wired = True
        wait(2 * FIRST_RETRY_S)
        assert guard.problems() == ()
    finally:
        app.close()


def test_without_stand_ins_a_part_that_will_not_open_fails_the_whole():
    config = Config(parts=PartsConfig(inputs=("mock",), pegboard="mock", displays=(DisplayConfig("pi"),)))
    with pytest.raises(HardwareError, match="Remote I/O error"):
        open_parts(config, inject=Inject(pin_factory=MockFactory(), device_factory=FlakyOled()))


def test_a_card_reader_missing_at_start_joins_when_plugged_and_is_reopened_after_that(pty_port):
    link, plug, pull = pty_port
    config = Config(card_reader_port=str(link),
                    parts=PartsConfig(inputs=("sim",), pegboard="sim", displays=(DisplayConfig("mock"),)))
    parts, ui, app, guard, wait = table(config, Inject())
    try:
        (problem,) = guard.problems()
        assert problem.startswith(f"card reader {link}: missing (")
        wait(2 * FIRST_RETRY_S)
        assert guard.problems() == (problem,)  # still missing: retried, not fatal
        master = plug()
        wait(4 * FIRST_RETRY_S)
        assert guard.problems() == ()
        os.write(master, b"6S\n")
        assert pumped(app)  # the reader joined the table
        pull(master)
        deadline = time.monotonic() + 30  # only bounds a failure: both cores may be busy
        while not guard.problems() and time.monotonic() < deadline:
            wait(CHECK_S)
            time.sleep(0.05)
        assert "gone" in guard.problems()[0]  # once joined, it is watched as any card reader
        master = plug()
        wait(8 * FIRST_RETRY_S)
        assert guard.problems() == ()
        os.write(master, b"7C\n")
        assert pumped(app)
    finally:
        app.close()


def test_problems_taken_as_read_by_a_key_come_back_when_a_new_one_opens():
    from cribpi.app import TableApp
    from cribpi.hal.mock import open_mock

    problems = ["controller: unplugged"]
    parts = open_mock()
    ui = TableUI(TableSettings(), rng=random.Random(1))
    app = TableApp(parts, ui, problems=lambda: tuple(problems))
    app.start()
    try:
        def shown():
            return parts.image.tobytes()

        assert shown() == render_screen(problem_screen(problems), (128, 64)).tobytes()
        parts.press("ok")
        app.pump()
        assert len(ui.session.game.journal) == 2  # the key reached the game
        assert shown() == render_screen(ui.screen(), (128, 64)).tobytes()  # and took the problem as read
        app.publish((), ())
        assert shown() == render_screen(ui.screen(), (128, 64)).tobytes()
        problems.append("OLED 2: missing")
        app.publish((), ())
        assert shown() == render_screen(problem_screen(problems), (128, 64)).tobytes()  # news again
        problems[:] = []
        app.publish((), ())
        problems.append("controller: unplugged")  # one that cleared and comes back is news too
        app.publish((), ())
        assert shown() == render_screen(problem_screen(problems), (128, 64)).tobytes()
    finally:
        app.close()


@pytest.mark.parametrize("late", [False, True], ids=["there at start", "joined late"])
def test_buttons_that_join_late_are_watched_for_a_key_stuck_down_as_those_there_at_start(late, caplog):
    from cribpi.daemon.stuck import STUCK_S
    from cribpi.hal.buttons import ButtonTiming

    config = Config(timing=ButtonTiming(repeat_s=0.5),
                    parts=PartsConfig(inputs=("mock", "sim"), pegboard="mock", displays=(DisplayConfig("mock"),)))
    pins, keys_clock = FlakyPins(), ManualClock()
    pins.wired = not late
    parts, ui, app, guard, wait = table(config, Inject(pin_factory=pins, clock=keys_clock))
    try:
        buttons, cards = parts.inputs.sources
        if late:
            assert isinstance(buttons, MissingInputs) and guard.problems()[0].startswith("buttons: missing")
            pins.wired = True
            wait(4 * FIRST_RETRY_S)
            assert buttons.part is not None
        assert guard.problems() == ()
        cards.press("ok")  # the cut
        for card in ("6S", "QH", "5C"):
            cards.feed_card(card)
        app.pump()
        played = len(ui.session.game.journal)
        driver = PinDriver(pins, config.pins, keys_clock, config.timing)
        undo = action_from_words("undo")
        driver.hold_down(undo)
        keys_clock.advance(1.0)  # a long press: one undo_long, as the player means it
        app.pump()
        assert len(ui.session.game.journal) == played + 1
        wait(STUCK_S + CHECK_S)
        undo_pin = driver.pin_for(undo)
        assert guard.problems() == (f"button undo (GPIO{undo_pin}) stuck down: ignored until released",)
        assert mock_screen(parts.displays[0]) == render_screen(problem_screen(guard.problems()), (128, 64)).tobytes()
        keys_clock.advance(10.0)  # it would repeat every 0.5 s: 20 more undos, all dropped
        assert app.pump() == 0 and len(ui.session.game.journal) == played + 1
        wait(5.0)
        assert sum("stuck down" in r.message for r in caplog.records) == 1  # reported once
        driver.let_go(undo)
        wait(CHECK_S)
        assert guard.problems() == ()
        assert mock_screen(parts.displays[0]) == render_screen(ui.screen(), (128, 64)).tobytes()
        driver.press(undo)  # and it works again
        app.pump()
        assert len(ui.session.game.journal) == played + 2
    finally:
        app.close()


def test_pi_buttons_missing_at_start_are_watched_once_gpiozero_finds_its_pins(monkeypatch, caplog):
    """As on a Pi (no factory injected) whose GPIO is not there yet: gpiozero finds no default
    pin factory at start, then does; the buttons join and are watched through the factory
    they hold, a key stuck down reported once, as it is for buttons there at start."""
    from gpiozero import Device

    from cribpi.daemon.stuck import STUCK_S

    factory = MockFactory()
    wired = []

    def default_pin_factory():
        if not wired:
            raise BadPinFactory("Unable to load any default pin factory!")
        return factory

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(default_pin_factory))
    config = Config(parts=PartsConfig(inputs=("pi", "sim"), pegboard="mock", displays=(DisplayConfig("mock"),)))
    parts, _ui, app, guard, wait = table(config, Inject(clock=ManualClock()))
    try:
        buttons, _ = parts.inputs.sources
        assert isinstance(buttons, MissingInputs) and len(guard.problems()) == 1
        wired.append(True)
        wait(2 * FIRST_RETRY_S)
        assert buttons.part is not None and guard.problems() == ()
        ok_pin = next(pin for pin, binding in config.pins.items() if str(binding.press) == "ok")
        factory.pin(ok_pin).drive_low()
        wait(STUCK_S + CHECK_S)
        assert guard.problems() == (f"button ok (GPIO{ok_pin}) stuck down: ignored until released",)
        assert sum("stuck down" in r.message for r in caplog.records) == 1
        factory.pin(ok_pin).drive_high()
        wait(CHECK_S)
        assert guard.problems() == ()
    finally:
        app.close()


def test_the_missing_oled_is_marked_on_the_other_display_after_a_key_until_it_joins():
    config = Config(parts=PartsConfig(inputs=("mock",), pegboard="mock",
                                      displays=(DisplayConfig("pi"), DisplayConfig("mock"))))
    pins, keys_clock, oled = MockFactory(), ManualClock(), FlakyOled()
    parts, ui, app, guard, wait = table(config, Inject(pin_factory=pins, clock=keys_clock, device_factory=oled))
    try:
        other = parts.displays[1]
        (problem,) = guard.problems()
        assert problem.startswith("OLED 1: missing (") and guard.missing() == ("OLED 1",)
        assert mock_screen(other) == render_screen(problem_screen((problem,)), (128, 64)).tobytes()
        PinDriver(pins, config.pins, keys_clock, config.timing).press(action_from_words("ok"))
        app.pump()  # the problem taken as read: the table's screen, marked while the OLED is missing
        assert mock_screen(other) == render_screen(ui.screen(), (128, 64), {"missing"}).tobytes()
        wait(8 * FIRST_RETRY_S)
        assert mock_screen(other) == render_screen(ui.screen(), (128, 64), {"missing"}).tobytes()
        oled.plugged = True
        wait(LAST_RETRY_S + CHECK_S)
        assert guard.problems() == () and guard.missing() == ()
        assert mock_screen(other) == render_screen(ui.screen(), (128, 64)).tobytes()  # it joined: no mark
        display = parts.displays[0].part
        assert display.flush(5.0)
        assert display.inner.device.image.convert("1").tobytes() == render_screen(ui.screen(), (128, 64)).tobytes()
    finally:
        app.close()


def test_the_simulators_status_line_says_a_missing_part_until_it_joins():
    from cribpi.sim.terminal import Terminal

    config = Config(parts=PartsConfig(inputs=("mock", "sim"), pegboard="sim", displays=(DisplayConfig("sim"),)))
    pins = FlakyPins()
    parts, ui, app, guard, wait = table(config, Inject(pin_factory=pins, clock=ManualClock()))
    try:
        terminal = Terminal(app, parts)
        _, cards = parts.inputs.sources
        cards.press("ok")  # takes the problem as read: the status line keeps saying it
        app.pump()
        assert len(ui.session.game.journal) == 2
        status = terminal.view().status
        assert status.endswith(" · no buttons") and len(status) <= 80
        assert terminal.display.image.tobytes() == render_screen(ui.screen(), (128, 64), {"missing"}).tobytes()
        pins.wired = True
        wait(4 * FIRST_RETRY_S)
        assert guard.missing() == ()
        assert "no buttons" not in terminal.view().status
        assert terminal.display.image.tobytes() == render_screen(ui.screen(), (128, 64)).tobytes()
    finally:
        app.close()
