"""``cribpi loadgen --director``: simulated tables play the director's seating, round after
round (qualifying, Swiss, then the playoffs), so a whole event is rehearsed from the command
line; and a second run never reuses the first one's game ids. A real mosquitto, the director's
real pages."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribpi.tournament.table.loadgen import first_game_id
from tests.tournament.conftest import EVENT, Mosquitto, running_room
from tests.tournament.test_browser import Server
from tests.tournament.test_publisher import wait_for
from tests.tournament.test_replay import start_director, stop_director

pytestmark = pytest.mark.mqtt
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lee", "Max", "Ned", "Oz", "Pam"]


@pytest.fixture
def room8(tmp_path: Path) -> Iterator[Mosquitto]:
    """The room's broker, as the ``broker`` fixture's, for 8 tables (16 players)."""
    yield from running_room(tmp_path, 8)


def loadgen(broker: Mosquitto, tmp_path: Path, *more: str, tables: int = 4) -> subprocess.Popen[str]:
    creds = tmp_path / "credentials.json"
    creds.write_text(json.dumps(broker.room.credentials))
    return subprocess.Popen([sys.executable, "-m", "cribpi", "loadgen", "--broker", broker.url, "--event", EVENT,
                             "--tables", str(tables), "--pace", "0", "--credentials", str(creds),
                             "--outbox-dir", str(tmp_path / "outboxes"), *more],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_loadgen_plays_the_directors_seating_round_after_round(room8: Mosquitto, tmp_path: Path) -> None:
    """16 players at 8 tables: a random round, a Swiss round, then the top 4 play the
    semi-finals (best of 3) and the final (best of 5), each seated once the one before is won."""
    d = start_director(room8, register=False)
    for name in NAMES:
        d.register(name)
    server = Server(d)
    try:
        d.seat_round("random", random.Random(3))
        proc = loadgen(room8, tmp_path, "--director", server.url(""), "--rounds", "4", tables=8)
        wait_for(lambda: d.accepted["result"] == 8, timeout=120)  # round 1: a game at each of the 8 tables
        d.seat_round("swiss", random.Random(3))
        wait_for(lambda: d.accepted["result"] == 16, timeout=120)
        d.seat_round("bracket", random.Random(3))  # 16 entrants: the top 4 play the semi-finals, best of 3
        semis = d.bracket()["rounds"][0]
        assert len(d.bracket()["rounds"]) == 2 and len(semis) == 2
        wait_for(lambda: all(m["winner"] is not None for m in d.bracket()["rounds"][0]), timeout=120)
        d.seat_round("bracket", random.Random(3))  # the semi-finals' winners: the final, best of 5
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
        wait_for(lambda: d.bracket()["rounds"][-1][0]["winner"] is not None, timeout=60)
        semis, (final,) = d.bracket()["rounds"]
        assert [max(m["wins"]) for m in semis] == [2, 2] and all(2 <= sum(m["wins"]) <= 3 for m in semis)
        assert {final["a"], final["b"]} == {m["winner"] for m in semis}
        assert max(final["wins"]) == 3 and 3 <= sum(final["wins"]) <= 5
        played = sum(sum(m["wins"]) for m in (*semis, final))
        assert f"8 tables played {16 + played} games" in out
        assert all(r["status"] == "confirmed" for r in d.db.results())  # nothing not_seated, too_many or disputed
        assert set(d.refused) <= {"replay"} and sum(x["games"] for x in d.ranked()) == 32
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
