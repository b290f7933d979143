"""The seeds' worked examples as record files (tests/game/records/): each replays to the
scores the seed gives, and writes back to the same events."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribpi.game import Game, Pegged, Phase
from cribpi.record import parse_record

RECORDS = Path(__file__).resolve().parents[1] / "game" / "records"


def replay_file(name: str) -> tuple[Game, list[tuple[str, int, str, str]]]:
    record = parse_record((RECORDS / name).read_text(encoding="utf-8"))
    game = Game()
    pegs = []
    for event in record.events:
        for effect in game.apply(event):
            if isinstance(effect, Pegged):
                pegs.append((game.state.names[effect.seat], effect.points, str(effect.reason), effect.explain))
    return game, pegs


def test_seed_003_interesting_play() -> None:
    """Dealer pegs 11 in the play, has a 24 hand and a 24 crib; pone pegs 2: 59-2."""
    game, pegs = replay_file("003_interesting_play.crib")
    play = [(who, pts) for who, pts, reason, _ in pegs if reason == "play"]
    assert play == [("Dealer", 2), ("Dealer", 2), ("Pone", 2), ("Dealer", 7)]
    assert sum(p for who, p in play if who == "Dealer") == 11
    assert [(who, pts, reason) for who, pts, reason, _ in pegs if reason in ("hand", "crib")] == [
        ("Dealer", 24, "hand"), ("Dealer", 24, "crib")]  # the pone's hand is nothing: no peg
    assert game.state.scores == (59, 2)


def test_seed_000_example_1() -> None:
    _, pegs = replay_file("000_example_1.crib")
    play = [(who, pts, said) for who, pts, reason, said in pegs if reason == "play"]
    assert play == [
        ("B", 2, "fifteen two"),  # B's 6 after A's 9
        ("A", 2, "a pair is two"),  # A's 6
        ("B", 3, "a run of three is three"),  # B's 4 after 6 5
        ("B", 1, "one for the go is one"),  # the last card of the first count
        ("A", 1, "one for last is one"),  # A's second 10
    ]


def test_seed_000_example_2() -> None:
    _, pegs = replay_file("000_example_2.crib")
    play = [(who, pts, said) for who, pts, reason, said in pegs if reason == "play"]
    assert play[:3] == [("B", 2, "fifteen two"), ("A", 2, "a pair is two"), ("B", 1, "one for the go is one")]
    assert ("A", 3, "a run of three is three") not in play  # A's 5 leads a new count: no run


def test_seed_002_pone_counts_out_before_the_dealers_bigger_hand() -> None:
    game, pegs = replay_file("002_hoyle_pone_counts_out.crib")
    state = game.state
    assert state.phase is Phase.MATCH_OVER
    assert state.games[-1].winner == 1 and state.games[-1].scores == (102, 121)
    assert pegs[-1][:3] == ("Ben", 24, "hand")  # Ben, the pone, is out on his hand
    last_deal = state.deal
    assert last_deal is not None and last_deal.hand_totals == ((1, 24),)  # Ann's 29 is never counted


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.crib")), ids=lambda p: p.name)
def test_record_files_export_back_to_the_same_events(path: Path) -> None:
    record = parse_record(path.read_text(encoding="utf-8"))
    again = parse_record(record.text())
    assert (again.tags, again.events) == (record.tags, record.events)
