"""``cribpi run`` with a ``[tournament]`` section: the table says online, publishes its board
(retained) to the room's broker, and says offline when it stops; its outbox sits beside the
journal."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.conftest import EVENT, Mosquitto
from tests.tournament.test_publisher import Listener, wait_for

pytestmark = pytest.mark.mqtt


def test_cribpi_run_publishes_the_table(broker: Mosquitto, tmp_path: Path) -> None:
    (tmp_path / "t3.pw").write_text(broker.room.credentials["t3"] + "\n")
    config = tmp_path / "cribpi.toml"
    config.write_text(f'db = "table.db"\n[tournament]\nbroker = "{broker.url}"\nevent = "{EVENT}"\ntable = "t3"\n'
                      'password_file = "t3.pw"\n')
    seen = Listener(broker)
    proc = subprocess.Popen([sys.executable, "-m", "cribpi", "run", "--config", str(config), "--backend", "mock"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: any(t.endswith("/t3/state") for t, _, _ in seen.messages), timeout=60)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    wait_for(lambda: seen.messages[-1][:2] == (f"cribpi/{EVENT}/tables/t3/status", b"offline"))  # its goodbye, last
    state = json.loads(next(p for t, p, _ in seen.messages if t.endswith("/t3/state")))
    assert state["status"] == "playing" and len(state["players"]) == 2
    statuses = [p for t, p, _ in seen.messages if t.endswith("/t3/status")]
    assert statuses[0] == b"online" and statuses[-1] == b"offline"
    assert (tmp_path / "table-outbox.db").is_file()
    seen.close()
