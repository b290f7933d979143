"""The terminal simulator's frame: the OLED image to text, and a whole frame fitted to a size.

Target (issue 11): a simulator frame in at most 1.5 ms. Each figure is printed in
milliseconds and as a ratio to an anchor measured in the same run (drawing the same screen
on the 128x64 OLED with ``render_screen``, which every frame pays for anyway), so runs on
different machines compare. "before" is the pixel-by-pixel ``image_to_text`` this replaced,
kept here only to measure against.

    python benchmarks/bench_sim.py [--repeat 300]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import random
import select
import struct
import subprocess
import sys
import termios
import timeit
from collections.abc import Callable

from PIL import Image

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.config import Config
from cribpi.hal import Action
from cribpi.hal.term import image_to_braille, image_to_text
from cribpi.sim import Terminal
from cribpi.sim.layout import fit
from cribpi.views.model import ScoreScreen
from cribpi.views.oled import render_screen
from cribpi.wiring import open_parts

SCREEN = ScoreScreen("Ann", 6, ("fifteen two", "a pair is 4"))
_HALVES = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def image_to_text_before(image: Image.Image) -> str:
    """The replaced version: a getpixel call for every pixel."""
    image = image.convert("1")
    width, height = image.size
    lines = []
    for y in range(0, height, 2):
        lines.append("".join(
            _HALVES[(bool(image.getpixel((x, y))), y + 1 < height and bool(image.getpixel((x, y + 1))))]
            for x in range(width)))
    return "\n".join(lines)


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    """The best of five runs of ``repeat`` calls, per call."""
    return min(timeit.repeat(fn, number=repeat, repeat=5)) / repeat * 1000


def played_terminal(players: int) -> Terminal:
    """A table a few steps into a deal, with its terminal (not running: no curses)."""
    ui = TableUI(TableSettings(names=("Ann", "Bob", "Cat", "Dan"), players=players), rng=random.Random(1))
    app = TableApp(open_parts(Config(), "sim"), ui)
    terminal = Terminal(app, app.parts)
    app.start()
    for action in (Action.parse("ok"), Action.of_card("5H"), Action.of_card("JS")):
        app.handle(action)
    return terminal


_DRAW = """
import curses, sys, timeit
sys.path.insert(0, {here!r})
from bench_sim import played_terminal
from cribpi.sim.terminal import Palette
from cribpi.views.model import ScoreScreen
from cribpi.views.oled import render_screen
terminal = played_terminal(3)
images = [render_screen(ScoreScreen("Ann", n, ("fifteen two",))) for n in range(1, 9)]  # more than are cached
def frames(screen):
    curses.use_default_colors()
    terminal.screen, terminal._palette = screen, Palette()
    step = iter(range(10 ** 9))
    def frame():
        n = next(step)
        terminal.mapper.notice = str(n)  # what a key changes: the prompt line...
        if {oled}:
            terminal.display.image = images[n % len(images)]  # ...and the OLED
        terminal.draw()
    return min(timeit.repeat(frame, number={repeat} // 5, repeat=5)) / ({repeat} // 5) * 1000
sys.stderr.write(str(curses.wrapper(frames)))
"""


def curses_frame_ms(columns: int, rows: int, repeat: int, oled: bool) -> float:
    """A whole frame drawn by curses on a real pty of ``columns`` x ``rows`` (what a key costs);
    ``oled``: the key changes the OLED's image too."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    code = _DRAW.format(here=os.path.dirname(os.path.abspath(__file__)), repeat=repeat, oled=oled)
    child = subprocess.Popen([sys.executable, "-c", code], stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                             env={**os.environ, "TERM": "xterm-256color"}, text=True)
    os.close(slave)
    while child.poll() is None:  # drain the terminal's output, as a terminal would
        if select.select([master], [], [], 0.1)[0]:
            try:
                os.read(master, 65536)
            except OSError:
                break
    os.close(master)
    return float(child.stderr.read() if child.stderr else "nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=300)
    repeat = parser.parse_args().repeat
    image = render_screen(SCREEN)
    assert image_to_text_before(image) == image_to_text(image)
    terminal = played_terminal(3)
    figures = {
        "anchor: render_screen (the OLED image)": lambda: render_screen(SCREEN),
        "image_to_text before (pixel loop)": lambda: image_to_text_before(image),
        "image_to_text now": lambda: image_to_text(image),
        "image_to_braille (80x24 terminals)": lambda: image_to_braille(image),
        "whole frame 80x24, 3 players (view + fit)": lambda: fit(terminal.view(), 80, 24),
        "whole frame 140x60, 3 players (view + fit)": lambda: fit(terminal.view(), 140, 60),
    }
    anchor = None
    for name, fn in figures.items():
        ms = best_ms(fn, repeat)
        anchor = anchor or ms
        print(f"{name:<56} {ms:8.3f} ms   {ms / anchor:6.2f}x anchor")
    assert anchor is not None
    for columns, rows in ((80, 24), (140, 60)):
        for oled, what in ((False, "a key"), (True, "a key and a new OLED image")):
            ms = curses_frame_ms(columns, rows, repeat, oled)
            name = f"curses frame on a pty, {columns}x{rows}, {what}"
            print(f"{name:<56} {ms:8.3f} ms   {ms / anchor:6.2f}x anchor")
    print("target: a frame <= 1.5 ms")


if __name__ == "__main__":
    main()
