"""The curses simulator through a real pty, read back by a terminal emulator (pyte): it draws
in place, fits each size it is resized to, says the size it needs, and Esc closes a menu."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from cribpi.sim.terminal import ESCAPE_DELAY_MS
from tests.sim.conftest import require_module

CRIBPI = Path(sys.executable).with_name("cribpi")


class PtyTerminal:
    """A program on a pty of a given size; its output fed to an emulated screen."""

    def __init__(self, argv: list[str], columns: int, rows: int, env: dict[str, str] | None = None) -> None:
        pyte = require_module("pyte")
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.master, slave = pty.openpty()
        self._size(columns, rows)
        env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", **(env or {})}
        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                        start_new_session=True, preexec_fn=self._controlling(slave))
        os.close(slave)
        self.written = 0

    @staticmethod
    def _controlling(slave: int):
        def make() -> None:
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        return make

    def _size(self, columns: int, rows: int) -> None:
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    def resize(self, columns: int, rows: int) -> None:
        self.screen.resize(rows, columns)
        self._size(columns, rows)  # the kernel sends SIGWINCH to the program

    def pump(self, seconds: float = 0.05) -> None:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                break
            try:
                data = os.read(self.master, 65536)
            except OSError:
                break
            self.written += len(data)
            self.stream.feed(data)

    def settle(self, quiet: float = 0.1) -> None:
        """Read until the program has written nothing for ``quiet`` seconds."""
        while True:
            before = self.written
            self.pump(quiet)
            if self.written == before:
                return

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, text: str, timeout: float = 30.0) -> str:  # only bounds a failure: both cores may be busy
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump()
            if text in self.text():
                self.settle()  # the rest of the frame, if it came in pieces
                return self.text()
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.text()}")

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(5)
        os.close(self.master)


@pytest.fixture
def run_sim(tmp_path):
    started: list[PtyTerminal] = []

    def start(columns: int, rows: int, *extra: str, env: dict[str, str] | None = None) -> PtyTerminal:
        players = extra[extra.index("--players") + 1] if "--players" in extra else "2"
        names = ",".join(("Ann", "Bob", "Cat", "Dan")[:int(players[0])])  # one name a player
        term = PtyTerminal([str(CRIBPI), "sim", "--db", str(tmp_path / "sim.db"), "--seed", "7",
                            "--names", names, *extra], columns, rows, env)
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


def lines_fit(term: PtyTerminal) -> None:
    display = term.screen.display
    assert len(display) == term.screen.lines
    assert all(len(line.rstrip()) <= term.screen.columns for line in display)


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_80x24_in_place(run_sim, players):
    term = run_sim(80, 24, "--players", players)
    screen = term.wait_for(" · count mode · ACC rules · cut for deal")
    assert "Ctrl-C: quit" in screen and "x seat: muggins" in screen
    term.send("\r")
    screen = term.wait_for(" · count mode · ACC rules · starter card")
    tracks = [line for line in screen.splitlines() if line.rstrip().endswith(" ·····")]
    assert len(tracks) == int(players)
    lines_fit(term)


def test_resize_redraws_for_the_new_size(run_sim):
    term = run_sim(140, 60)
    screen = term.wait_for(" · count mode · ACC rules · cut for deal")
    assert "+----" in screen and "Ann 0   1 " in screen  # the full board and the OLED's image
    term.resize(80, 24)
    term.pump(0.5)
    screen = term.wait_for(" · count mode · ACC rules · cut for deal")
    assert "+----" not in screen and "Ann 0   1 " not in screen
    lines_fit(term)
    term.resize(50, 8)
    screen = term.wait_for("or more (this is")
    assert "(this is 50x8)" in screen and len([x for x in screen.splitlines() if x.strip()]) == 1
    term.resize(100, 30)
    term.wait_for(" · count mode · ACC rules · cut for deal")
    lines_fit(term)


def test_esc_closes_the_menu_at_once(run_sim):
    """curses holds a lone Esc for its escape delay, in case an arrow key's sequence follows.
    The sim sets its own, short delay: curses' (1 s by default, or $ESCDELAY) is never waited
    for. With ESCDELAY=30000 a sim that left the delay to curses would close the menu after
    30 s, and this waits 10 s; that the sim's own delay is short is read off curses below."""
    term = run_sim(80, 24, env={"ESCDELAY": "30000"})
    term.wait_for(" · count mode · ACC rules · cut for deal")
    term.send("m")
    term.wait_for("> Resume")
    term.send("\x1bOB")  # the down arrow (keypad mode, as curses asks of xterm) moves down, as g does
    term.wait_for("> New game...")
    term.send("\x1b")
    term.wait_for("waiting for the cut", timeout=10)
    assert "> Resume" not in term.text()


