"""``cribpi replay``: every score of a record with its line, and one line for a bad record."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cribpi.cli import main
from cribpi.commands.replay import read_record
from cribpi.record import RecordFileError, RecordRefusedError

RECORDS = Path(__file__).resolve().parents[1] / "game" / "records"


def test_replay_prints_scores_reasons_and_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "002_hoyle_pone_counts_out.crib")]) == 0
    out = capsys.readouterr().out
    assert "Ben wins 121-102" in out  # the game ends in the game hole
    said = " ".join(out.split())  # a row is wrapped to 80 columns when it is longer
    assert re.search(r"Ben \+24 hand: fifteen two, .* twenty-four Ann 102, Ben 121", said)  # the peg stops in the game hole
    assert out.rstrip().endswith("the match is over")


def test_replay_json_lists_scoring_events(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", str(RECORDS / "003_interesting_play.crib")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["players"], data["rules"], data["mode"]) == (["Dealer", "Pone"], "acc", "count")
    assert data["end"].startswith("in progress, waiting for") and data["scores"] == {"Dealer": 59, "Pone": 2}
    rows = [r for r in data["rows"] if r["type"] == "score"]
    assert [(r["name"], r["points"], r["reason"]) for r in rows][-2:] == [("Dealer", 24, "hand"), ("Dealer", 24, "crib")]
    assert rows[-1]["scores"] == {"Dealer": 59, "Pone": 2}
    assert rows[0]["explain"] == "fifteen two" and rows[0]["line"] == 17


def test_replay_shows_muggins_and_overclaims(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "claims.crib"
    path.write_text('[Players "A" "B"]\n[Muggins "acc"]\n[Mode "claim"]\n[Dealer "B"]\n'
                    "Starter: 2D\nPlay: 5H=0 TH=3\nMuggins A 2\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "! muggins: A missed" not in out  # 5 alone scores nothing
    assert "! overclaim: B claimed 3 but has 2" in out
    assert "! wrong-muggins" in out  # A's call on B's claim, corrected but not short


def test_read_record_names_the_file_in_its_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.crib"
    path.write_text('[Players "A" "B"]\n[Dealer "A"]\nStarter: 5H\nPlay: 5C 5C\n', encoding="utf-8")
    with pytest.raises(RecordRefusedError) as info:
        read_record(str(path))
    assert (info.value.source, info.value.line) == (str(path), 4)
    with pytest.raises(RecordFileError) as missing:
        read_record(str(tmp_path / "missing.crib"))
    assert str(missing.value) == f"{tmp_path / 'missing.crib'}: no such game record"


def test_replay_bad_record_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.crib"
    path.write_text('[Players "A" "B"]\n[Dealer "A"]\nStarter: 5H\nPlay: 5C 5C\n', encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "bad.crib: line 4: 5C laid by A is refused" in err
    assert main(["replay", str(tmp_path / "missing.crib")]) == 2
    assert "missing.crib: no such game record" in capsys.readouterr().err


def test_replay_heads_a_tie_at_the_cut_as_the_cut_not_a_deal_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "recut.crib"
    path.write_text('[Players "A" "B" "C"]\nCut: 7D 7C 9H\nCut: 8D 6C 9S\n\nDeal 1: B deals\nStarter: 5H\n',
                    encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "-- game 1, the cut" in out and not any("None" in line for line in out)
    assert out[out.index("-- game 1, the cut") + 1].startswith("line    2  ! recut: A and B cut equal low cards")
