"""The director's pages under a login attack (issue 21, item 6).

    python benchmarks/bench_tournament_login.py [--seconds 8] [--attackers 50] [--players 64]

A real mosquitto (the room ``cribpi director init`` writes) and ``cribpi director serve`` in its
own process, ``--players`` registered. All traffic is on loopback.

1. ``/api/standings`` alone: median and p99 of one request at a time.
2. The same while ``--attackers`` clients (threads in another process) post wrong passwords to
   ``/admin/login`` as fast as they are answered, for ``--seconds``: once all from one address,
   once each from its own (127.0.0.2, 127.0.0.3, ...). Target: p99 <= 50 ms. Prints the login
   answers by status and how many passwords were really hashed (the others were turned away
   at once).
3. One unauthenticated POST to ``/admin/login`` saying and sending a 300 MB body, then one
   sending 300 MB chunked: the status, and the director's resident memory before and after and
   its peak. Target: 413, and the director grows by less than 10 MB.
"""

from __future__ import annotations

import argparse
import getpass
import http.client
import json
import multiprocessing
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from cribpi.tournament.eventdb import EventDB
from cribpi.tournament.room import EVENT_DB, init_event

EVENT = "bench"
BODY_MB = 300


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int) -> None:
    for _ in range(400):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on {port}")


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def standings_latency(port: int, seconds: float | None = None, count: int = 300) -> list[float]:
    """One ``/api/standings`` at a time, every 10 ms, for ``seconds`` (or ``count`` requests)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    out: list[float] = []
    end = time.monotonic() + seconds if seconds else None
    while (end is None and len(out) < count) or (end is not None and time.monotonic() < end):
        t0 = time.perf_counter()
        conn.request("GET", "/api/standings")
        response = conn.getresponse()
        response.read()
        out.append(time.perf_counter() - t0)
        assert response.status == 200
        time.sleep(0.01)
    conn.close()
    return out


def attack(port: int, attackers: int, seconds: float, spread: bool, answers: "multiprocessing.Queue[dict[int, int]]",
           start: float) -> None:
    """``attackers`` threads posting wrong passwords until ``seconds`` after ``start``."""
    counts: Counter[int] = Counter()
    lock = threading.Lock()

    def one(n: int) -> None:
        source = f"127.0.0.{n + 2}" if spread else "127.0.0.1"
        body = json.dumps({"password": f"wrong guess {n}"}).encode()
        while time.time() < start + seconds:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
            try:
                conn.request("POST", "/admin/login", body=body, headers={"content-type": "application/json"})
                response = conn.getresponse()
                response.read()
                status = response.status
            except OSError:
                status = 0
            finally:
                conn.close()
            with lock:
                counts[status] += 1

    time.sleep(max(0.0, start - time.time()))
    threads = [threading.Thread(target=one, args=(n,)) for n in range(attackers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    answers.put(dict(counts))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def under_attack(port: int, attackers: int, seconds: float, spread: bool) -> None:
    answers: multiprocessing.Queue[dict[int, int]] = multiprocessing.Queue()
    start = time.time() + 1
    proc = multiprocessing.Process(target=attack, args=(port, attackers, seconds, spread, answers, start))
    proc.start()
    time.sleep(max(0.0, start - time.time()) + 0.2)  # the attack is under way
    got = standings_latency(port, seconds=seconds - 0.4)
    counts = answers.get(timeout=seconds + 120)
    proc.join()
    where = "each from its own address" if spread else "all from one address"
    print(f"  during {attackers} concurrent wrong logins ({where}, {seconds:.0f} s): /api/standings median"
          f" {statistics.median(got) * 1000:.1f} ms, p99 {pct(got, 0.99):.1f} ms, max {max(got) * 1000:.1f} ms"
          f" over {len(got)} requests (target p99 <= 50 ms); logins answered {dict(sorted(counts.items()))}")


def big_body(port: int, pid: int, chunked: bool) -> None:
    before = rss_mb(pid)
    chunk = b"x" * (1 << 20)
    sent, status = 0, b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        head = b"POST /admin/login HTTP/1.1\r\nhost: bench\r\ncontent-type: application/json\r\n"
        head += b"transfer-encoding: chunked\r\n\r\n" if chunked else b"content-length: %d\r\n\r\n" % (BODY_MB << 20)
        s.sendall(head)
        try:
            for _ in range(BODY_MB):
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk)
                sent += len(chunk)
        except OSError:
            pass  # answered and closed: the rest is never read
        try:
            status = s.recv(64).split(b"\r\n")[0]
        except OSError as exc:
            status = str(exc).encode()
    time.sleep(0.5)
    after = rss_mb(pid)
    how = "chunked" if chunked else "with its content-length"
    print(f"  a {BODY_MB} MB body {how}: {status.decode(errors='replace')} after {sent >> 20} MB sent;"
          f" director RSS {before:.1f} -> {after:.1f} MB (grew {after - before:+.1f} MB, target < 10 MB),"
          f" peak {rss_mb(pid, 'VmHWM'):.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--attackers", type=int, default=50)
    parser.add_argument("--players", type=int, default=64)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "room"
        port, web = free_port(), free_port()
        room = init_event(folder, EVENT, 8, "bench-admin-pw", port=port, bind="127.0.0.1", run_as=getpass.getuser())
        db = EventDB(folder / EVENT_DB)
        for n in range(1, args.players + 1):
            db.add_player(f"P{n:03}")
        db.close()
        (folder / "credentials.json").write_text(json.dumps(room.credentials))
        broker = subprocess.Popen(["mosquitto", "-c", str(room.conf)], stderr=subprocess.DEVNULL)
        wait_port(port)
        director = subprocess.Popen([sys.executable, "-m", "cribpi", "director", "serve", "--dir", str(folder),
                                     "--broker", f"mqtt://127.0.0.1:{port}", "--host", "127.0.0.1",
                                     "--http-port", str(web)], stdout=subprocess.DEVNULL)
        try:
            wait_port(web)
            quiet = standings_latency(web)
            print(f"director pages, {args.players} players:")
            print(f"  /api/standings alone: median {statistics.median(quiet) * 1000:.1f} ms,"
                  f" p99 {pct(quiet, 0.99):.1f} ms over {len(quiet)} requests")
            under_attack(web, args.attackers, args.seconds, spread=False)
            under_attack(web, args.attackers, args.seconds, spread=True)
            big_body(web, director.pid, chunked=False)
            big_body(web, director.pid, chunked=True)
        finally:
            director.terminate()
            director.wait(10)
            broker.terminate()
            broker.wait(10)


if __name__ == "__main__":
    main()
