"""``cribpi loadgen`` past one process's tables: worker processes it starts and supervises,
against a real mosquitto and a director (every table's result reaches it), a worker that dies
named by its tables, and Ctrl-C stopping every worker cleanly."""

from __future__ import annotations

import getpass
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribpi.tournament.broker import parse_broker
from cribpi.tournament.director import Director
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.table.loadgen import player_names, table_groups
from cribpi.tournament.director.room import DIRECTOR, EVENT_DB, init_event, table_ids
from tests.sim.conftest import require
from tests.tournament.conftest import ADMIN_PASSWORD, EVENT, Mosquitto, free_port
from tests.tournament.test_publisher import wait_for

pytestmark = pytest.mark.mqtt
TABLES = 160


STARTED: list[Loadgen] = []


@pytest.fixture(autouse=True)
def no_loadgen_left() -> Iterator[None]:
    """A test that failed half way leaves no loadgen (nor its workers, in sessions of their
    own) running on to load the machine: each still running is stopped as Ctrl-C stops it."""
    yield
    while STARTED:
        run = STARTED.pop()
        if run.proc.poll() is None:
            run.proc.send_signal(signal.SIGINT)
            try:
                run.proc.wait(60)
            except subprocess.TimeoutExpired:
                run.proc.kill()
                run.proc.wait()
                for pid in run.workers().values():
                    if not gone(pid):
                        os.kill(pid, signal.SIGKILL)


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Mosquitto]:
    require("mosquitto")
    require("mosquitto_passwd")
    made = init_event(tmp_path / "room", EVENT, TABLES, ADMIN_PASSWORD, port=free_port(), bind="127.0.0.1",
                      run_as=getpass.getuser(), open_play=True)
    server = Mosquitto(made)
    server.start()
    yield server
    server.stop()


def director(broker: Mosquitto, tables: int) -> Director:
    d = Director(EventDB(broker.room.folder / EVENT_DB))
    for n in range(1, tables + 1):
        for name in player_names(n):
            d.register(name)
    d.connect(parse_broker(broker.url, username=DIRECTOR, password=broker.room.credentials[DIRECTOR]))
    wait_for(d.subscribed.is_set)
    return d


class Loadgen:
    """``cribpi loadgen`` as a process, its stderr read as it comes (the workers' pids)."""

    def __init__(self, broker: Mosquitto, tmp_path: Path, *options: str, background: bool = False) -> None:
        """``background``: started as ``cribpi loadgen ... &`` in a script starts it, with SIGINT
        ignored (a shell's background job inherits that, and Python then leaves it ignored)."""
        creds = tmp_path / "credentials.json"
        creds.write_text(json.dumps(broker.room.credentials))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cribpi", "loadgen", "--broker", broker.url, "--event", EVENT,
             "--credentials", str(creds), "--outbox-dir", str(tmp_path / "outboxes"), *options],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if background else None)
        self.err: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        STARTED.append(self)

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.err.append(line)

    def workers(self) -> dict[str, int]:
        """'tables t1-t80' -> its worker's pid, as the loadgen said when it started them."""
        found = (re.fullmatch(r"(tables t\d+-t\d+): worker pid (\d+)\n", line) for line in list(self.err))
        return {m[1]: int(m[2]) for m in found if m}

    def running(self) -> bool:
        """True while the loadgen runs; its exit, with what it said, fails the test at once
        (rather than a wait for its tables timing out)."""
        if self.proc.poll() is None:
            return True
        self.reader.join(10)
        raise AssertionError(f"cribpi loadgen exited with {self.proc.returncode}: {''.join(self.err)}")

    def finish(self, timeout: float = 120) -> tuple[int, str, str]:
        """Its exit status, stdout and stderr, once it ended (stderr is the reader's alone)."""
        self.proc.wait(timeout)
        assert self.proc.stdout is not None
        out = self.proc.stdout.read()
        self.reader.join(10)
        return self.proc.returncode, out, "".join(self.err)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.slow
