"""``cribpi advise`` run as a real subprocess, the way people call it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cribpi.analysis import analyse_discards
from cribpi.rules import FIVE_CARD, parse_cards


def advise(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "cribpi", "advise", *args],
        capture_output=True, text=True, encoding="utf-8", env=env, timeout=60,
    )


def test_table_ranks_every_discard() -> None:
    result = advise("5H", "5C", "5S", "JD", "9C", "KD", "--dealer")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["#", "discard"])
    rows = lines[header + 1:]
    assert len(rows) == 15
    assert rows[0].split()[:7] == ["1", "J♦", "9♣", "5♥", "5♣", "5♠", "K♦"]
    assert rows[0].split()[-4:] == ["16.261", "4.176", "20.437", "14-28"]
    assert "dealer" in lines[0] and "46 starters" in result.stdout


def test_json_has_the_same_entries_as_the_api() -> None:
    dealt = ["5H", "5C", "5S", "JD", "9C", "KD"]
    result = advise(*dealt, "--pone", "--json")
    assert result.returncode == 0, result.stderr
    entries = json.loads(result.stdout)
    options = analyse_discards(parse_cards(dealt), dealer=False)
    assert [e["discard"] for e in entries] == [[str(c) for c in o.discard] for o in options]
    assert entries[0]["discard"] == ["9C", "KD"] and entries[0]["keep"] == ["5H", "5C", "5S", "JD"]
    for entry, option in zip(entries, options):
        assert {"discard", "hand_ev", "crib_ev", "total_ev", "keep", "hand_min", "hand_max"} <= set(entry)
        assert entry["total_ev"] == option.total_ev
        assert entry["total_ev"] == pytest.approx(entry["hand_ev"] - entry["crib_ev"])


def test_three_players_and_five_card() -> None:
    three = json.loads(advise("5H", "5C", "5S", "JD", "9C", "--pone", "--players", "3", "--json").stdout)
    assert len(three) == 5 and all(len(e["discard"]) == 1 for e in three)
    five = advise("JH", "5H", "6C", "9H", "QD", "--dealer", "--rules", "five-card", "--json")
    entries = json.loads(five.stdout)
    options = analyse_discards(parse_cards("JH 5H 6C 9H QD"), dealer=True, rules=FIVE_CARD)
    assert [e["total_ev"] for e in entries] == [o.total_ev for o in options]
    assert all(len(e["keep"]) == 3 for e in entries)


@pytest.mark.parametrize(("args", "message"), [
    (["5H", "5C", "5S", "JD", "9C", "--dealer"], "deals 6 cards, not 5"),
    (["5H", "5C", "5S", "JD", "9C", "9C", "--dealer"], "9C appears twice"),
    (["5H", "5C", "5S", "JD", "9C", "ZZ", "--dealer"], "'ZZ' is not a card"),
    (["5H", "5C", "5S", "JD", "9C", "KD", "--dealer", "--players", "3"], "deals 5 cards, not 6"),
    (["5H", "5C", "5S", "JD", "9C", "--dealer", "--rules", "five-card", "--players", "3"], "five-card cribbage is for 2 players"),
    (["5H", "5C", "5S", "JD", "9C", "KD", "--dealer", "--rules", "bogus"], "no rule preset called 'bogus'"),
])
def test_bad_input_exits_2_with_one_line(args: list[str], message: str) -> None:
    result = advise(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("cribpi advise: ") and message in result.stderr


@pytest.mark.parametrize("args", [
    ["5H", "5C", "5S", "JD", "9C", "KD"],
    ["5H", "5C", "5S", "JD", "9C", "KD", "--dealer", "--pone"],
])
def test_whose_crib_must_be_said_once(args: list[str]) -> None:
    result = advise(*args)
    assert result.returncode == 2
    assert "--dealer" in result.stderr and "--pone" in result.stderr
