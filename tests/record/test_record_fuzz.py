"""The record reader under hypothesis: any text either reads or raises a RecordError (never a
bare ValueError, never a traceback); whatever reads writes back and reads again identically;
tag values and names round-trip exactly or are refused on the way in; random complete games
of every kind come back as the same events."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cribpi.exc import RecordError
from cribpi.game.events import Mode, NewGame
from cribpi.game.simulate import random_game_events
from cribpi.record import RecordWriteError, export_record, parse_record
from cribpi.rules import ACC, FIVE_CARD, HOYLE, MugginsScope

HEAD = '[Players "Ann" "Ben"]\n[Dealer "Ann"]\n'
#: The record's own marks and words, digits of every kind, and line breaks of every kind.
PIECES = st.sampled_from([
    "[", "]", '"', "\\", "{", "}", ";", ":", "=", "|", "-", " ", "\n", "\r", "\t", "\x85", "\u2028", "\0",
    "0", "1", "5", "31", "²", "٣", "9" * 5000, "H", "C", "D", "S", "5H", "JD", "KS", "♥", "go", "Play",
    "Deal", "Starter", "Hand", "Show", "crib", "Claim", "Muggins", "Penalty", "Peg", "End", "Next game",
    "Misdeal", "Cut", "Ann", "Ben", "deals", "[Match", "[Game", "[Rules", "[Mode", '"claim"', "[Players",
])
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read_or_refuse(text: str) -> None:
    """Read ``text``; if it reads, its written form must read back to the same events."""
    try:
        record = parse_record(text)
    except RecordError:
        return
    again = parse_record(record.text())
    assert again.events == record.events


@FUZZ
@given(st.lists(PIECES, max_size=40).map("".join), st.booleans())
@example('[Match "²"]\n', True)
@example("Deal " + "9" * 5000 + ": Ann deals\n", True)
@example('[Game "' + "9" * 5000 + '"]\n', False)
@example('[Event "a\rb"]\n', True)
def test_any_text_reads_or_is_refused_as_a_record_error(text: str, with_head: bool) -> None:
    read_or_refuse((HEAD if with_head else "") + text)


@FUZZ
@given(st.text(max_size=300))
def test_any_unicode_reads_or_is_refused(text: str) -> None:
    read_or_refuse(text)


@FUZZ
@given(event=st.text(max_size=30), names=st.lists(st.text(min_size=1, max_size=12), min_size=2, max_size=4,
                                                   unique=True))
@example(event="a\rb", names=["Ann", "Ben"])
@example(event='say "go" \\ twice', names=["Mary Ann", "crib"])
def test_tag_values_and_names_round_trip_exactly_or_are_refused(event: str, names: list[str]) -> None:
    try:
        text = export_record([NewGame(tuple(names), ACC.replace(players=len(names)), first_dealer=0)],
                             {"Event": event})
    except RecordWriteError as refused:
        # a line break or another control character (ESC...), or the engine's refusal: a blank name
        assert "line break" in str(refused) or "control character" in str(refused) or refused.refusal is not None
        return
    record = parse_record(text)
    assert record.tags["Event"] == event
    assert record.events[0].names == tuple(names)


KINDS = [
    (ACC, Mode.COUNT, 1), (ACC, Mode.CLAIM, 3), (ACC, Mode.BOARD, 1),
    (ACC.replace(muggins=MugginsScope.ACC), Mode.CLAIM, 1), (ACC.replace(players=3), Mode.COUNT, 1),
    (ACC.replace(players=4, partnerships=True), Mode.CLAIM, 1), (HOYLE, Mode.CLAIM, 1), (FIVE_CARD, Mode.COUNT, 1),
]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(KINDS), declare=st.booleans())
def test_random_complete_games_read_back_identically(seed: int, kind: tuple, declare: bool) -> None:
    rules, mode, match = kind
    events = [e for e, _ in random_game_events(random.Random(seed), rules, mode, match, declare_hands=declare)]
    record = parse_record(export_record(events, {"Event": f"seed {seed}"}))
    assert record.events == events
    assert record.tags["Event"] == f"seed {seed}"


@pytest.mark.parametrize("text, message", [
    ('[Match "²"]\n', r"line 2: '²': expected an odd number of games 1-99"),
    ('[Match "99999999999999999999999"]\n', r"expected an odd number of games 1-99"),
    ('[Game "٦١"]\n', r"line 2: .*use a whole number"),
    ("Deal " + "9" * 5000 + ": Ann deals\n", r"line 3: '9999.*\.\.\.' \(5000 characters\): expected the deal's number"),
    ('[Event "a\rb"]\n', r"line 2: 'a\\rb' holds a line break"),
])
def test_numbers_and_line_breaks_that_once_raised_valueerror(text: str, message: str) -> None:
    head = '[Players "Ann" "Ben"]\n' if text.startswith("[") else HEAD
    with pytest.raises(RecordError, match=message) as info:
        parse_record(head + text)
    assert len(str(info.value)) < 200 and "\n" not in str(info.value)