def test_160_tables_in_worker_processes_all_reach_the_director(room: Mosquitto, tmp_path: Path) -> None:
    d = director(room, TABLES)
    run = Loadgen(room, tmp_path, "--tables", str(TABLES), "--games", "1", "--seed", "3", "--pace", "0")
    code, out, err = run.finish(timeout=180)
    assert code == 0, err
    assert f"{TABLES} tables played {TABLES} games" in out
    assert set(run.workers()) == {"tables t1-t80", "tables t81-t160"}, err  # two processes under paho's limit
    wait_for(lambda: d.accepted["result"] == TABLES, timeout=60)
    assert sorted({r["table_id"] for r in d.db.results()}) == sorted(table_ids(TABLES))
    assert sum(x["games"] for x in d.ranked()) == 2 * TABLES and d.refused == {}
    d.close()


def test_a_worker_that_dies_is_named_by_its_tables_and_the_run_fails(room: Mosquitto, tmp_path: Path) -> None:
    d = director(room, 6)
    run = Loadgen(room, tmp_path, "--tables", "6", "--per-process", "3", "--games", "1", "--seed", "5",
                  "--pace", "0.05")
    wait_for(lambda: len(run.workers()) == 2)
    os.kill(run.workers()["tables t4-t6"], signal.SIGKILL)
    code, out, err = run.finish()
    assert code == 1
    assert "3 tables played 3 games" in out  # the other worker's tables played on to the end
    assert "tables t4-t6: their worker was killed by SIGKILL" in err
    wait_for(lambda: d.accepted["result"] == 3)
    assert {r["table_id"] for r in d.db.results()} == {"t1", "t2", "t3"}
    d.close()


@pytest.mark.parametrize("stop, background", [(signal.SIGINT, False), (signal.SIGTERM, False),  # Ctrl-C, a stop
                                              (signal.SIGINT, True)])  # kill -INT of a script's background job
def test_ctrl_c_stops_every_worker_and_their_tables_say_offline(room: Mosquitto, tmp_path: Path,
                                                               stop: signal.Signals, background: bool) -> None:
    d = director(room, 6)
    run = Loadgen(room, tmp_path, "--tables", "6", "--per-process", "3", "--games", "100", "--pace", "0.2",
                  background=background)
    wait_for(lambda: run.running() and all(d.live[t]["online"] for t in table_ids(6)), what="the 6 tables online")
    wait_for(lambda: run.running() and len(run.workers()) == 2, what="the loadgen's line for each worker's pid")
    pids = run.workers()
    run.proc.send_signal(stop)
    code, out, err = run.finish(timeout=60)
    assert code == 130, err
    assert "their worker" not in err  # each stopped as asked, none had to be killed
    assert all(gone(pid) for pid in pids.values())
    wait_for(lambda: not any(d.live[t]["online"] for t in table_ids(6)),  # each table's goodbye: a clean stop
             what="each table's offline status at the director")
    d.close()


def test_tables_past_the_last_a_room_has_are_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "cribpi", "loadgen", "--broker", "mqtt://127.0.0.1:1", "--event",
                           EVENT, "--first-table", "1990", "--tables", "20"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "cribpi loadgen: --first-table 1990 with --tables 20 ends at t2009: tables go up to t2000\n"
    done = subprocess.run([sys.executable, "-m", "cribpi", "loadgen", "--broker", "mqtt://127.0.0.1:1", "--event",
                           EVENT, "--tables", "2001"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--tables: '2001' is not valid: expected a whole number 1-2000" in done.stderr


def test_shares_are_even_and_cover_every_table_once() -> None:
    for first, count, per in ((1, 160, 100), (1, 100, 100), (151, 1850, 100), (7, 13, 3), (1, 1, 1)):
        shares = table_groups(first, count, per)
        assert [n for share in shares for n in share] == list(range(first, first + count))
        assert all(len(s) <= per for s in shares) and len(shares) == -(-count // per)
        assert max(map(len, shares)) - min(map(len, shares)) <= 1


def test_the_command_and_the_room_agree_on_the_limits() -> None:
    """The command keeps its own copies (it imports no tournament module to build its parser)."""
    from cribpi.commands import loadgen as command
    from cribpi.tournament.director import room
    from cribpi.tournament.table import loadgen

    assert command.PER_PROCESS == loadgen.PER_PROCESS and command.MAX_TABLES == room.MAX_TABLES
