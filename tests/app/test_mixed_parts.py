"""`cribpi run` with a configuration that mixes backends: the Pi's buttons (on gpiozero's
MockFactory) driving a table whose LEDs and screen are simulated."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

from gpiozero.pins.mock import MockFactory

from cribpi.app import TableSettings
from cribpi.config import load_config
from cribpi.daemon import play
from cribpi.hal.buttons import ManualClock
from cribpi.hal.mock import PinDriver
from cribpi.hal.sim import SimDisplay, SimPegboard, action_from_words
from cribpi.store import Store
from cribpi.wiring import Inject, open_parts

MIXED = """
db = "table.db"
[pins]
17 = "ok"
27 = "undo"
22 = "go"
23 = "menu"
[parts]
inputs = ["pi"]
pegboard = "sim"
displays = ["sim", { backend = "sim", page = "scores", size = "128x32" }]
"""


def journalled(db, kind: str, timeout: float = 60.0) -> bool:
    """Whether an event of ``kind`` reached the journal within ``timeout`` s (read as another
    process would, while the table writes it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if db.exists():
            with contextlib.closing(sqlite3.connect(db)) as conn:
                try:
                    if conn.execute("SELECT 1 FROM events WHERE type = ?", (kind,)).fetchone():
                        return True
                except sqlite3.OperationalError:
                    pass  # not made yet
        time.sleep(0.05)
    return False


def test_pi_buttons_play_a_table_with_simulated_leds_and_screens(tmp_path, monkeypatch):
    monkeypatch.delenv("CRIBPI_BACKEND", raising=False)
    path = tmp_path / "cribpi.toml"
    path.write_text(MIXED)
    config = load_config(path)
    factory, clock = MockFactory(), ManualClock()
    parts = open_parts(config, inject=Inject(pin_factory=factory, clock=clock))
    driver = PinDriver(factory, config.pins, clock, config.timing)

    waited: list[str] = []

    def finger():
        try:
            if journalled(config.db, "new_game"):  # the table is up: a press now reaches the game
                driver.press(action_from_words("ok"))  # cut for deal: OK cuts at random
                if not journalled(config.db, "cut"):
                    waited.append("the cut in the journal")
            else:
                waited.append("the new game in the journal")
        finally:
            os.kill(os.getpid(), signal.SIGTERM)  # the clean stop, as systemd asks for it

    presser = threading.Thread(target=finger)
    presser.start()
    assert play(config, parts, TableSettings(table="main")) == 0
    presser.join()
    assert not waited, f"timed out waiting for {waited[0]}"

    pegboard, (table, scores) = parts.pegboard, parts.displays
    assert isinstance(pegboard, SimPegboard) and pegboard.board is not None and pegboard.frame is not None
    assert isinstance(table, SimDisplay) and table.image.size == (128, 64)
    assert isinstance(scores, SimDisplay) and scores.image.size == (128, 32)
    with Store(config.db) as store:
        restored = store.current(table="main")
        kinds = [event.kind for event in restored.game.events]
    assert kinds[:2] == ["new_game", "cut"]  # the press on GPIO17 reached the game


def test_cribpi_run_with_a_mixed_config_starts_and_stops(tmp_path):
    path = tmp_path / "cribpi.toml"
    path.write_text(MIXED)
    env = {k: v for k, v in os.environ.items() if k != "CRIBPI_BACKEND"}
    env["GPIOZERO_PIN_FACTORY"] = "mock"
    proc = subprocess.Popen([sys.executable, "-m", "cribpi", "run", "--config", str(path)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    deadline = time.monotonic() + 60
    while not journalled(tmp_path / "table.db", "new_game", timeout=0.1):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "timed out waiting for cribpi run's new game in the journal"
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    with Store(tmp_path / "table.db") as store:
        assert store.current(table="main") is not None
