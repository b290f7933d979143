"""The OLED written by a thread of its own (:class:`LatestFrameDisplay`): the real OLED code on
luma's dummy device, made slow or failing as a panel on a busy or broken I2C bus is."""

from __future__ import annotations

import threading
import time

import pytest
from PIL import Image, ImageDraw

from cribpi.exc import HardwareError, ViewError
from cribpi.hal.frames import LatestFrameDisplay
from cribpi.hal.mock import FaultyDevice
from cribpi.hal.pi import OledDisplay

SIZE = (128, 64)


class SlowDevice(FaultyDevice):
    """luma's dummy panel that takes ``delay`` seconds a frame (a full frame on I2C at 400 kHz is
    about 23 ms) and records what it is asked to do."""

    def __init__(self, delay: float = 0.0, gate: threading.Event | None = None) -> None:
        super().__init__(SIZE)
        self.delay = delay
        self.gate = gate  # when given, each write also waits till it is set (a bus held busy)
        self.calls: list[tuple[str, object]] = []
        self.entered = threading.Event()

    def display(self, image: Image.Image) -> None:
        self.entered.set()
        time.sleep(self.delay)
        if self.gate is not None:
            self.gate.wait(30)
        super().display(image)
        self.calls.append(("display", image.tobytes()))

    def contrast(self, level: int) -> None:
        super().contrast(level)
        self.calls.append(("contrast", level))


def frame(n: int) -> Image.Image:
    image = Image.new("1", SIZE, 0)
    ImageDraw.Draw(image).rectangle((n, n, n + 10, n + 5), fill=1)
    return image


def panel(delay: float = 0.0, gate: threading.Event | None = None,
          **kwargs: float) -> tuple[LatestFrameDisplay, SlowDevice]:
    device = SlowDevice(delay, gate)
    return LatestFrameDisplay(OledDisplay(device=device), **kwargs), device


def on_panel(device: SlowDevice) -> bytes:
    assert device.image is not None
    return device.image.convert("1").tobytes()


def until(condition, timeout: float = 30.0) -> bool:  # only bounds a failure: both cores may be busy
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.005)
    return condition()


def test_show_returns_at_once_and_only_the_latest_frame_is_written() -> None:
    busy = threading.Event()
    display, device = panel(gate=busy)
    try:
        display.show(frame(0))
        assert device.entered.wait(30)  # the write of the first frame has begun, and holds the bus
        for n in range(1, 6):
            display.show(frame(n))
        assert device.calls == []  # five frames handed over while the bus was busy: none waited for it
        busy.set()
        assert display.flush(30)
        assert on_panel(device) == frame(5).tobytes()
        assert display.writes == 2  # the first, then the latest: frames 1-4 were superseded
    finally:
        busy.set()
        display.close()


def test_a_frame_equal_to_the_panel_is_not_written_again() -> None:
    display, device = panel()
    try:
        for _ in range(3):
            display.show(frame(3))
            assert display.flush(30)
        display.show(frame(4))
        assert display.flush(30)
        assert [kind for kind, _ in device.calls] == ["display", "display"] and display.writes == 2
    finally:
        display.close()


def test_the_caller_may_draw_on_its_image_again_at_once() -> None:
    display, device = panel(delay=0.05)
    try:
        image = frame(2)
        display.show(image)
        ImageDraw.Draw(image).rectangle((0, 0, 127, 63), fill=1)  # the caller reuses its image
        assert display.flush(30)
        assert on_panel(device) == frame(2).tobytes()
    finally:
        display.close()


def test_contrast_changes_are_made_in_order_on_the_writer_thread() -> None:
    display, device = panel(delay=0.05)
    try:
        display.show(frame(1))
        for level in (10, 20, 30):
            display.contrast(level)
        assert display.flush(30)
        assert [value for kind, value in device.calls if kind == "contrast"] == [10, 20, 30]
    finally:
        display.close()


def test_bad_images_and_contrast_are_refused_at_once_as_by_the_panel() -> None:
    display, device = panel()
    try:
        with pytest.raises(ViewError, match="128x64 images of mode '1'"):
            display.show(Image.new("1", (64, 32)))
        with pytest.raises(ViewError, match="contrast 300"):
            display.contrast(300)
        assert display.flush(30) and device.calls == []  # nothing reached the panel
    finally:
        display.close()


def test_a_failing_panel_is_reported_retried_and_redrawn_with_the_latest_frame() -> None:
    display, device = panel(first_retry=0.02, last_retry=0.05)
    try:
        device.fault = OSError(121, "Remote I/O error")
        display.show(frame(1))  # never raises: the loop must not stop for the bus
        assert until(lambda: display.problem == "[Errno 121] Remote I/O error")
        display.show(frame(2))  # the game goes on while the panel is away
        time.sleep(0.2)  # retried with backoff, still failing
        assert display.problem is not None and device.image is None
        device.fault = None
        assert until(lambda: display.problem is None)
        assert display.flush(30) and on_panel(device) == frame(2).tobytes()
    finally:
        display.close()


def test_close_writes_the_pending_frame_then_closes_the_panel() -> None:
    display, device = panel(delay=0.1)
    display.show(frame(1))
    assert device.entered.wait(30)
    display.show(frame(7))  # pending behind the slow write: the "paused" screen at a stop
    display.close()
    written = [data for kind, data in device.calls if kind == "display"]
    assert written == [frame(1).tobytes(), frame(7).tobytes()]  # then luma blanks it as it lets go
    with pytest.raises(HardwareError, match="the display is closed"):
        display.show(frame(8))
    display.close()  # twice is fine


def test_close_does_not_wait_for_a_dead_panel() -> None:
    display, device = panel(first_retry=60.0)
    device.fault = OSError(121, "Remote I/O error")
    display.show(frame(1))
    assert until(lambda: display.problem is not None)
    start = time.monotonic()
    display.close()
    assert time.monotonic() - start < 10  # not the 60 s till the retry (a bound only: both cores may be busy)
    writer = display._thread
    writer.join(30)  # close gives up on it after a second; the writer must have ended, not be left retrying
    assert not writer.is_alive()
