"""systemd's notify protocol: the module alone, then the real daemon on a real socket."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from cribpi.service.notify import Notifier
from daemon_proc import Daemon

WATCHDOG_S = 0.4  # WatchdogSec in the test: the daemon must ping every 0.2 s


@pytest.fixture
def listener(tmp_path):
    """systemd's end: a datagram socket in a temporary folder."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    yield sock, str(path)
    sock.close()


def received(sock: socket.socket, seconds: float) -> list[str]:
    """Every message that arrives within ``seconds``, split into its lines."""
    messages, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            messages += sock.recv(4096).decode().splitlines()
        except TimeoutError:
            break
    return messages


def pings(sock: socket.socket, count: int, seconds: float = 20.0) -> float:
    """Waits for ``count`` WATCHDOG=1 pings (a busy machine may make them late); the seconds
    from the first to the last."""
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while len(times) < count and time.monotonic() < deadline:
        times += [time.monotonic()] * received(sock, 0.05).count("WATCHDOG=1")
    assert len(times) >= count, f"{len(times)} of {count} pings within {seconds} s"
    return times[count - 1] - times[0]


def wait_for(sock: socket.socket, wanted: str, seconds: float = 20.0) -> list[str]:
    got: list[str] = []
    deadline = time.monotonic() + seconds
    while wanted not in got and time.monotonic() < deadline:
        got += received(sock, 0.2)
    assert wanted in got, got
    return got


def test_the_socket_is_read_once_and_removed_from_the_environment(listener):
    sock, path = listener
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000", "WATCHDOG_PID": str(os.getpid())}
    notifier = Notifier(env)
    assert env == {}  # a process started from here does not talk to systemd in our name
    assert notifier.watchdog == pytest.approx(0.4)
    assert notifier.send("READY=1", "STATUS=up")
    assert sock.recv(100) == b"READY=1\nSTATUS=up"
    notifier.close()
    assert not notifier.send("WATCHDOG=1")


def test_an_abstract_socket_name_starts_with_a_nul(tmp_path):
    name = f"cribpi-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    try:
        Notifier({"NOTIFY_SOCKET": "@" + name}).send("READY=1")
        assert sock.recv(100) == b"READY=1"
    finally:
        sock.close()


@pytest.mark.parametrize("env", [
    {"WATCHDOG_USEC": "400000", "WATCHDOG_PID": "1"},  # another process's watchdog (inherited)
    {"WATCHDOG_USEC": "400000"},  # no WATCHDOG_PID: not ours for sure
    {"WATCHDOG_USEC": "0", "WATCHDOG_PID": str(os.getpid())},
    {"WATCHDOG_USEC": "soon", "WATCHDOG_PID": str(os.getpid())},
])
def test_the_watchdog_is_only_ours_when_its_pid_is_this_process(env):
    assert Notifier(dict(env)).watchdog is None


@pytest.mark.parametrize("address", ["", "x", "relative/path", "@", "/no/such/socket"])
def test_without_a_usable_socket_nothing_is_sent_and_nothing_fails(address):
    assert not Notifier({"NOTIFY_SOCKET": address}).send("READY=1")


