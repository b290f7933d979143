"""keys.Sampler under CPython (issue 31): the matrix read on time by the timer interrupt's
``sample`` while the loop is busy, and debounced late by ``take`` as if it had been scanned
on time — a tap the loop never saw is reported once, a bounce never, a ring that filled up
while the loop stalled does not leave the loop believing a key still held."""

import pytest

import keys as fw_keys
import machine
import settings

PIN = (settings.ROW_PINS[0], settings.COL_PINS[4])  # KEYMAP row 0, column 4: "5"


class Clock:
    """time.ticks_ms and ticks_diff, at a time the test sets."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(fw_keys, "time", clock)
    yield clock
    machine.press(())


def run(clock, sampler, until, pressed=None):
    """The interrupt's scans every SCAN_MS up to ``until``; ``pressed(t)``: the key held at t."""
    while clock.now + settings.SCAN_MS <= until:
        clock.now += settings.SCAN_MS
        machine.press({PIN} if pressed and pressed(clock.now) else ())
        sampler.sample()


@pytest.mark.parametrize("tap_ms", [30, 40, 60])
def test_a_tap_the_loop_never_saw_is_reported_once_when_it_takes(clock, tap_ms):
    sampler, keys = fw_keys.Sampler(fw_keys.Matrix()), fw_keys.Debouncer(debounce_ms=20)
    run(clock, sampler, 120, lambda t: 20 < t <= 20 + tap_ms)  # the loop busy all along
    assert keys.update(sampler.matrix.names(sampler.mask), clock.now) == ()  # what it would see now: nothing
    assert sampler.take(keys, clock.now, clock.ticks_ms()) == [("KD", "5"), ("KU", "5")]
    assert sampler.take(keys, clock.now, clock.ticks_ms()) == ()  # once


def test_a_bounce_is_not_reported_however_late_the_loop_takes(clock):
    sampler, keys = fw_keys.Sampler(fw_keys.Matrix()), fw_keys.Debouncer(debounce_ms=20)
    run(clock, sampler, 200, lambda t: 20 < t <= 35 or 100 < t <= 110)
    assert sampler.take(keys, clock.now, clock.ticks_ms()) == []


def test_a_ring_full_while_the_loop_stalled_loses_no_release(clock):
    """More changes than the ring holds before the loop takes (two taps, three records): the
    release past the ring waits in the interrupt's reading, and is recorded at the first scan
    after the loop has taken, so the key is not left down in the loop's eyes (and repeating KH)."""
    sampler, keys = fw_keys.Sampler(fw_keys.Matrix(), size=3), fw_keys.Debouncer(debounce_ms=20, hold_ms=800)
    run(clock, sampler, 300, lambda t: 30 <= t < 60 or 90 <= t < 120)
    assert sampler.overrun > 0
    events = sampler.take(keys, clock.now, clock.ticks_ms())
    run(clock, sampler, 2000)  # nothing pressed since 120
    events += sampler.take(keys, clock.now, clock.ticks_ms())
    assert events == [("KD", "5"), ("KU", "5"), ("KD", "5"), ("KU", "5")]
    assert not keys.down
