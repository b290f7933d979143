"""The daemon as systemd sees it: start to READY=1, resident memory, idle CPU.

Targets (issue 13): start -> READY at most 1 s here with the mock parts (on a Pi Zero 2 this
is what the players wait for at power-up), resident memory at most 40 MB, idle CPU under 1 %.
Each run starts the real ``cribpi run --backend mock`` with a fresh journal, a real notify
socket and the watchdog on (WatchdogSec=30, as the unit has it), times READY, reads VmRSS
from /proc once the table is up, then counts the CPU time it uses while nobody touches it.

    python benchmarks/bench_daemon.py [--runs N] [--idle SECONDS]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def one_run(folder: Path, idle: float) -> tuple[float, float, float]:
    sock_path = folder / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    (folder / "cribpi.toml").write_text("")
    env = {**os.environ, "NOTIFY_SOCKET": str(sock_path), "WATCHDOG_USEC": "30000000",
           "STATE_DIRECTORY": str(folder / "state")}
    env.pop("CRIBPI_DB", None)
    command = ["sh", "-c", 'WATCHDOG_PID=$$ exec "$@"', "sh", sys.executable, "-m", "cribpi", "run",
               "--backend", "mock", "--config", str(folder / "cribpi.toml")]
    start = time.perf_counter()
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        sock.settimeout(20)
        while b"READY=1" not in sock.recv(4096):
            pass
        ready = time.perf_counter() - start
        time.sleep(0.5)
        rss = rss_mb(proc.pid)
        before = cpu_seconds(proc.pid)
        time.sleep(idle)
        cpu = (cpu_seconds(proc.pid) - before) / idle * 100
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        sock.close()
    return ready, rss, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle CPU measured per run")
    args = parser.parse_args()
    results = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            results.append(one_run(Path(tmp), args.idle))
    ready, rss, cpu = zip(*results)
    print(f"start -> READY=1: median {statistics.median(ready) * 1000:.0f} ms, worst {max(ready) * 1000:.0f} ms"
          f" (target <= 1000 ms; {args.runs} runs, mock parts, fresh journal)")
    print(f"resident memory:  median {statistics.median(rss):.1f} MB, worst {max(rss):.1f} MB (target <= 40 MB)")
    print(f"idle CPU:         median {statistics.median(cpu):.2f} %, worst {max(cpu):.2f} % "
          f"over {args.idle:.0f} s (target < 1 %)")


if __name__ == "__main__":
    main()
