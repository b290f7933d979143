"""Debounce and long press against a fake clock (gpiozero's mock does not simulate bounce)."""

from __future__ import annotations

import pytest

from cribpi.exc import ConfigError
from cribpi.hal.actions import Action
from cribpi.hal.buttons import ButtonDriver, ButtonLogic, ButtonTiming, ManualClock, PinBinding

OK = PinBinding.for_press(Action.parse("ok"))
UNDO = PinBinding.for_press(Action.parse("undo"))
TIMING = ButtonTiming(debounce_s=0.02, long_press_s=0.8)


def rig(binding=OK, timing=TIMING):
    clock, got = ManualClock(start=0.0), []
    return clock, ButtonDriver(ButtonLogic(binding, timing), clock, got.append), got


def test_press_acts_once_the_level_holds():
    clock, button, got = rig()
    button.edge(True)
    clock.advance(0.019)
    assert got == []
    clock.advance(0.002)
    assert got == [Action.parse("ok")]
    button.edge(False)
    clock.advance(0.1)
    assert got == [Action.parse("ok")]


def test_bounces_make_one_press():
    clock, button, got = rig()
    for _ in range(5):
        button.edge(True)
        clock.advance(0.003)
        button.edge(False)
        clock.advance(0.003)
    button.edge(True)
    clock.advance(0.05)
    button.edge(False)
    clock.advance(0.005)
    button.edge(True)  # release bounce
    clock.advance(0.005)
    button.edge(False)
    clock.advance(0.05)
    assert got == [Action.parse("ok")]


def test_a_glitch_shorter_than_debounce_is_ignored():
    clock, button, got = rig()
    button.edge(True)
    clock.advance(0.01)
    button.edge(False)
    clock.advance(1)
    assert got == []


def test_short_press_of_a_hold_button_acts_on_release():
    clock, button, got = rig(UNDO)
    button.edge(True)
    clock.advance(0.3)
    assert got == []
    button.edge(False)
    clock.advance(0.05)
    assert got == [Action.parse("undo")]


def test_long_press_fires_while_held_and_not_again_on_release():
    clock, button, got = rig(UNDO)
    button.edge(True)
    clock.advance(0.81)
    assert got == [Action.parse("undo_long")]
    clock.advance(2)
    button.edge(False)
    clock.advance(0.05)
    assert got == [Action.parse("undo_long")]


def test_repeat_while_held():
    clock, button, got = rig(UNDO, ButtonTiming(0.02, 0.8, repeat_s=0.5))
    button.edge(True)
    clock.advance(0.02 + 0.8 + 1.0 + 0.001)  # long press, then two repeats
    button.edge(False)
    clock.advance(0.1)
    assert got == [Action.parse("undo_long")] * 3


def test_release_just_before_the_long_press_is_short():
    """The timer may run late: what counts is when the finger let go."""
    logic = ButtonLogic(UNDO, TIMING)
    logic.edge(True, 0.0)
    assert logic.update(0.02) == []
    logic.edge(False, 0.79)
    assert logic.update(0.9) == [Action.parse("undo")]


def test_late_update_still_sees_the_hold():
    logic = ButtonLogic(UNDO, TIMING)
    logic.edge(True, 0.0)
    assert logic.edge(False, 1.5) == [Action.parse("undo_long")]
    assert logic.update(2.0) == []


def test_deadline_says_when_to_look_again():
    logic = ButtonLogic(UNDO, TIMING)
    assert logic.deadline() is None
    logic.edge(True, 1.0)
    assert logic.deadline() == pytest.approx(1.02)
    logic.update(1.02)
    assert logic.deadline() == pytest.approx(1.8)


def test_bad_timing_is_a_config_error():
    with pytest.raises(ConfigError, match="debounce"):
        ButtonTiming(debounce_s=1.0, long_press_s=0.5)
