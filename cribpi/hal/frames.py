"""A display written by a thread of its own, so the table never waits for the I2C bus.

An SSD1306 takes a whole frame on every update: 1,024 bytes, about 23 ms on I2C at 400 kHz
and 90 ms at the default 100 kHz, plus luma's own loop over the 8,192 pixels. Written on the
loop's thread, every key press would wait that long before the next key is read, and the LEDs
of the next press would wait with it. :class:`LatestFrameDisplay` hands each image to a writer
thread and returns at once:

- **Only the latest frame is written.** A frame superseded while the thread was busy is
  dropped, so a burst of keys costs one write, not one per key, and the panel never lags
  behind the game.
- **A frame equal to the one on the panel is not written again.**
- **Contrast changes are made in order**, on the same thread as the frames (one bus).
- **Failures are reported, never raised.** A write that fails (the panel gone from the bus)
  sets :attr:`problem`, which the daemon's guard shows on the displays that still work, and
  the latest frame is retried with backoff (half a second, doubling to half a minute) until the
  panel answers; the problem then clears and the table is redrawn.
- :meth:`close` writes what is still pending (the "paused" screen at a stop), up to a second,
  then closes the panel.

Checks of the image (its size and mode) and of the contrast happen at once, on the caller's
thread, exactly as the wrapped display makes them.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from PIL import Image

from cribpi.hal.base import Display, check_contrast, check_image, check_open

__all__ = ["LatestFrameDisplay"]

log = logging.getLogger(__name__)

FIRST_RETRY_S = 0.5
LAST_RETRY_S = 30.0
CLOSE_WAIT_S = 1.0


class LatestFrameDisplay:
    """``inner`` (any :class:`~cribpi.hal.base.Display`) written by a thread of its own."""

    def __init__(self, inner: Display, *, name: str = "display", first_retry: float = FIRST_RETRY_S,
                 last_retry: float = LAST_RETRY_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.inner = inner
        self.size = inner.size
        self.problem: str | None = None
        self.writes = 0  # frames written to the panel (for tests and benchmarks)
        self._first_retry, self._last_retry, self._clock = first_retry, last_retry, clock
        self._wake = threading.Condition()
        self._frame: Image.Image | None = None  # the latest frame not yet on the panel
        self._contrast: list[int] = []  # contrast changes not yet made, in order
        self._on_panel: bytes | None = None  # what the panel shows, once a write succeeded
        self._busy = False
        self._closing = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=f"{name} writer", daemon=True)
        self._thread.start()

    def show(self, image: Image.Image) -> None:
        check_open(self._closed or self._closing, "display")
        check_image(image, self.size)
        with self._wake:
            self._frame = image.copy()  # the caller may draw on its image again
            self._wake.notify()

    def contrast(self, level: int) -> None:
        check_open(self._closed or self._closing, "display")
        check_contrast(level)
        with self._wake:
            self._contrast.append(level)
            self._wake.notify()

    def flush(self, timeout: float = CLOSE_WAIT_S) -> bool:
        """Wait until everything given so far has been tried; False if ``timeout`` passed first."""
        end = time.monotonic() + timeout
        with self._wake:
            while self._pending() or self._busy:
                left = end - time.monotonic()
                if left <= 0 or not self._thread.is_alive():
                    return False
                self._wake.wait(left)
        return True

    def close(self) -> None:
        if self._closed:
            return
        with self._wake:
            self._closing = True
            self._wake.notify_all()
        self._thread.join(CLOSE_WAIT_S)
        if self._thread.is_alive():
            log.warning("the display did not take its last frame within %.0f s", CLOSE_WAIT_S)
        self._closed = True
        self.inner.close()

    def _pending(self) -> bool:
        return self._frame is not None or bool(self._contrast)

    def _run(self) -> None:
        delay, retry_at = self._first_retry, 0.0
        while True:
            with self._wake:
                while True:
                    if self._closing and (not self._pending() or self.problem is not None):
                        self._wake.notify_all()
                        return
                    wait = retry_at - self._clock() if self.problem is not None else 0.0
                    if self._pending() and wait <= 0:
                        break
                    self._wake.wait(wait if self._pending() else None)
                frame, levels = self._frame, self._contrast
                self._frame, self._contrast, self._busy = None, [], True
            error = self._write(frame, levels)
            with self._wake:
                self._busy = False
                if error is None:  # the guard logs the problem as it opens and clears
                    self.problem, delay = None, self._first_retry
                else:
                    self.problem = str(error)
                    # keep what was not written, unless something newer came meanwhile
                    if self._frame is None and frame is not None:
                        self._frame = frame
                        self._on_panel = None
                    self._contrast[:0] = levels
                    retry_at, delay = self._clock() + delay, min(delay * 2, self._last_retry)
                self._wake.notify_all()

    def _write(self, frame: Image.Image | None, levels: list[int]) -> Exception | None:
        try:
            for level in levels:
                self.inner.contrast(level)
            if frame is not None:
                data = frame.tobytes()
                if data != self._on_panel:
                    self.inner.show(frame)
                    self._on_panel = data
                    self.writes += 1
        except Exception as exc:  # noqa: BLE001 - any failure of the panel is reported, never raised
            return exc
        return None
