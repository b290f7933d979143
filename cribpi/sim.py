"""``cribpi sim``: the whole table in a terminal, on the sim backend.

The LED tracks are drawn as coloured dots, the OLED from its real 128x64 image in half-block
characters, and keys map to the logical actions (legend on screen). The game is journalled
like on the Pi, so quitting and starting again resumes it.
"""

from __future__ import annotations

import os
import sys
import termios
import tty
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from cribpi.app import TableApp
from cribpi.exc import ConfigError
from cribpi.hal import Action, Parts
from cribpi.hal.sim import SimDisplay, SimPegboard
from cribpi.hal.term import frame_to_ansi, image_to_text
from cribpi.views.model import AlertScreen, MessageScreen

__all__ = ["KeyMapper", "Terminal", "LEGEND"]

LEGEND = (
    "cards: rank A 2-9 T J Q K, then suit c d h s     g: go   Enter: OK   u: undo  U: undo again",
    "m: menu (g/u move, Enter picks)   p: peg/claim (seat 1-4, points, Enter)   x: call muggins (caller's seat)",
    "Ctrl-C or Ctrl-D: quit (the game is kept and resumes next time)",
)
_RANK_KEYS = {"a": "A", "t": "T", "0": "T", "j": "J", "q": "Q", "k": "K", **{str(n): str(n) for n in range(2, 10)}}
_SUIT_KEYS = {"c": "C", "d": "D", "h": "H", "s": "S"}
_PLAIN_KEYS = {"g": "go", "\r": "ok", "\n": "ok", " ": "ok", "u": "undo", "\x7f": "undo", "U": "undo_long",
               "m": "menu", "\t": "menu"}
QUIT_KEYS = ("\x03", "\x04")


class KeyMapper:
    """Keys -> actions. ``p`` and ``x`` start a short entry (seat, then points)."""

    def __init__(self) -> None:
        self.entry: str | None = None  # "p" + digits while a peg is typed, "x" for muggins
        self.notice = ""  # why the last entry was dropped

    def actions(self, key: str) -> list[Action]:
        """The actions one key makes (a finished peg entry is one PEG; the terminal adds OK)."""
        self.notice = ""
        action = self.feed(key)
        return [] if action is None else [action]

    def feed(self, key: str) -> Action | None:
        if self.entry is not None:
            return self._entry_key(key)
        if key in ("p", "x"):
            self.entry = key
            return None
        if key in _RANK_KEYS:
            return Action.parse(f"rank {_RANK_KEYS[key]}")
        if key in _SUIT_KEYS:
            return Action.parse(f"suit {_SUIT_KEYS[key]}")
        if key in _PLAIN_KEYS:
            return Action.parse(_PLAIN_KEYS[key])
        return None

    def _entry_key(self, key: str) -> Action | None:
        assert self.entry is not None
        if key in ("\x1b", "u", "\x7f"):
            self.entry = None if key != "\x7f" or len(self.entry) <= 1 else self.entry[:-1]
            return None
        if key.isdigit():
            self.entry += key
            if self.entry[0] == "x":
                seat, self.entry = int(key) - 1, None
                return Action.muggins(seat) if 0 <= seat <= 3 else None
            return None
        if key in ("\r", "\n", " ") and self.entry[0] == "p" and len(self.entry) >= 3:
            seat, points = int(self.entry[1]) - 1, int(self.entry[2:])
            self.entry = None
            if 0 <= seat <= 3 and 1 <= points <= 121:
                return Action.peg(seat, points)
            self.notice = f"peg {seat + 1} {points}: seats are 1-4 and points 1-121"
        return None

    @property
    def status(self) -> str:
        if self.entry is None:
            return ""
        if self.entry[0] == "x":
            return "muggins: which seat (1-4)?"
        digits = self.entry[1:]
        return f"peg: seat {digits[:1] or '_'}, points {digits[1:] or '_'} (Enter)"


