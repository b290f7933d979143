"""The real parts of a tournament room: Debian's mosquitto, started on a free loopback port
with the configuration ``cribpi director init`` writes. Without it a test skips on a developer
machine and fails under ``CI=true``."""

from __future__ import annotations

import getpass
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribpi.tournament.director.room import Room, init_event
from tests.browser import CHROMIUM_ARGS, chromium_once  # noqa: F401 - the fixture, for this folder
from tests.sim.conftest import require

EVENT = "open"
ADMIN_PASSWORD = "correct horse"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, up: bool = True, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            if up:
                return
        except OSError:
            if not up:
                return
        time.sleep(0.02)
    raise TimeoutError(f"port {port} never went {'up' if up else 'down'}")


class Mosquitto:
    """A running broker for one room; ``stop``/``start`` restart it on the same port."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.room.port}"

    def table_config(self, folder: Path, table: str = "t1") -> Path:
        """A table's ``cribpi.toml`` in ``folder`` for this room: its journal and its
        ``[tournament]`` section with the table's own password."""
        config = folder / "cribpi.toml"
        config.write_text(f'db = "table.db"\n[tournament]\nbroker = "{self.url}"\nevent = "{EVENT}"\n'
                          f'table = "{table}"\npassword = "{self.room.credentials[table]}"\n')
        return config

    def start(self) -> None:
        self.proc = subprocess.Popen([require("mosquitto"), "-c", str(self.room.conf)],
                                     stdout=subprocess.DEVNULL, stderr=(self.room.folder / "mosquitto.log").open("ab"))
        wait_port(self.room.port)

    def freeze(self) -> None:
        """Suspend the broker (SIGSTOP): what is sent to it meanwhile waits unacknowledged."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def kill(self) -> None:
        """SIGKILL: the broker dies at once, losing whatever it had not saved to its store yet."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(30)
            self.proc = None
            wait_port(self.room.port, up=False)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()  # SIGTERM: mosquitto saves its persistence file
            self.proc.send_signal(signal.SIGCONT)  # a frozen broker takes it once resumed
            self.proc.wait(30)
            self.proc = None
            wait_port(self.room.port, up=False)


def running_room(tmp_path: Path, tables: int = 4, *, open_play: bool = False) -> Iterator[Mosquitto]:
    """A room of ``tables`` tables made by ``director init`` (``--open`` with ``open_play``), its
    mosquitto running till the end."""
    require("mosquitto")
    require("mosquitto_passwd")
    room = init_event(tmp_path / "room", EVENT, tables, ADMIN_PASSWORD, port=free_port(), bind="127.0.0.1",
                      run_as=getpass.getuser(), open_play=open_play)
    server = Mosquitto(room)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """An open-play room (``init --open``: the tables seat themselves), so a test of delivery, a
    replay or a page counts a table's game with no round seated; a test of seating seats its
    rounds, which hold in open play too. tests/tournament/test_kept.py makes seated-play events."""
    yield from running_room(tmp_path, open_play=True)


