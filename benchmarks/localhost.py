"""What the tournament benchmarks share: a free loopback port, waiting for a server to listen
on one, a process's memory as /proc says it, and the director's live stream read as a page reads it."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, seconds: float = 20.0) -> None:
    """Until something accepts on ``port`` (at most ``seconds``; then the benchmark stops)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on {port}")


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """The process's resident memory in MB (``VmHWM``: its peak)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def stream_events(url: str, stop: threading.Event) -> Iterator[tuple[str, Any]]:
    """Each (event, data) the server-sent stream at ``url`` sends, its data as JSON, until ``stop``."""
    with httpx2.Client(timeout=None) as client, client.stream("GET", url) as stream:
        kind = ""
        for line in stream.iter_lines():
            if stop.is_set():
                return
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                yield kind, json.loads(line[5:])
