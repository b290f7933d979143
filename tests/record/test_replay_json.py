"""``cribpi replay --json`` says everything the text does (every score with its reason, every
alert, each result with its skunk, the match standing), and each result agrees with the scores
pegged before it: no score passes the game hole."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from cribpi.cli import main
from cribpi.game.events import Mode
from cribpi.game.simulate import random_game_events
from cribpi.record import export_record
from cribpi.rules import ACC, HOYLE, MugginsScope

RECORDS = Path(__file__).parents[1] / "game" / "records"
MUGGINS = ACC.replace(muggins=MugginsScope.ACC)


def replay(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> str:
    assert main(["replay", *options, str(path)]) == 0
    return capsys.readouterr().out


def random_record(tmp_path: Path, seed: int) -> Path:
    rules, mode = [(MUGGINS, Mode.CLAIM), (HOYLE, Mode.CLAIM), (ACC.replace(players=3), Mode.COUNT)][seed % 3]
    events = [e for e, _ in random_game_events(random.Random(seed), rules, mode, 3)]
    path = tmp_path / f"random-{seed}.crib"
    path.write_text(export_record(events), encoding="utf-8")
    return path


def records(tmp_path: Path) -> list[Path]:
    return sorted(RECORDS.glob("*.crib")) + [random_record(tmp_path, seed) for seed in range(6)]


def test_json_holds_every_row_the_text_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kinds_seen = set()
    for path in records(tmp_path):
        text = replay(path, capsys).splitlines()
        data = json.loads(replay(path, capsys, "--json"))
        printed: list[str] = []  # a row a line: one longer than 80 columns is wrapped, continued indented
        for line in text:
            if line.startswith("line "):
                printed.append(line)
            elif line.startswith(" ") and printed:
                printed[-1] += line
        printed = [" ".join(line.split()) for line in printed]
        assert len(printed) == len(data["rows"]), path.name
        for line, row in zip(printed, data["rows"]):
            assert int(line.split()[1]) == row["line"]
            assert " ".join(row.get("text", row.get("explain", "")).split()) in line
            if row["type"] == "score":
                assert f"{row['reason']}" in line and f"{row['points']:+d}" in line
            kinds_seen.add(row.get("kind", row["type"]))
        scores = ", ".join(f"{name} {score}" for name, score in data["scores"].items())
        summary = " ".join(" ".join(text[next(n for n, line in enumerate(text) if line.startswith("valid record: ")):]).split())
        assert summary == f"valid record: {data['events']} events; {scores}; {data['end']}"
    assert {"score", "result", "match", "muggins", "overclaim"} <= kinds_seen


def test_each_result_agrees_with_the_scores_before_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = 0
    for path in records(tmp_path):
        data = json.loads(replay(path, capsys, "--json"))
        last_scores: dict[str, int] = {}
        for row in data["rows"]:
            if row["type"] == "score":
                last_scores = row["scores"]
            elif row["type"] == "result":
                results += 1
                assert row["scores"] == last_scores, (path.name, row)
                winner, loser = re.fullmatch(r".* wins (\d+)-(\d+): .*", row["text"]).groups()
                assert int(winner) == max(last_scores.values()) == last_scores[row["winner"]]
                assert int(winner) in (61, 121), "a score passed the game hole"
                assert row["result"] in ("win", "skunk", "double skunk", "lurch") and row["result"] in row["text"]
        for row in (r for r in data["rows"] if r["type"] == "match"):
            assert sum(row["games_won"].values()) == len([r for r in data["rows"] if r["type"] == "result"])
    assert results >= 6