def sim_parts(parts: Parts) -> tuple[SimPegboard | None, SimDisplay | None]:
    """The simulated pegboard and first simulated display among ``parts`` (None: not simulated)."""
    pegboard = parts.pegboard if isinstance(parts.pegboard, SimPegboard) else None
    display = next((d for d in parts.displays if isinstance(d, SimDisplay)), None)
    return pegboard, display


def has_sim_keys(parts: Parts) -> bool:
    """The keys come from the terminal: the sim backend gives the inputs."""
    return "sim" in dict(parts.backends).get("inputs", "").split("+")


class Terminal:
    """Draws the simulated parts' frame and image; reads keys from a tty in cbreak mode."""

    def __init__(self, app: TableApp, parts: Parts, out: TextIO = sys.stdout,
                 keys_fd: int | None = None) -> None:
        self.app = app
        self.pegboard, self.display = sim_parts(parts)
        if self.display is None:
            raise ConfigError("the terminal simulator needs a simulated display: set a display's backend to sim")
        self.out = out
        self.keys_fd = sys.stdin.fileno() if keys_fd is None else keys_fd
        self.mapper = KeyMapper()
        self.quit = False
        self.display.subscribe(self.draw)

    def draw(self) -> None:
        frame = self.pegboard.frame if self.pegboard else None
        image = self.display.image if self.display else None
        state = self.app.ui.state
        parts = ["\x1b[H\x1b[2J", "cribpi sim\r\n\r\n"]
        if frame is not None:
            parts.append(frame_to_ansi(frame).replace("\n", "\r\n") + "\r\n\r\n")
        if image is not None:
            border = "+" + "-" * image.size[0] + "+"
            body = "\r\n".join(f"|{line}|" for line in image_to_text(image).splitlines())
            parts.append(f"{border}\r\n{body}\r\n{border}\r\n")
        scores = "  ".join(f"{state.team_name(t)} {s}" for t, s in enumerate(state.scores))
        dealer = f", {state.names[state.deal.dealer]} deals" if state.deal and state.names else ""
        parts.append(f"{scores}   [{state.mode.value}, {state.rules.name}, {state.phase.value}]{dealer}\r\n")
        parts.append((self.mapper.status or self.mapper.notice or _screen_text(self.app.ui.screen())) + "\r\n")
        parts.append("\r\n".join(LEGEND) + "\r\n")
        self.out.write("".join(parts))
        self.out.flush()

    def on_keys(self) -> None:
        data = os.read(self.keys_fd, 64)
        if not data:
            self.quit = True
            return
        for key in data.decode(errors="ignore"):
            if key in QUIT_KEYS:
                self.quit = True
                return
            actions = self.mapper.actions(key)
            for action in actions:
                self.app.handle(action)
                if action.kind.value == "peg" and self.app.ui.tally is not None:
                    self.app.handle(Action.parse("ok"))  # typed in one go: peg it at once
                    self.app.ui.tally = None  # refused: the next entry starts afresh, not on top
            if not actions:
                self.draw()

    def run(self, extra: Sequence[tuple[Any, Callable[[], object]]] = (),
            should_stop: Callable[[], bool] = lambda: False) -> None:
        """Draw and read keys until a quit key, or ``should_stop`` (``extra`` as for the app's loop)."""
        restore: Callable[[], None] = lambda: None
        if os.isatty(self.keys_fd):
            saved = termios.tcgetattr(self.keys_fd)
            tty.setraw(self.keys_fd)
            restore = lambda: termios.tcsetattr(self.keys_fd, termios.TCSADRAIN, saved)  # noqa: E731
        try:
            self.app.start()
            self.draw()
            self.app.run(extra=[(self.keys_fd, self.on_keys), *extra], should_stop=lambda: self.quit or should_stop())
        finally:
            restore()
            self.out.write("\r\ncribpi: the game is kept; start cribpi sim again to resume it.\n")
            self.out.flush()


def _screen_text(screen: object) -> str:
    """Alerts and messages in plain words too (for screen readers and for tests)."""
    if isinstance(screen, (AlertScreen, MessageScreen)):
        title = getattr(screen, "title", "")
        return f"{title}: {' '.join(screen.lines)}" if title else " ".join(screen.lines)
    return ""