_ESCDELAY_PROBE = """
import curses
from cribpi.sim.terminal import _curses
with _curses():
    delay = curses.get_escdelay()
print(f"escape delay: {delay} ms")
"""


def test_the_sims_curses_waits_briefly_after_esc():
    """The escape delay curses has once the sim has set it up, whatever $ESCDELAY says."""
    term = PtyTerminal([sys.executable, "-c", _ESCDELAY_PROBE], 80, 24, env={"ESCDELAY": "30000"})
    try:
        term.wait_for(f"escape delay: {ESCAPE_DELAY_MS} ms")
    finally:
        term.close()
    assert ESCAPE_DELAY_MS <= 100  # Esc closes a menu at once; curses' own is 1000 ms


def test_board_mode_peg_entry_prompts_and_pegs(run_sim):
    term = run_sim(80, 24, "--mode", "board")
    term.wait_for(" · board mode · ACC rules · cut for deal")
    term.send("\r")  # random cut
    term.wait_for(" · board mode · ACC rules · pegging")
    term.send("p")
    term.wait_for("peg: type the seat (1 Ann, 2 Bob), then the points")  # the seats asked for, with names
    term.send("1")
    term.wait_for("peg: seat 1 (Ann), type the points (1-29), then Enter")
    term.send("2p")
    term.wait_for("'p' does nothing now: peg: seat 1 (Ann), 2 points: Enter pegs them")
    term.send("12")
    term.wait_for("212 points cannot be pegged at once (1-29); peg: seat 1 (Ann), 21 points")
    term.send("\r")
    screen = term.wait_for("Ann 21  Bob 0")
    board = [line for line in screen.split(" · board mode")[0].splitlines() if "journal:" not in line]
    assert not any("212" in line for line in board)  # the header's journal path may hold any digits
    term.send("z")
    term.wait_for("'z' is not a key here")


def test_a_key_draws_in_place(run_sim):
    """A key changes a few characters; the screen is not written out again."""
    term = run_sim(80, 24)
    term.wait_for(" · count mode · ACC rules · cut for deal")
    term.pump(0.3)
    before = term.written
    term.send("z")
    term.wait_for("'z' is not a key here")
    term.pump(0.2)
    assert term.written - before < 300  # a whole 80x24 screen is about 2,000 bytes


def test_quit_names_the_journal_and_frames_are_drawn_once(tmp_path):
    """Started as the daemon starts it (journal and resume command given): the journal is on
    the first screen and in the quit message; each change is one frame, the first one too."""
    db = tmp_path / "j.db"
    script = (
        "import sys; from pathlib import Path; from cribpi.app import TableApp, TableUI;"
        "from cribpi.config import Config; from cribpi.sim import Terminal; from cribpi.wiring import open_parts;"
        f"app = TableApp(open_parts(Config(), 'sim'), TableUI()); t = Terminal(app, app.parts, journal=Path({str(db)!r}),"
        " resume='bash .ci/play'); t.run(); print('frames', t.frames)"
    )
    term = PtyTerminal([sys.executable, "-c", script], 80, 24)
    try:
        first = term.wait_for("journal: ").splitlines()[0]
        assert first.startswith("cribpi sim   journal: ") and first.rstrip().endswith(f"{db.parent.name}/j.db")
        term.send("z")
        term.wait_for("'z' is not a key")
        term.send("\x03")
        term.process.wait(30)
        term.pump(0.3)
        screen = term.text()
        rows = [row.rstrip() for row in screen.splitlines()]
        at = rows.index("To go on with it, run:")
        assert rows[at + 1] == "bash .ci/play"  # the command on its own line
        assert "".join(rows[:at]).endswith(f"cribpi: the game is kept in {db}")  # the terminal wraps the path
        assert "frames 2" in screen  # the first screen, then the hint: once each
    finally:
        term.close()


def test_an_unknown_terminal_is_one_line_and_exit_2(tmp_path):
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "no-such-terminal"}
    done = subprocess.run([str(CRIBPI), "sim", "--db", str(tmp_path / "x.db")], stdin=slave, stdout=slave,
                          stderr=subprocess.PIPE, env=env, text=True, timeout=30)
    os.close(slave)
    os.close(master)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "TERM='no-such-terminal'" in done.stderr and "cannot draw on this terminal" in done.stderr


def test_sigterm_stops_cleanly_and_says_where_the_game_is(run_sim, tmp_path):
    term = run_sim(80, 24)
    term.wait_for(" · count mode · ACC rules · cut for deal")
    term.process.terminate()
    assert term.process.wait(30) == 0
    term.pump(0.3)
    assert "the game is kept in" in "".join(term.screen.display)
