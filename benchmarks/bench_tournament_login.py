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
4. ``--stalled`` logins (issue 28), each from its own address, saying ``Content-Length: 1000``
   and sending only ``{``: how long the admin's right password takes to get 200 beside them
   (again after each 429, as its Retry-After says; target <= 5 s), and how long until every
   stalled one is answered (408) and closed.
5. ``--half-open`` connections held open, half sending nothing and half half a request head,
   against the director started with ``--open-files`` (1024, a Raspberry Pi's ``ulimit -n``):
   a new visitor's ``/leaderboard`` (median and max of 20; target <= 2 s), the director's open
   files at the end and its log's size (target < 1 MB). The connections are made 50 at a time,
   each 50 followed by a request answered, so the director has taken every one (the kernel's
   queue is 64 long).
"""

from __future__ import annotations

import argparse
import getpass
import http.client
import json
import multiprocessing
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.director.room import EVENT_DB, init_event

sys.path.insert(0, str(Path(__file__).parent))
from localhost import free_port, rss_mb, wait_port  # noqa: E402 - beside this script

EVENT = "bench"
BODY_MB = 300


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


def stalled_logins(port: int, count: int, password: str) -> None:
    stalled = []
    for n in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(f"127.0.1.{n + 2}", 0))
        s.sendall(b"POST /admin/login HTTP/1.1\r\nhost: bench\r\ncontent-type: application/json\r\n"
                  b"content-length: 1000\r\n\r\n{")
        stalled.append(s)
    t0 = time.perf_counter()
    tries, status = 0, 0
    while time.perf_counter() - t0 < 30:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("POST", "/admin/login", body=json.dumps({"password": password}).encode(),
                     headers={"content-type": "application/json"})
        response = conn.getresponse()
        response.read()
        conn.close()
        tries, status = tries + 1, response.status
        if status != 429:
            break
        time.sleep(float(response.getheader("retry-after", "1")))
    admin = time.perf_counter() - t0
    answers: Counter[str] = Counter()
    for s in stalled:
        try:
            answers[s.recv(64).split(b"\r\n")[0].decode(errors="replace") or "closed"] += 1
            while s.recv(4096):
                pass
        except OSError as exc:
            answers[type(exc).__name__] += 1
        s.close()
    freed = time.perf_counter() - t0
    print(f"  {count} stalled login bodies: the admin's login {status} after {admin * 1000:.0f} ms ({tries} tries;"
          f" target <= 5 s); every stalled one answered and closed after {freed:.1f} s: {dict(answers)}")


def half_open(port: int, pid: int, count: int, log: Path) -> None:
    held = []
    for n in range(count):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            if n % 2:
                s.sendall(b"GET / HTTP/1.1\r\nhost: bench\r\n")
        except OSError:
            continue
        held.append(s)
        if n % 50 == 49:  # one request answered: the director has taken every connection before it
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", "/api/health")
            conn.getresponse().read()
            conn.close()
    took = []
    for _ in range(20):
        t0 = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/leaderboard")
            response = conn.getresponse()
            response.read()
            conn.close()
            took.append(time.perf_counter() - t0 if response.status == 200 else float("inf"))
        except OSError:
            took.append(float("inf"))
        time.sleep(0.05)
    files = len(list(Path(f"/proc/{pid}/fd").iterdir()))
    for s in held:
        s.close()
    print(f"  {len(held)} half-open connections held (the director taking each): a new visitor's /leaderboard median"
          f" {statistics.median(took) * 1000:.1f} ms, max {max(took) * 1000:.1f} ms over {len(took)} (target <= 2 s);"
          f" the director's open files {files}, its log {log.stat().st_size / 1024:.1f} KiB (target < 1 MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--attackers", type=int, default=50)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--stalled", type=int, default=40)
    parser.add_argument("--half-open", type=int, default=1100)
    parser.add_argument("--open-files", type=int, default=1024, help="the director's open-files limit (soft and hard)")
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
        log = Path(tmp) / "director.log"
        files = args.open_files
        director = subprocess.Popen([sys.executable, "-m", "cribpi", "director", "serve", "--dir", str(folder),
                                     "--broker", f"mqtt://127.0.0.1:{port}", "--host", "127.0.0.1",
                                     "--http-port", str(web)], stdout=subprocess.DEVNULL, stderr=log.open("wb"),
                                    preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (files, files)))
        try:
            wait_port(web)
            quiet = standings_latency(web)
            print(f"director pages, {args.players} players, open files {args.open_files}:")
            print(f"  /api/standings alone: median {statistics.median(quiet) * 1000:.1f} ms,"
                  f" p99 {pct(quiet, 0.99):.1f} ms over {len(quiet)} requests")
            under_attack(web, args.attackers, args.seconds, spread=False)
            under_attack(web, args.attackers, args.seconds, spread=True)
            big_body(web, director.pid, chunked=False)
            big_body(web, director.pid, chunked=True)
            stalled_logins(web, args.stalled, "bench-admin-pw")
            half_open(web, director.pid, args.half_open, log)
        finally:
            director.terminate()
            director.wait(10)
            broker.terminate()
            broker.wait(10)


if __name__ == "__main__":
    main()
