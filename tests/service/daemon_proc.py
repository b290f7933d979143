"""The real ``cribpi run --backend mock`` as a child process, driven through a key FIFO."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).parents[2]
#: Every daemon started, so that one a failed test left running is stopped (see reap()).
STARTED: list[Daemon] = []


def reap() -> None:
    """Kill any daemon still running (a test that failed before stopping it) and forget them all."""
    while STARTED:
        proc = STARTED.pop().proc
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)


class Daemon:
    """``cribpi run --backend mock --keys FIFO`` with its journal in ``folder``."""

    def __init__(self, folder: Path, env: dict[str, str] | None = None, watchdog_pid: bool = False) -> None:
        self.folder = folder
        self.db = folder / "state" / "cribpi.db"
        self.config = folder / "cribpi.toml"
        self.config.write_text("")  # every default: the journal goes to $STATE_DIRECTORY
        self.keys = folder / "keys"
        if not self.keys.exists():
            os.mkfifo(self.keys)
        command = [sys.executable, "-m", "cribpi", "run", "--backend", "mock", "--config", str(self.config),
                   "--keys", str(self.keys)]
        if watchdog_pid:  # what systemd does: WATCHDOG_PID names the service's own process
            command = ["sh", "-c", 'WATCHDOG_PID=$$ exec "$@"', "sh", *command]
        full_env = {k: v for k, v in os.environ.items() if k not in ("CRIBPI_DB", "NOTIFY_SOCKET", "CRIBPI_CONFIG")}
        full_env.update(STATE_DIRECTORY=str(self.db.parent), PYTHONPATH=str(ROOT), **(env or {}))
        self.proc = subprocess.Popen(command, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        STARTED.append(self)

    def send(self, *lines: str) -> None:
        """Write actions to the key FIFO (blocks until the daemon has opened it)."""
        with self.keys.open("w") as fifo:
            fifo.write("".join(f"{line}\n" for line in lines))

    def events(self) -> int:
        """Events journalled in the open game at table 'main' (0 before there is one)."""
        if not self.db.exists():
            return 0
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as conn:
            try:
                row = conn.execute("SELECT count(*) FROM events JOIN games ON games.id = events.game_id "
                                   "WHERE games.status = 'open' AND games.table_name = 'main'").fetchone()
            except sqlite3.DatabaseError:  # not created yet, or the damaged one not moved aside yet
                return 0
        return int(row[0])

    def wait_events(self, count: int, timeout: float = 20.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (now := self.events()) >= count:
                return now
            assert self.proc.poll() is None, self.proc.communicate()
            time.sleep(0.05)
        raise AssertionError(f"the journal never reached {count} events (has {self.events()})")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> tuple[int, str]:
        self.proc.send_signal(sig)
        _, err = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, err


def run_until_up(command: list[str], env: dict[str, str], log: Path, seconds: float = 60.0) -> str:
    """Run ``command`` (a table on the mock parts) until its log names its journal, then stop
    it with SIGTERM, as systemd does; it must exit 0. Its log."""
    with log.open("w") as err:
        proc = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        try:
            deadline = time.monotonic() + seconds
            while "journal " not in log.read_text() and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(30) == 0, log.read_text()
        finally:
            if proc.poll() is None:
                proc.kill()
    return log.read_text()
