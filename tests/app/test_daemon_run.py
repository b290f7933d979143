"""`cribpi run`: start on a backend, stop cleanly on SIGTERM, resume the same game."""

import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest


def _start(config):
    return subprocess.Popen([sys.executable, "-m", "cribpi", "run", "--config", str(config), "--backend", "mock"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _open_games(db):
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        try:
            return conn.execute("SELECT id FROM games WHERE status='open'").fetchall()
        except sqlite3.OperationalError:
            return []


def _wait_for_game(db, proc, timeout=60.0):  # only bounds a failure: both cores may be busy
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        games = _open_games(db)
        if games:
            return games
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError("cribpi run never opened a game")


def _wait_for_start(proc, timeout=60.0):
    """Its stderr up to the line saying which game it has open (a signal before that, while
    Python still starts, would stop it as an error, not as a clean stop)."""
    lines = []

    def read():
        for line in proc.stderr:
            lines.append(line)
            if "cribpi.daemon: journal " in line:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    assert not reader.is_alive(), f"cribpi run never said which game it has open; it said: {''.join(lines)}"
    assert lines and "cribpi.daemon: journal " in lines[-1], f"cribpi run exited: {''.join(lines)}"
    return lines


def test_run_stops_on_sigterm_and_resumes_the_same_game(tmp_path):
    db = tmp_path / "table.db"
    config = tmp_path / "cribpi.toml"
    config.write_text(f'db = "{db.name}"\n')
    proc = _start(config)
    first = _wait_for_game(db, proc)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    proc = _start(config)
    said = _wait_for_start(proc)
    assert "game 1 at event" in said[-1], said
    assert _wait_for_game(db, proc) == first  # the open game was resumed, not replaced
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode == 0


@pytest.mark.parametrize("text, named", [
    ("[oled]\ndriver = 'ssd9999'\n", "driver"),
    ("backend = 'toaster'\n", "toaster"),
    ("[leds\n", "cribpi.toml"),
])
def test_a_broken_config_stops_with_one_clear_line(tmp_path, text, named):
    config = tmp_path / "cribpi.toml"
    config.write_text(text)
    done = subprocess.run([sys.executable, "-m", "cribpi", "run", "--config", str(config)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0]
    assert not (tmp_path / "cribpi.db").exists()
