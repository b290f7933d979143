"""Game records: round trips over random games, hand-written records, the seeds' worked
examples as record files, errors that name the line, and `cribpi replay`."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from cribpi.cli import main
from cribpi.exc import CribpiError, RecordError
from cribpi.game import (
    Claim, Discard, Event, Game, Lay, Misdeal, Mode, NewGame, Pegged, Penalty, Phase, Starter, Undo,
)
from cribpi.game.record import export_record, parse_record
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC, FIVE_CARD, HOYLE, LEAFLET, Card, MugginsScope, Rules

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).resolve().parent / "records"
MUGGINS = ACC.replace(muggins=MugginsScope.ACC)

CONFIGS: dict[str, tuple[Rules, Mode, int]] = {
    "2p count": (ACC, Mode.COUNT, 1),
    "2p claim": (ACC, Mode.CLAIM, 1),
    "2p board match": (ACC, Mode.BOARD, 3),
    "2p claim muggins match": (MUGGINS, Mode.CLAIM, 3),
    "3p claim muggins": (MUGGINS.replace(players=3), Mode.CLAIM, 1),
    "3p count": (ACC.replace(players=3), Mode.COUNT, 1),
    "4p count": (ACC.replace(players=4), Mode.COUNT, 1),
    "4p board": (ACC.replace(players=4), Mode.BOARD, 1),
    "4p partners claim muggins": (MUGGINS.replace(players=4, partnerships=True), Mode.CLAIM, 1),
    "hoyle claim": (HOYLE.replace(muggins=MugginsScope.HOYLE), Mode.CLAIM, 1),
    "leaflet claim heels muggins": (LEAFLET.replace(muggins=MugginsScope.LEAFLET), Mode.CLAIM, 1),
    "five-card claim match": (FIVE_CARD, Mode.CLAIM, 3),
    "custom 61": (ACC.replace(name="club", game_length=61, crib_four_flush=True, heels_peg_out=False), Mode.CLAIM, 1),
}


def random_events(seed: int, rules: Rules, mode: Mode, match: int) -> list[Event]:
    return [event for event, _ in random_game_events(random.Random(seed), rules, mode, match)]


def assert_round_trip(events: list[Event]) -> str:
    text = export_record(events)
    parsed = parse_record(text).events
    if parsed != events:
        first = next(i for i, (a, b) in enumerate(zip(parsed, events)) if a != b) if len(parsed) == len(events) else min(len(parsed), len(events))
        pytest.fail(f"event {first}: {events[first:first + 1]} came back as {parsed[first:first + 1]}\n{text}")
    return text


# -- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("seed", range(3))
def test_random_games_round_trip(config: str, seed: int) -> None:
    rules, mode, match = CONFIGS[config]
    assert_round_trip(random_events(seed, rules, mode, match))


def test_muggins_and_claims_appear_in_the_round_trips() -> None:
    kinds = set()
    for seed in range(3):
        text = assert_round_trip(random_events(seed, *CONFIGS["2p claim muggins match"]))
        kinds |= {line.split()[0] for line in text.splitlines() if line}
    assert {"Muggins", "Show", "Play:", "Crib:", "Starter:", "Next"} <= kinds
    assert "=" in text


def insert_irregularities(events: list[Event], rng: random.Random) -> list[Event]:
    """Penalties and misdeals at random places, kept only where the engine accepts them."""
    out = list(events)
    for _ in range(12):
        at = rng.randrange(1, len(out))
        extra: Event = rng.choice([Penalty(rng.randrange(2), rng.choice([-1, 1, 2]), rng.choice(["renege", 'said "go" wrongly', "exposed card; {oops}"])), Misdeal()])
        trial = out[:at] + [extra] + out[at:]
        try:
            Game(trial)
        except CribpiError:
            continue
        out = trial
    return out


@pytest.mark.parametrize("seed", range(4))
def test_penalties_and_misdeals_round_trip(seed: int) -> None:
    events = insert_irregularities(random_events(seed, *CONFIGS["2p claim muggins match"]), random.Random(seed))
    text = assert_round_trip(events)
    assert "Penalty" in text


def test_hand_cards_and_discards_round_trip() -> None:
    cards = Card.parse
    events: list[Event] = [
        NewGame(("Mary Ann", "crib"), MUGGINS, Mode.CLAIM, first_dealer=1, review=True),
        Discard(0, (cards("KS"), cards("QH"))),
        Starter(cards("JD")), Claim(1, 1),  # his heels under-claimed
        Lay(0, cards("5C")), Claim(0, 0),
    ]
    text = assert_round_trip(events)
    assert '[Players "Mary Ann" "crib"]' in text
    assert 'Discard "Mary Ann": KS QH' in text
    assert "Starter: JD=1" in text


def test_undo_is_not_exported_use_the_events_in_force() -> None:
    game = Game(random_events(0, ACC, Mode.COUNT, 1)[:12])
    game.apply(Undo(2))
    assert parse_record(export_record(game.events)).events == game.events
    with pytest.raises(RecordError, match="Undo"):
        export_record(game.journal)


def test_export_refuses_events_the_engine_refuses() -> None:
    with pytest.raises(RecordError, match=r"event 2 \(lay\)"):
        export_record([NewGame(("A", "B"), first_dealer=0), Lay(0, Card.parse("5H"))])
    with pytest.raises(RecordError, match="NewGame"):
        export_record([])


# -- tags -------------------------------------------------------------------------------------


def test_free_tags_are_kept_and_game_tags_come_from_the_event() -> None:
    events = random_events(1, *CONFIGS["2p count"])
    tags = {"Event": 'Club "night"', "Date": "2026-11-22", "Table": "3", "Players": "ignored"}
    record = parse_record(export_record(events, tags))
    assert record.tags["Event"] == 'Club "night"'
    assert record.tags["Table"] == "3"
    assert record.tags["Players"] == "Ann, Ben"
    again = parse_record(record.text())
    assert (again.tags, again.events) == (record.tags, record.events)


def test_hand_written_tags() -> None:
    text = """
    [Players "Alice, Bob, Carol, Dave"]   ; one quoted list also works
    [Rules "ACC"]
    [Partnerships "yes"]
    [Muggins "acc"]
    [Game "61"]
    [Mode "claim"]
    [Match "3"]
    [Dealer "bob"]
    """
    first = parse_record(text).events[0]
    assert first == NewGame(("Alice", "Bob", "Carol", "Dave"),
                            ACC.replace(players=4, partnerships=True, muggins=MugginsScope.ACC, game_length=61),
                            Mode.CLAIM, 3, 1)


# -- hand-written records ---------------------------------------------------------------------


def test_comments_and_layout_are_ignored() -> None:
    text = """; a comment line
    [Event "Semicolons ; and {braces} inside quotes stay"]
    [Players "A" "B"] [Dealer "A"]
    {a comment
     over two lines}
    Crib: 7C 8D 7H 8S
    starter : 6h            ; case and spacing do not matter
    Play: QH 5C {fifteen two} 10d 6D |
    play: 2C 4H 4S 4D
    """
    with pytest.raises(RecordError, match="line 3"):
        parse_record(text)  # two tags on one line is not a tag
    record = parse_record(text.replace('[Players "A" "B"] [Dealer "A"]', '[Players "A" "B"]\n[Dealer "A"]'))
    assert record.tags["Event"] == "Semicolons ; and {braces} inside quotes stay"
    assert Game(record.events).state.scores == (59, 2)


def test_lines_give_each_event_its_source_line() -> None:
    record = parse_record('[Players "A" "B"]\n[Dealer "A"]\n\nStarter: 5H\nPlay: 5C\nPlay: 6C\n')
    assert record.lines == [1, 4, 5, 6]


@pytest.mark.parametrize(("text", "pattern"), [
    ('[Players "A" "B"]\n[Dealer "A"]\nStarter: 6X', r"line 3: '6X': expected the starter card"),
    ('[Players "A" "B"]\n[Dealer "A"]\nStarter: 6H\nPlay: QH zz', r"line 4: 'zz': expected a card .*go, \| or =N"),
    ('[Players "A" "B"]\n[Dealer "A"]\nDance: 6H', r"line 3: 'Dance': expected a statement: Cut:"),
    ('[Players "A" "B"]\n[Dealer "A"]\nStarter: 6H\nPlay: QH | 5C', r"line 4: '\|'.*count is at 10"),
    ('[Players "A" "B"]\n[Dealer "A"]\nStarter: 6H\nPlay: QH 6H', r"line 4: 6H laid by A is refused: .*already been seen"),
    ('[Players "A" "B"]\n[Dealer "A"]\nStarter: 6H\nPlay: QH=2', r"line 4: '=2'.*claim"),
    ('[Players "A" "B"]\n[Dealer "A"]\nMuggins Zed 2', r"line 3: 'Zed': expected a player's name: A, B"),
    ('[Players "A" "B"]\n[Dealer "A"]\nPenalty A 2 renege', r"line 3: 'renege': expected the reason in quotes"),
    ('[Players "A" "B"]\n[Dealer "A"]\nDeal 2: A deals', r"line 3: 'Deal 2: A'.*deal 1, dealt by A"),
    ('[Players "A" "B"]\n{ never closed\nStarter: 6H', r"line 2: '\{' opens a comment that is never closed"),
    ('[Players "A" "B"]\n[Dealer "A"]\nPenalty A 2 "renege\n', r"line 3: .*quote that is never closed"),
    ('[Players "A" "B"]\n[Event "open\n', r"line 2: .*expected a tag such as"),
    ('[Mode "count"]\nStarter: 6H', r"line 2: the record needs a \[Players"),
    ('[Players "A" "B"]\n[Mode "fast"]\nCut: 5H 6H', r"line 2: 'fast': expected board, count or claim"),
    ('[Players "A" "B"]\n[Rules "hoyel"]', r"line 2: 'hoyel': expected a rule preset"),
    ('[Players "A" "B"]\n[Muggins "always"]', r"line 2: 'always': expected a value for muggins: use off, acc"),
    ('[Players "A" "B"]\nCut: 5H 6H\n[Event "late"]', r"line 3: .*tags belong at the top"),
    ('[Players "A" "B" "C"]\n[Partnerships "yes"]', r"line 2: .yes.: partnerships need 4"),
    ('', r"line 1: the record is empty"),
])
def test_errors_name_the_line_the_token_and_what_is_accepted(text: str, pattern: str) -> None:
    with pytest.raises(RecordError, match=pattern):
        parse_record(text)


# -- the seeds' worked examples ---------------------------------------------------------------


def replay_file(name: str) -> tuple[Game, list[tuple[str, int, str, str]]]:
    record = parse_record((RECORDS / name).read_text(encoding="utf-8"))
    game = Game()
    pegs = []
    for event in record.events:
        for effect in game.apply(event):
            if isinstance(effect, Pegged):
                pegs.append((game.state.names[effect.seat], effect.points, effect.reason, effect.explain))
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
    assert state.games[-1].winner == 1 and state.games[-1].scores == (102, 133)
    assert pegs[-1][:3] == ("Ben", 24, "hand")  # Ben, the pone, is out on his hand
    last_deal = state.deal
    assert last_deal is not None and last_deal.hand_totals == ((1, 24),)  # Ann's 29 is never counted


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.crib")), ids=lambda p: p.name)
def test_record_files_export_back_to_the_same_events(path: Path) -> None:
    record = parse_record(path.read_text(encoding="utf-8"))
    again = parse_record(record.text())
    assert (again.tags, again.events) == (record.tags, record.events)


def test_the_records_in_the_docs_parse() -> None:
    doc = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```crib\n(.*?)```", doc, flags=re.S)
    assert len(blocks) >= 4
    for block in blocks:
        parse_record(block)


# -- cribpi replay ----------------------------------------------------------------------------


def test_replay_prints_scores_reasons_and_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "002_hoyle_pone_counts_out.crib")]) == 0
    out = capsys.readouterr().out
    assert "Ben wins 121-102" in out  # the game ends in the game hole
    assert re.search(r"Ben\s+\+24\s+hand: fifteen two, .* twenty-four\s+Ann 102, Ben 133", out)
    assert out.rstrip().endswith("the match is over")


def test_replay_json_lists_scoring_events(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", str(RECORDS / "003_interesting_play.crib")]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["name"], r["points"], r["reason"]) for r in rows][-2:] == [("Dealer", 24, "hand"), ("Dealer", 24, "crib")]
    assert rows[-1]["scores"] == {"Dealer": 59, "Pone": 2}
    assert rows[0]["explain"] == "fifteen two" and rows[0]["line"] == 17


def test_replay_shows_muggins_and_overclaims(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "claims.crib"
    path.write_text('[Players "A" "B"]\n[Muggins "acc"]\n[Mode "claim"]\n[Dealer "B"]\n'
                    "Starter: 2D\nPlay: 5H=0 TH=3\nMuggins B 2\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "! muggins: A missed" not in out  # 5 alone scores nothing
    assert "! overclaim: B claimed 3 but has 2" in out
    assert "! wrong-muggins" in out


def test_replay_bad_record_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.crib"
    path.write_text('[Players "A" "B"]\n[Dealer "A"]\nStarter: 5H\nPlay: 5C 5C\n', encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "bad.crib: line 4: 5C laid by A is refused" in err
    assert main(["replay", str(tmp_path / "missing.crib")]) == 2
    assert "cannot be read" in capsys.readouterr().err
