"""Ten thousand bad messages through the real broker, from a table's own account (which the
ACL lets write under its own topics): none crashes the director or changes a standing; each
is counted under its reason."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cribpi.tournament.messages import MAX_PAYLOAD
from cribpi.tournament.director.room import broker_limits
from tests.tournament.conftest import Mosquitto
from tests.tournament.test_publisher import publisher, wait_for
from tests.tournament.test_room import director

pytestmark = pytest.mark.mqtt
COUNT = 10_000
PASSED = broker_limits()["message_size_limit"]  # the largest payload the room's broker passes on
GOOD_RESULT = {"id": 1, "game": 1, "game_number": 1, "players": ["Ann", "Ben"], "scores": [121, 80], "winner": 0,
               "kind": "skunk", "game_points": 3, "margin": 41, "status": "confirmed", "at": 1.0}
WRONG = [None, True, -1, 2**64, 1.5, float("nan"), "x" * 70, [], {}, [1] * 9, "121"]


def bad_message(rng: random.Random) -> tuple[str, bytes]:
    """One bad message for table t1: its kind and payload."""
    roll = rng.randrange(7)
    kind = rng.choice(["state", "events", "result", "status"])
    if roll == 0:  # random bytes
        return kind, rng.randbytes(rng.randrange(0, 300))
    if roll == 1:  # too large for the director, not for the broker (which drops larger ones unseen)
        return kind, b'{"id": 1, "pad": "' + b"x" * (MAX_PAYLOAD + rng.randrange(1, PASSED - MAX_PAYLOAD - 20)) + b'"}'
    if roll == 2:  # JSON but not an object
        return kind, json.dumps(rng.choice([[1, 2], "text", 7, None])).encode()
    if roll == 3:  # an unknown field
        return "result", json.dumps({**GOOD_RESULT, "id": rng.randrange(2, 10**9), f"x{rng.randrange(99)}": 1}).encode()
    if roll == 4:  # a field of the wrong type
        key = rng.choice(sorted(GOOD_RESULT))
        return "result", json.dumps({**GOOD_RESULT, "id": rng.randrange(2, 10**9), key: rng.choice(WRONG)}).encode()
    if roll == 5:  # the same result again: a replay
        return "result", json.dumps(GOOD_RESULT).encode()
    return "status", rng.choice([b"", b"online ", b"ONLINE", b"\x00"])  # not a status


def test_ten_thousand_bad_messages_change_nothing(broker: Mosquitto, tmp_path: Path) -> None:
    d = director(broker)
    d.db.add_round("qualifying", {"t1": ["Ann", "Ben"]})
    table = publisher(broker, tmp_path)
    table.start()
    wait_for(lambda: table.connected)
    table.client.publish("cribpi/open/tables/t1/result", json.dumps(GOOD_RESULT).encode(), qos=1).wait_for_publish(5)
    wait_for(lambda: d.accepted["result"] == 1)
    before = d.ranked()
    rng = random.Random(14)
    for n in range(COUNT):
        kind, payload = bad_message(rng)
        info = table.client.publish(f"cribpi/open/tables/t1/{kind}", payload, qos=1)
        if n % 500 == 499:
            info.wait_for_publish(10)
    wait_for(lambda: sum(d.refused.values()) == COUNT, timeout=60)
    table.stop()
    d.close()
    assert d.ranked() == before
    assert d.accepted["result"] == 1
    assert set(d.refused) <= {"bad_json", "bad_type", "bad_field", "too_large", "unknown_field", "replay", "bad_status",
                              "rate"}
    assert min(d.refused[r] for r in ("bad_json", "too_large", "unknown_field", "bad_status")) > 500
    # the same result ~1,400 times: a replay each, until past the results' rate from one table
    assert d.refused["replay"] >= 100 and d.refused["replay"] + d.refused["rate"] > 500
