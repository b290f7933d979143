"""A game whose muggins was switched part-way (``MugginsSet``) is written as ``Switch muggins
on`` (or ``off``) and read back to the same events, the same table."""

from __future__ import annotations

import pytest

from cribpi.game import Claim, Lay, Mode, Muggins, MugginsSet, NewGame, Starter, replay
from cribpi.record import RecordReadError, export_record, parse_record
from cribpi.rules import Card, MugginsScope, get_rules


def events() -> list:
    c = Card.parse
    return [NewGame(("Ann", "Bob"), get_rules("acc"), Mode.CLAIM, first_dealer=1), Starter(c("2S")),
            Lay(0, c("5C")), Lay(1, c("TD")), Claim(1, 1), MugginsSet(True), Lay(0, c("6H")), Lay(1, c("6S")),
            Claim(1, 1), Muggins(0, 1), MugginsSet(False)]


def test_a_switch_is_written_and_read_back():
    text = export_record(events())
    assert "\nSwitch muggins on\n" in text and "\nSwitch muggins off\n" in text
    assert '[Muggins' not in text  # the game was started without it: the tag says how it began
    record = parse_record(text)
    assert record.events == events()
    assert replay(record.events) == replay(events()) and replay(record.events).rules.muggins is MugginsScope.OFF
    assert record.text() == text


def test_a_switch_before_the_first_deal_and_a_wrong_one():
    text = '[Players "Ann, Bob"]\n[Mode "claim"]\n\nSwitch muggins on\nCut: 5H KD\n'
    record = parse_record(text)
    assert record.events[1] == MugginsSet(True) and replay(record.events).rules.muggins is MugginsScope.ACC
    with pytest.raises(RecordReadError, match="on or off"):
        parse_record('[Players "Ann, Bob"]\n[Mode "claim"]\n\nSwitch muggins maybe\n')
    with pytest.raises(RecordReadError, match="claim mode only"):
        parse_record('[Players "Ann, Bob"]\n\nSwitch muggins on\n')
