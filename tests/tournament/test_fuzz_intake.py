"""The director's intake as a whole, fuzzed (hypothesis): generated and mutated messages on the
tables' topics, each refused with one of the documented reasons (docs/tournament.md) or taken,
never an exception of any kind nor an ``error``; a table's valid board after each is shown, and
a valid result after them all counts. (The same through a real broker: test_fuzz, test_flood.)
CI runs a bounded budget; ``-m slow`` runs a longer one."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribpi.tournament.messages import BadMessage, parse
from tests.tournament.test_standings import Room

# every reason a message may be refused for (docs/tournament.md, "Refusals")
DOCUMENTED = {"too_large", "too_deep", "bad_json", "bad_type", "bad_topic", "bad_status", "unknown_field", "bad_field",
              "unknown_table", "rate", "replay", "out_of_order", "from_the_future", "game_length", "unknown_player",
              "not_seated", "too_many"}
NOW = int(time.time() * 1_000_000)
BOARD = {"game": 1, "players": ["Ann", "Ben"], "scores": [10, 20], "rear": [0, 5], "dealer": 0, "game_number": 1,
         "match_games": 1, "games_won": [0, 0], "last": {"seat": 0, "points": 2, "reason": "fifteen", "text": "x"},
         "phase": "play", "status": "playing", "at": 1.0, "id": NOW}
EVENT = {"id": NOW, "game": 1, "event": {"type": "go", "seat": 0}, "at": 1.0}
RESULT = {"id": NOW, "game": 1, "game_number": 1, "players": ["Ann", "Ben"], "scores": [121, 80], "winner": 0,
          "kind": "skunk", "game_points": 3, "margin": 41, "status": "confirmed", "at": 1.0}
VALID = {"state": BOARD, "events": EVENT, "result": RESULT}

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                    st.text(max_size=80))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.text(max_size=10), inner, max_size=5)),
                      max_leaves=30)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A valid message of a kind, changed: a field replaced, dropped or added, then maybe its
    bytes cut, flipped or wrapped in brackets."""
    kind = draw(st.sampled_from(sorted(VALID)))
    body: dict[str, Any] = dict(VALID[kind])
    body["id"] = NOW + draw(st.integers(-10**6, 10**12))
    action = draw(st.sampled_from(["replace", "drop", "add", "none"]))
    key = draw(st.sampled_from(sorted(body)))
    if action == "replace":
        body[key] = draw(values)
    elif action == "drop":
        del body[key]
    elif action == "add":
        body[draw(st.text(max_size=10))] = draw(values)
    payload = json.dumps(body).encode()
    how = draw(st.sampled_from(["as_is", "cut", "flip", "wrap", "deep"]))
    if how == "cut":
        payload = payload[:draw(st.integers(0, len(payload)))]
    elif how == "flip":
        at = draw(st.integers(0, len(payload) - 1))
        payload = payload[:at] + bytes([draw(st.integers(0, 255))]) + payload[at + 1:]
    elif how == "wrap":
        n = draw(st.integers(1, 40))
        payload = b"[" * n + payload + b"]" * n
    elif how == "deep":
        n = draw(st.integers(17, 4000))
        payload = b'{"a":' * n + b"1" + b"}" * n
    return payload


topics = st.one_of(
    st.tuples(st.sampled_from(["t1", "t2", "t3", "nope", "../t1", ""]),
              st.sampled_from(["state", "events", "result", "status", "acks", ""])).map(
        lambda tk: f"cribpi/open/tables/{tk[0]}/{tk[1]}"),
    st.text(max_size=60))
payloads = st.one_of(mutated(), values.map(lambda v: json.dumps(v).encode()), st.binary(max_size=300),
                     st.sampled_from([b"online", b"offline", b"[" * 5000, b'"' + b"\\" * 3000]))


class Fuzzed:
    """One director for every example (a new database an example would be too slow)."""

    def __init__(self, tmp_path: Path) -> None:
        self.room = Room(tmp_path)
        for name in ("Ann", "Ben", "Cy", "Di"):
            self.room.director.register(name)
        self.room.director.db.add_round("qualifying", {"t1": ["Ann", "Ben"], "t8": ["Cy", "Di"]})
        self.boards = 0

    def check(self, topic: str, payload: bytes) -> None:
        d = self.room.director
        try:
            parse("open", topic, payload)
        except BadMessage as exc:
            assert exc.reason in DOCUMENTED, exc
        d.handle(topic, payload)  # never raises (it would fail the example)
        assert set(d.refused) <= DOCUMENTED, d.refused
        self.boards += 1  # a table's valid board after it is shown
        board = {**BOARD, "id": NOW + 10**10 + self.boards, "scores": [self.boards % 120, 5]}
        assert self.room.send("t7", "state", board), d.refused
        assert d.live["t7"]["state"]["scores"] == [self.boards % 120, 5]

    def a_result_still_counts(self) -> None:
        d = self.room.director
        result = {**RESULT, "id": NOW + 10**10, "players": ["Cy", "Di"]}
        assert self.room.send("t8", "result", result), d.refused
        assert next(x for x in d.ranked() if x["name"] == "Cy")["games"] == 1


def fuzz(tmp_path: Path, examples: int) -> None:
    fuzzed = Fuzzed(tmp_path)

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(topic=topics, payload=payloads)
    def one(topic: str, payload: bytes) -> None:
        fuzzed.check(topic, payload)

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(kind=st.sampled_from(["state", "events", "result", "status"]), payload=payloads)
    def on_a_table(kind: str, payload: bytes) -> None:
        fuzzed.check(f"cribpi/open/tables/t{1 + len(payload) % 3}/{kind}", payload)

    one()
    on_a_table()
    fuzzed.a_result_still_counts()
    assert "error" not in fuzzed.room.director.refused


def test_generated_and_mutated_messages_are_refused_only_for_documented_reasons(tmp_path: Path) -> None:
    fuzz(tmp_path, 600)


@pytest.mark.slow
def test_generated_and_mutated_messages_longer(tmp_path: Path) -> None:
    fuzz(tmp_path, 6_000)  # ten times the budget above (20,000 took 80 s of a CI run)