@pytest.mark.service
def test_the_daemon_is_ready_pings_the_watchdog_from_its_loop_and_stops_cleanly(tmp_path, listener):
    sock, path = listener
    daemon = Daemon(tmp_path, env={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": str(int(WATCHDOG_S * 1e6))},
                    watchdog_pid=True)
    got = wait_for(sock, "READY=1")
    assert "STATUS=game 1: Red 0, Blue 0 (cut)" in got, got

    # every 0.2 s (half of WatchdogSec): 6 pings take at least 5 intervals, never fewer (a
    # loaded machine only makes them later); that they come at all is the wait
    took = pings(sock, 6)
    assert took >= 5 * WATCHDOG_S / 2 - 0.05, took

    daemon.proc.send_signal(signal.SIGSTOP)  # the loop hangs: the pings must stop
    try:
        received(sock, 0.3)  # what was in flight
        assert received(sock, 1.0).count("WATCHDOG=1") == 0
    finally:
        daemon.proc.send_signal(signal.SIGCONT)
    pings(sock, 3)  # back to life

    daemon.send("card 3C", "card 9D")  # the cut, keyed (OK's random cut ties one time in 17): the status follows
    wait_for(sock, "STATUS=game 1: Red 0, Blue 0 (starter)")
    code, err = daemon.stop()
    assert code == 0, err
    assert "STOPPING=1" in received(sock, 0.5)


@pytest.mark.service
def test_without_watchdog_pid_the_daemon_sends_no_pings(tmp_path, listener):
    sock, path = listener
    daemon = Daemon(tmp_path, env={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000"})
    wait_for(sock, "READY=1")
    assert "WATCHDOG=1" not in received(sock, 0.8)
    assert daemon.stop()[0] == 0


def test_a_part_that_will_not_open_makes_the_service_ready_degraded_then_is_retried(listener):
    """READY at once, the problem in STATUS: never a start held open (systemctl enable --now would
    block on it, and a daemon-reload during it makes systemd kill the service for a start timeout)."""
    from cribpi.daemon.startup import open_patiently
    from cribpi.exc import HardwareError

    sock, path = listener
    attempts: list[float] = []

    def open_parts():
        attempts.append(time.monotonic())
        if len(attempts) < 3:
            raise HardwareError("OLED ssd1306 on I2C bus 1 address 0x3c: no answer")
        return "parts"

    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000", "WATCHDOG_PID": str(os.getpid())}
    assert open_patiently(open_parts, Notifier(env)) == "parts"
    got = received(sock, 0.2)
    assert got[:2] == ["READY=1", "STATUS=degraded, retrying the parts: OLED ssd1306 on I2C bus 1 address 0x3c: "
                       "no answer (check them with `sudo cribpi doctor`)"], got
    assert not any(line.startswith("EXTEND_TIMEOUT_USEC=") for line in got)
    assert len(attempts) == 3
    # backoff: 0.5 s, then 1 s (the schedule itself: the test below). A retry is never early, a
    # loaded machine only makes it later: the first gap at least 0.5 s and soon (not the cap,
    # 30 s), the second at least twice the first's delay
    first, second = attempts[1] - attempts[0], attempts[2] - attempts[1]
    assert 0.5 - 1e-3 <= first < 5.0, first
    assert second >= 1.0 - 1e-3, (first, second)
    # the watchdog fed through the wait: at least once a WatchdogSec (0.4 s), at most every 0.2 s
    waited = attempts[2] - attempts[0]
    assert int(waited / 0.4) <= got.count("WATCHDOG=1") <= waited / 0.2 + 2, (waited, got.count("WATCHDOG=1"))


def test_the_backoff_doubles_from_half_a_second_to_half_a_minute():
    """The retries' schedule, on a clock the test moves: each gap twice the last, capped."""
    from cribpi.daemon.backoff import Backoff

    now = [100.0]
    backoff = Backoff(lambda: now[0])
    gaps = []
    for _ in range(9):
        backoff.failed()
        gaps.append(backoff.due - now[0])
        now[0] = backoff.due
        assert backoff.ready()
    assert gaps == [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]
    backoff.reset()
    backoff.failed()
    assert backoff.due - now[0] == 0.5


def test_run_by_hand_a_part_that_will_not_open_fails_at_once():
    from cribpi.daemon.startup import open_patiently
    from cribpi.exc import HardwareError

    def open_parts():
        raise HardwareError("GPIO17 (ok): no pin factory")

    with pytest.raises(HardwareError, match="GPIO17"):
        open_patiently(open_parts, Notifier({}))


@pytest.mark.service
def test_the_service_is_ready_without_its_parts_and_stops_on_sigterm_while_retrying(tmp_path, listener):
    """--backend pi off a Pi: neither the buttons nor the OLED open. As a service it is READY
    within seconds with the table running on stand-ins, says in STATUS what is missing and that
    nothing can be played without an input, keeps the watchdog fed while it retries, and stops
    cleanly."""
    sock, path = listener
    config = tmp_path / "cribpi.toml"
    config.write_text("")
    env = {k: v for k, v in os.environ.items() if k not in ("CRIBPI_CONFIG", "NOTIFY_SOCKET")}
    command = [sys.executable, "-m", "cribpi", "run", "--backend", "pi", "--config", str(config)]
    proc = subprocess.Popen(["sh", "-c", 'WATCHDOG_PID=$$ exec "$@"', "sh", *command],
                            env={**env, "NOTIFY_SOCKET": path, "STATE_DIRECTORY": str(tmp_path),
                                 "WATCHDOG_USEC": str(int(WATCHDOG_S * 1e6))},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    got = wait_for(sock, "READY=1")
    status = next((line for line in got + received(sock, 0.2) if line.startswith("STATUS=")), "")
    assert status.startswith("STATUS=degraded, retrying the parts: no input works: the table cannot be played"), got
    assert "buttons: missing (GPIO17 (ok): " in status and "OLED: missing (OLED ssd1306 on I2C bus 1" in status
    assert "cribpi doctor" in status and "game 1: Red 0, Blue 0 (cut)" in status
    assert received(sock, 1.0).count("WATCHDOG=1") >= 3 and proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "STOPPING=1" in received(sock, 0.5)
    assert "the table runs without it" in err


@pytest.mark.service
def test_with_the_oled_missing_the_service_runs_the_table_on_its_other_parts(tmp_path, listener):
    """The buttons and LEDs open, the OLED does not (no I2C bus here): READY=1 with the table
    running, STATUS naming the OLED (and not claiming the table cannot be played)."""
    if os.path.exists("/dev/i2c-1"):
        pytest.skip("this machine has an I2C bus 1: the OLED might open")
    sock, path = listener
    config = tmp_path / "cribpi.toml"
    config.write_text('[parts]\ninputs = ["mock"]\npegboard = "mock"\ndisplays = ["pi"]\n')
    env = {k: v for k, v in os.environ.items() if k not in ("CRIBPI_CONFIG", "NOTIFY_SOCKET", "CRIBPI_BACKEND")}
    command = [sys.executable, "-m", "cribpi", "run", "--config", str(config)]
    proc = subprocess.Popen(["sh", "-c", 'WATCHDOG_PID=$$ exec "$@"', "sh", *command],
                            env={**env, "NOTIFY_SOCKET": path, "STATE_DIRECTORY": str(tmp_path),
                                 "WATCHDOG_USEC": str(int(WATCHDOG_S * 1e6))},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    got = wait_for(sock, "READY=1")
    ready = next(i for i, line in enumerate(got) if line == "READY=1")
    status = got[ready + 1]  # sent with READY=1, in the same message
    assert status.startswith("STATUS=degraded, retrying the parts: OLED: missing (OLED ssd1306 on I2C bus 1"), got
    assert "no input works" not in status and status.endswith("game 1: Red 0, Blue 0 (cut)"), status
    assert (tmp_path / "cribpi.db").exists()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "parts inputs mock, pegboard mock, display pi" in err
