"""``cribpi loadgen --director``: simulated tables play the director's seating, round after
round (qualifying, Swiss, then the playoffs), so a whole event is rehearsed from the command
line; and a second run never reuses the first one's game ids. A real mosquitto, the director's
real pages."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cribpi.tournament.loadgen import first_game_id
from tests.tournament.conftest import EVENT, Mosquitto
from tests.tournament.test_browser import Server
from tests.tournament.test_publisher import wait_for
from tests.tournament.test_replay import start_director, stop_director

pytestmark = pytest.mark.mqtt
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def loadgen(broker: Mosquitto, tmp_path: Path, *more: str) -> subprocess.Popen[str]:
    creds = tmp_path / "credentials.json"
    creds.write_text(json.dumps(broker.room.credentials))
    return subprocess.Popen([sys.executable, "-m", "cribpi", "loadgen", "--broker", broker.url, "--event", EVENT,
                             "--tables", "4", "--pace", "0", "--credentials", str(creds),
                             "--outbox-dir", str(tmp_path / "outboxes"), *more],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_loadgen_plays_the_directors_seating_round_after_round(broker: Mosquitto, tmp_path: Path) -> None:
    d = start_director(broker, register=False)
    for name in NAMES:
        d.register(name)
    server = Server(d)
    try:
        d.seat_round("random", random.Random(3))
        proc = loadgen(broker, tmp_path, "--director", server.url(""), "--rounds", "3")
        wait_for(lambda: d.accepted["result"] == 4, timeout=120)  # round 1: a game at each of the 4 tables
        d.seat_round("swiss", random.Random(3))
        wait_for(lambda: d.accepted["result"] == 8, timeout=120)
        d.seat_round("bracket", random.Random(3))  # 8 entrants: the top 2 play the final, best of 5
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
        wait_for(lambda: d.bracket()["rounds"][-1][0]["winner"] is not None, timeout=60)
        final = d.bracket()["rounds"][-1][0]
        played = sum(final["wins"])
        assert 3 <= played <= 5 and max(final["wins"]) == 3
        assert f"4 tables played {8 + played} games" in out
        assert all(r["status"] == "confirmed" for r in d.db.results())  # nothing not_seated, too_many or disputed
        assert set(d.refused) <= {"replay"} and sum(x["games"] for x in d.ranked()) == 16
    finally:
        server.stop()
        stop_director(d)


def test_a_second_run_is_not_taken_for_a_replay_of_the_first(broker: Mosquitto, tmp_path: Path) -> None:
    d = start_director(broker, register=False)
    for n in range(1, 9):
        d.register(f"P{n:03}")
    for run in (1, 2):
        (tmp_path / f"run{run}").mkdir()  # a fresh outbox: the room's tables once more, as a second rehearsal
        proc = loadgen(broker, tmp_path / f"run{run}", "--games", "1")
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        wait_for(lambda: d.accepted["result"] == 4 * run, timeout=60)
    assert "replay" not in d.refused and sum(x["games"] for x in d.ranked()) == 16
    assert first_game_id(1.5) == 1500
    stop_director(d)
