"""Reading records: comments and layout, the line of each event, and errors that say, as
types, where the record is wrong and what was wrong there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cribpi.exc import CribpiError, RecordError, RulesError
from cribpi.game import Game
from cribpi.record import (
    RecordReadError, RecordRefusedError, RecordStateError, RecordSyntaxError, RecordTagError, UnclosedError,
    parse_record,
)
from cribpi.record.tokens import tokens, without_comments

ROOT = Path(__file__).resolve().parents[2]
TWO = '[Players "A" "B"]\n[Dealer "A"]\n'


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
    with pytest.raises(RecordTagError) as info:
        parse_record(text)  # two tags on one line are one Players tag with one odd name
    assert (info.value.line, info.value.tag) == (3, "Players")
    record = parse_record(text.replace('[Players "A" "B"] [Dealer "A"]', '[Players "A" "B"]\n[Dealer "A"]'))
    assert record.tags["Event"] == "Semicolons ; and {braces} inside quotes stay"
    assert Game(record.events).state.scores == (59, 2)


def test_lines_give_each_event_its_source_line() -> None:
    record = parse_record('[Players "A" "B"]\n[Dealer "A"]\n\nStarter: 5H\nPlay: 5C\nPlay: 6C\n')
    assert record.lines == [1, 4, 5, 6]


def test_comments_over_lines_keep_the_line_numbers() -> None:
    assert without_comments('a {b\nc} d ; e\n"f ; {g}" h\\') == ["a  ", " d ", '"f ; {g}" h\\']
    assert without_comments('"open ; quote\nnext') == ['"open ; quote', "next"]


def test_tokens_unescape_quoted_strings() -> None:
    found = tokens(r'Penalty "Mary \"M\" Ann" -2 5C=2 |', 1)
    assert [(t.text, t.quoted) for t in found] == [
        ("Penalty", False), ('Mary "M" Ann', True), ("-2", False), ("5C", False), ("=", False), ("2", False),
        ("|", False)]


@pytest.mark.parametrize(("text", "kind", "line", "what"), [
    (TWO + "Starter: 6X", RecordSyntaxError, 3, {"token": "6X", "expected": "the starter card (e.g. 6H)"}),
    (TWO + "Starter: 6H\nPlay: QH zz", RecordSyntaxError, 4, {"token": "zz"}),
    (TWO + "Dance: 6H", RecordSyntaxError, 3, {"token": "Dance"}),
    (TWO + '"Crib": 5H', RecordSyntaxError, 3, {"token": '"Crib"'}),
    (TWO + "Muggins Zed 2", RecordSyntaxError, 3, {"token": "Zed"}),
    (TWO + "Penalty A 2 renege", RecordSyntaxError, 3, {"token": "renege"}),
    (TWO + "Claim A", RecordSyntaxError, 3, {"token": None, "expected": "the points claimed"}),
    (TWO + "Starter: 6H extra", RecordSyntaxError, 3, {"token": "extra", "expected": "the end of the line"}),
    (TWO + "Next round", RecordSyntaxError, 3, {"token": "round"}),
    ('[Players "A" "B"]\n[Event "open\n', RecordSyntaxError, 2, {"token": '[Event "open'}),
    ('[Players "A" "B"]\n{ never closed\nStarter: 6H', UnclosedError, 2, {"token": "{", "what": "comment"}),
    (TWO + 'Penalty A 2 "renege\n', UnclosedError, 3, {"token": '"renege', "what": "quote"}),
    (TWO + "Starter: 6H\nPlay: QH | 5C", RecordStateError, 4, {"token": "|"}),
    (TWO + "Starter: 6H\nPlay: QH=2", RecordStateError, 4, {"token": "=2"}),
    (TWO + "Deal 2: A deals", RecordStateError, 3, {"token": "Deal 2: A"}),
    (TWO + "Play: 5H", RecordStateError, 3, {"token": "5H"}),
    ('[Players "A" "B"]\n[Mode "claim"]\n[Dealer "A"]\nShow crib 3', RecordStateError, 4, {"token": "Show"}),
    (TWO + "Starter: 6H\nPlay: QH 6H", RecordRefusedError, 4, {"what": "6H laid by A"}),
    ('[Mode "count"]\nStarter: 6H', RecordTagError, 2, {"tag": "Players"}),
    ("", RecordTagError, 1, {"tag": "Players"}),
    ('[Players "A" "B"]\n[Mode "fast"]\nCut: 5H 6H', RecordTagError, 2, {"tag": "Mode", "value": "fast"}),
    ('[Players "A" "B"]\n[Mode "a" "b"]', RecordTagError, 2, {"tag": "Mode", "value": "a b"}),
    ('[Players "A" "B"]\n[Match "2"]', RecordTagError, 2, {"tag": "Match", "value": "2"}),
    ('[Players "A" "B"]\n[Dealer "Zed"]', RecordTagError, 2, {"tag": "Dealer", "value": "Zed"}),
    ('[Players "A" "B"]\n[Review "maybe"]', RecordTagError, 2, {"tag": "Review", "value": "maybe"}),
    ('[Players "A" "B"]\n[Event]', RecordTagError, 2, {"tag": "Event", "value": None}),
    ('[Players "A" "B"]\n[event "x"]\n[Event "y"]', RecordTagError, 3, {"tag": "Event"}),
    ('[Players "A" "B"]\nCut: 5H 6H\n[Event "late"]', RecordTagError, 3, {"tag": "Event"}),
    ('[Players "A" "B"]\n[Rules "hoyel"]', RecordTagError, 2, {"tag": "Rules", "value": "hoyel"}),
    ('[Players "A" "B"]\n[Rules "club"]', RecordTagError, 2, {"tag": "Rules", "value": "club"}),
    ('[Players "A" "B"]\n[Rules "club"]\n[Base "nope"]', RecordTagError, 3, {"tag": "Base", "value": "nope"}),
    ('[Players "A" "B"]\n[Muggins "always"]', RecordTagError, 2, {"tag": "Muggins", "value": "always"}),
    ('[Players "A" "B"]\n[game_length "100"]', RecordTagError, 2, {"tag": "Game", "value": "100"}),
    ('[Players "A" "B"]\n[Game "x"]', RecordTagError, 2, {"tag": "Game", "value": "x"}),
    ('[Players "A" "B"]\n[Tournament "perhaps"]', RecordTagError, 2, {"tag": "Tournament", "value": "perhaps"}),
    ('[Players "A" "B"]\n[OverclaimPenalty "-1"]', RecordTagError, 2, {"tag": "OverclaimPenalty"}),
    ('[Players "A" "B" "C"]\n[Partnerships "yes"]', RecordTagError, 2, {"tag": "Partnerships", "value": "yes"}),
    ('[Players "A" "B" "C" "D"]\n[Partnerships "yes"]\n[FiveCard "yes"]', RecordTagError, 3, {"tag": "FiveCard"}),
    ('[Players "A" "B" "C" "D"]\n[Rules "five-card"]', RecordTagError, 1, {"tag": "Players"}),
    ('[Players "A" "B" "C" "D" "E"]', RecordTagError, 1, {"tag": "Players"}),
])
def test_errors_say_where_and_what_was_wrong(text: str, kind: type[RecordReadError], line: int,
                                             what: dict[str, object]) -> None:
    with pytest.raises(RecordReadError) as info:
        parse_record(text)
    error = info.value
    assert type(error) is kind
    assert isinstance(error, RecordError) and isinstance(error, CribpiError) and isinstance(error, ValueError)
    assert error.line == line
    assert {name: getattr(error, name) for name in what} == what


def test_a_refusal_carries_the_engines_error() -> None:
    with pytest.raises(RecordRefusedError) as info:
        parse_record(TWO + "Starter: 6H\nPlay: QH 6H")
    assert isinstance(info.value.refusal, RulesError)


def test_messages_name_the_source_the_line_the_token_and_what_is_accepted() -> None:
    with pytest.raises(RecordSyntaxError) as info:
        parse_record(TWO + "Starter: 6H\nPlay: QX", source="game.crib")
    assert str(info.value) == "game.crib: line 4: 'QX': expected a card (e.g. 5H, TD), go, | or =N"
    with pytest.raises(RecordRefusedError) as refused:
        parse_record(TWO + "Starter: 6H\nPlay: QH 6H")
    assert str(refused.value) == f"line 4: 6H laid by A is refused: {refused.value.refusal}"


def test_the_records_in_the_docs_parse() -> None:
    doc = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```crib\n(.*?)```", doc, flags=re.S)
    assert len(blocks) >= 4
    for block in blocks:
        parse_record(block)
