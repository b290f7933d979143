"""`cribpi sim` driven in a real terminal: tmux send-keys in, capture-pane out."""

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

CRIBPI = Path(sys.executable).with_name("cribpi")


class Tmux:
    def __init__(self, command: str) -> None:
        self.name = f"cribpi-test-{uuid.uuid4().hex[:8]}"
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", "140", "-y", "72", command],
                       check=True)

    def send(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def screen(self) -> str:
        out = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return out.stdout

    def wait_for(self, text: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")

    def alive(self) -> bool:
        return subprocess.run(["tmux", "has-session", "-t", self.name], capture_output=True).returncode == 0

    def kill(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def sim(tmp_path):
    db = tmp_path / "sim.db"
    session = Tmux(f"{CRIBPI} sim --db {db} --seed 7 --names Ann,Bob; sleep 30")
    yield session, db
    session.kill()


def lay(tmux: Tmux, card: str) -> None:
    tmux.send(card[0].lower(), card[1].lower())


def test_a_whole_deal_in_the_terminal_then_resume(sim, tmp_path):
    tmux, db = sim
    tmux.wait_for("[count, acc, cut]")
    tmux.send("Enter")
    screen = tmux.wait_for("[count, acc, starter]")
    assert "Ann 0  Bob 0" in screen
    lay(tmux, "6S")
    tmux.wait_for("[count, acc, play]")
    for card in ("QH", "5C", "TD", "6D", "2C", "4H", "4S", "4D"):
        lay(tmux, card)
    tmux.wait_for("[count, acc, show]")
    for card in ("7C", "8H", "7D", "8S"):
        lay(tmux, card)
    screen = tmux.wait_for("[count, acc, done]")
    assert ("Ann 59  Bob 2" in screen) or ("Ann 2  Bob 59" in screen)
    assert "●" in screen and "▀" in screen or "▄" in screen  # LEDs and the OLED are drawn
    tmux.send("C-c")
    deadline = time.monotonic() + 5
    while "resumes" in tmux.screen() and "sim" in tmux.screen() and time.monotonic() < deadline:
        if "[count" not in tmux.screen():
            break
        time.sleep(0.05)
    again = Tmux(f"{CRIBPI} sim --db {db}; sleep 30")
    try:
        screen = again.wait_for("[count, acc, done]")
        assert ("Ann 59  Bob 2" in screen) or ("Ann 2  Bob 59" in screen)
    finally:
        again.kill()


def test_undo_and_a_refused_card_in_the_terminal(sim):
    tmux, _ = sim
    tmux.wait_for("[count, acc, cut]")
    tmux.send("Enter")
    tmux.wait_for("[count, acc, starter]")
    lay(tmux, "JS")  # his heels
    screen = tmux.wait_for("[count, acc, play]")
    assert "2" in screen.split("[count")[0].splitlines()[-1]
    tmux.send("u")
    tmux.wait_for("[count, acc, starter]")
    lay(tmux, "6S")
    tmux.wait_for("[count, acc, play]")
    lay(tmux, "6S")  # the starter again: refused with a reason
    tmux.wait_for("Not allowed")
