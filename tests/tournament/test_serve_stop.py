"""``cribpi director serve`` stopped (Ctrl-C, or a service manager's SIGTERM) while the wall is
open: the live stream ends as a stream ends, so the page reconnects to the next serve, and the
director says nothing alarming (uvicorn logged "ERROR: ASGI callable returned without
completing response" for every page open at each stop)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import httpx2
import pytest

from tests.tournament.conftest import Mosquitto, free_port, wait_port


@pytest.mark.mqtt
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_serve_stops_cleanly_with_the_wall_open(broker: Mosquitto, tmp_path: Path, stop: signal.Signals) -> None:
    (broker.room.folder / "credentials.json").write_text(json.dumps(broker.room.credentials))
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cribpi", "director", "serve", "--dir", str(broker.room.folder),
                             "--broker", broker.url, "--host", "127.0.0.1", "--http-port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said: list[str] = []
    ended = threading.Event()
    hello = threading.Event()

    def follow() -> None:  # the wall's EventSource, one stream
        try:
            with httpx2.stream("GET", f"http://127.0.0.1:{port}/events", timeout=60) as response:
                for line in response.iter_lines():
                    said.append(line)
                    if line == "event: hello":
                        hello.set()
            ended.set()  # the server ended the stream (a cut-off one raises instead)
        except httpx2.HTTPError as exc:
            said.append(f"cut off: {exc!r}")

    try:
        wait_port(port, timeout=60)
        reader = threading.Thread(target=follow, daemon=True)
        reader.start()
        assert hello.wait(30), said
        proc.send_signal(stop)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    reader.join(10)
    assert proc.returncode in (0, 130, -stop), err  # uvicorn, done, raises the signal it caught again
    assert "ERROR" not in err and "Traceback" not in err, err
    assert ended.is_set(), said
