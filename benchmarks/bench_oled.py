"""The OLED on its I2C bus: how long a key press keeps the loop busy, with the panel written on
the loop's thread and by a thread of its own (``cribpi.hal.frames.LatestFrameDisplay``, what
``cribpi run`` uses for a Pi's OLED).

luma.oled's real ``ssd1306`` driver runs, its pixel loop included, over a stand-in for the bus
that takes the time the bytes take on the wire (9 bits a byte at the bus speed; a full frame is
1,024 bytes: 23 ms at 400 kHz, 92 ms at 100 kHz). The presses are the seeded random games of
the other table benchmarks, on the mock buttons and LEDs, with no journal.

    python benchmarks/bench_oled.py [--games N]

Figures: the time from a press to the loop being ready for the next one (median, p99, max),
and how many frames reached the panel out of those the table drew (the writer thread drops a
frame superseded while the bus was busy, and one equal to what the panel shows).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from luma.oled.device import ssd1306
from PIL import Image

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.hal import Parts
from cribpi.hal.frames import LatestFrameDisplay
from cribpi.hal.mock import open_mock
from cribpi.hal.pi import OledDisplay

sys.path.insert(0, os.path.dirname(__file__))
from bench_table import _presses, _replayable  # noqa: E402  (benchmarks/ is not a package)


class TimedBus:
    """luma's serial interface, taking the time its bytes take on an I2C bus of ``hz``."""

    def __init__(self, hz: int) -> None:
        self.seconds_a_byte = 9 / hz  # 8 bits and the acknowledge
        self.sent = 0

    def _send(self, count: int) -> None:
        self.sent += count
        time.sleep(count * self.seconds_a_byte)  # an ioctl lets other threads run too

    def command(self, *cmd: int) -> None:
        self._send(len(cmd) + 1)

    def data(self, data: list[int]) -> None:
        self._send(len(data) + 1)

    def cleanup(self) -> None:
        pass


class CountingOled(OledDisplay):
    """The real OLED code, counting the frames it writes to the panel."""

    writes = 0

    def show(self, image: Image.Image) -> None:
        super().show(image)
        self.writes += 1


def table(hz: int, threaded: bool, seed: int) -> tuple[TableApp, TableUI, CountingOled, LatestFrameDisplay | None]:
    panel = CountingOled(device=ssd1306(TimedBus(hz)))
    display = LatestFrameDisplay(panel, name="bench OLED") if threaded else panel
    mock = open_mock()
    parts = Parts(mock.inputs, mock.pegboard, (display,), ("table",), mock.backends)
    ui = TableUI(TableSettings(), rng=random.Random(seed))
    app = TableApp(parts, ui)
    app.start()
    return app, ui, panel, display if isinstance(display, LatestFrameDisplay) else None


def run(hz: int, threaded: bool, games: int) -> tuple[list[float], int, int]:
    times: list[float] = []
    drawn = written = 0
    for seed in range(games):
        app, ui, panel, frames = table(hz, threaded, seed)
        drawn += 1  # the first screen, at start
        for action in _presses(ui, _replayable(ui, seed)):
            start = time.perf_counter()
            app.queue(action)
            app.pump()
            times.append((time.perf_counter() - start) * 1000)
            drawn += 1
            time.sleep(0.05)  # a player's pace: a key every 50 ms at the very fastest
        if frames is not None:
            frames.flush(5)
        written += panel.writes
        app.close()
    return times, drawn, written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    print(f"key press -> loop ready for the next key, {args.games} games, luma ssd1306 on a timed I2C bus")
    print(f"  {'ms':<34}{'median':>8}{'p99':>8}{'max':>8}   frames written / drawn")
    for hz in (400_000, 100_000):
        for threaded in (False, True):
            times, drawn, written = run(hz, threaded, args.games)
            ordered = sorted(times)
            p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
            label = f"{hz // 1000} kHz, {'writer thread' if threaded else 'on the loop'}"
            print(f"  {label:<34}{statistics.median(ordered):>8.2f}{p99:>8.2f}{ordered[-1]:>8.2f}   {written} / {drawn}")


if __name__ == "__main__":
    main()
