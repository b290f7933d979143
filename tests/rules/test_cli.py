"""`cribpi score` and `cribpi peg` run as a user runs them: a separate process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cribpi(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "cribpi", *args],
        capture_output=True, text=True, encoding="utf-8", cwd=ROOT, env=env, timeout=60, check=False,
    )


def ok(*args: str) -> str:
    done = cribpi(*args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


# -- score -----------------------------------------------------------------------------------

def test_score_itemises_explains_and_totals() -> None:
    out = ok("score", "5H", "5C", "5S", "JD", "5D")
    lines = out.splitlines()
    assert lines[0] == "Hand 5♥ 5♣ 5♠ J♦   starter 5♦"
    assert sum(1 for line in lines if line.split()[0] == "fifteen" and line.split()[-1] == "2") == 8
    assert any(line.split()[:3] == ["double", "pair", "royal"] and line.split()[-1] == "12" for line in lines)
    assert any(line.split()[0] == "nobs" and line.split()[-1] == "1" for line in lines)
    assert "and one for his nobs is twenty-nine" in out
    assert lines[-1] == "Total: 29"


def test_score_accepts_every_card_form() -> None:
    assert ok("score", "7c", "8♦", "8H", "ks", "9C").splitlines()[-1] == "Total: 12"
    assert ok("score", "10h", "TD", "5♥", "AS", "2C").splitlines()[-1] == ok(
        "score", "TH", "TD", "5H", "AS", "2C").splitlines()[-1]


def test_score_json_has_the_total() -> None:
    data = json.loads(ok("score", "--json", "7C", "8D", "8H", "KS", "9C"))
    assert data["total"] == 12
    assert data["hand"] == ["7C", "8D", "8H", "KS"] and data["starter"] == "9C"
    assert data["explain"].startswith("fifteen two, fifteen four")
    assert sum(item["points"] for item in data["items"]) == 12


def test_score_crib_needs_five_for_a_flush() -> None:
    assert ok("score", "2H", "4H", "6H", "8H", "KS").splitlines()[-1] == "Total: 4"
    out = ok("score", "--crib", "2H", "4H", "6H", "8H", "KS")
    assert out.splitlines()[0].startswith("Crib ")
    assert "nothing to count" in out and out.splitlines()[-1] == "Total: 0"
    assert json.loads(ok("score", "--crib", "--json", "2H", "4H", "6H", "8H", "KH"))["total"] == 5


def test_score_with_a_named_preset() -> None:
    data = json.loads(ok("score", "--rules", "hoyle", "--json", "5H", "5C", "5S", "JD", "5D"))
    assert data["rules"] == "hoyle" and data["total"] == 29
    five = json.loads(ok("score", "--rules", "five-card", "--json", "2H", "4H", "6H", "KH"))
    assert five["total"] == 4


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["1H", "5C", "5S", "JD", "5D"], "'1H'"),
        (["5H", "5X", "5S", "JD", "5D"], "'5X'"),
        (["5H", "5H", "5S", "JD", "5D"], "5H appears twice"),
        (["5H", "5C", "5S", "JD", "5H"], "5H is the starter and also in the hand"),
        (["5H", "5S", "JD", "5D"], "needs 4 cards, not 3"),
        (["5H", "5C", "5S", "JD", "2C", "5D"], "needs 4 cards, not 5"),
        (["--rules", "bogus", "5H", "5C", "5S", "JD", "5D"], "'bogus'"),
        (["5H"], "starter"),
        ([], "CARD"),
    ],
)
def test_score_bad_input_exits_2_with_one_line(args: list[str], named: str) -> None:
    done = cribpi("score", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert named in done.stderr


def test_unknown_preset_lists_the_accepted_ones() -> None:
    stderr = cribpi("score", "--rules", "bogus", "5H", "5C", "5S", "JD", "5D").stderr
    for name in ("acc", "hoyle", "leaflet"):
        assert name in stderr


# -- peg -------------------------------------------------------------------------------------

def peg_rows(out: str) -> list[list[str]]:
    return [line.split() for line in out.splitlines() if not line.startswith("Total")]


def test_peg_prints_the_running_count_per_card() -> None:
    out = ok("peg", "4", "2", "3", "5", "6")
    rows = peg_rows(out)
    assert [row[:3] for row in rows[:5]] == [
        ["4C", "4", "0"], ["2C", "6", "0"], ["3C", "9", "3"], ["5C", "14", "4"], ["6C", "20", "5"]]
    assert " ".join(rows[4][3:]) == "a run of five is five"
    assert rows[5][:3] == ["--", "20", "1"] and "one for last" in out
    assert out.splitlines()[-1] == "Total pegged: 13"


def test_peg_thirty_one_and_restart() -> None:
    out = ok("peg", "7", "8", "9", "7", "K")
    rows = peg_rows(out)
    assert rows[3][:3] == ["7D", "31", "5"]
    assert "thirty-one is two, and a run of three is five" in out
    assert rows[4][:3] == ["KC", "10", "0"]  # the count restarts after 31


def test_peg_go_when_the_next_card_would_pass_31() -> None:
    rows = peg_rows(ok("peg", "9", "6", "6", "5", "4", "10", "7", "10"))
    assert [row[:3] for row in rows] == [
        ["9C", "9", "0"], ["6C", "15", "2"], ["6D", "21", "2"], ["5C", "26", "0"], ["4C", "30", "3"],
        ["--", "30", "1"], ["TC", "10", "0"], ["7C", "17", "0"], ["TD", "27", "0"], ["--", "27", "1"]]


def test_peg_json() -> None:
    rows = json.loads(ok("peg", "--json", "5", "5", "5"))
    assert [(r["card"], r["count"], r["points"]) for r in rows] == [
        ("5C", 5, 0), ("5D", 10, 2), ("5H", 15, 8), (None, 15, 1)]
    assert rows[2]["reasons"] == ["fifteen", "pair royal"]


@pytest.mark.parametrize(
    ("args", "named"),
    [(["5", "X"], "'X'"), (["5H", "5H"], "5H is laid twice"), (["5"] * 5, "'5'"),
     (["--rules", "nope", "5"], "'nope'"), (["1H"], "'1H'")],
)
def test_peg_bad_input_exits_2_with_one_line(args: list[str], named: str) -> None:
    done = cribpi("peg", *args)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert named in done.stderr


def test_peg_bare_ranks_avoid_suits_named_elsewhere() -> None:
    # "5 5C": the bare 5 must not take clubs, which a later token names
    rows = json.loads(ok("peg", "--json", "5", "5C"))
    assert [r["card"] for r in rows[:2]] == ["5D", "5C"]
    assert rows[1]["points"] == 2
    rows = json.loads(ok("peg", "--json", "5", "5", "5", "5C"))
    assert sorted(r["card"] for r in rows[:4]) == ["5C", "5D", "5H", "5S"]
    assert rows[3]["points"] == 12
