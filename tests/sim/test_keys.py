"""The simulator's keys: peg entry that cannot be misread, hints for keys that do nothing, Esc."""

import pytest

from cribpi.hal import Action, Kind
from cribpi.sim.keys import BACKSPACE, ENTER, ESC, MAX_POINTS, KeyMapper


def typed(keys: KeyMapper, text: str, seats: int = 2, menu_open: bool = False) -> list[Action]:
    got = [keys.feed(k, seats=seats, menu_open=menu_open) for k in text]
    return [a for a in got if a is not None]


def test_seat_then_points_then_enter_pegs():
    keys = KeyMapper()
    assert typed(keys, "p2") == []
    assert keys.prompt == f"peg: seat 2, type the points (1-{MAX_POINTS}), then Enter"
    assert typed(keys, "12") == []
    assert "seat 2, 12 points: Enter pegs them" in keys.prompt
    assert typed(keys, ENTER) == [Action.peg(1, 12)]
    assert keys.entry is None and keys.prompt == ""


def test_p12p12_is_never_212():
    """The issue's case: a second p while a peg is typed says how to finish it; nothing is lost."""
    keys = KeyMapper()
    assert typed(keys, "p12p") == []
    assert "'p' does nothing now" in keys.notice and "Enter pegs them" in keys.notice
    assert typed(keys, "1") == []  # 21 points is allowed (typed after the refused p)
    assert typed(keys, "2") == []  # 212 is refused on the spot...
    assert keys.notice.startswith("212 points cannot be pegged at once (1-29); peg: seat 1, 21 points: Enter pegs")
    assert typed(keys, ENTER) == [Action.peg(0, 21)]  # ...and the peg stays what was shown


@pytest.mark.parametrize("points", ["30", "35", "99", "0"])
def test_points_over_29_or_zero_are_refused_as_typed(points):
    keys = KeyMapper()
    typed(keys, "p1" + points)
    assert "cannot be pegged at once" in keys.notice
    assert keys.entry is not None and int(keys.entry[2:] or "0") <= MAX_POINTS


def test_a_refused_digit_shows_the_points_enter_would_peg():
    """``p 1 3 0``: the refusal names the 3 points still pending, which Enter then pegs."""
    keys = KeyMapper()
    assert typed(keys, "p130") == []
    assert "30 points cannot be pegged at once" in keys.notice and "seat 1, 3 points: Enter pegs them" in keys.notice
    assert typed(keys, ENTER) == [Action.peg(0, 3)]


def test_a_seat_not_at_the_table_is_refused():
    keys = KeyMapper()
    assert typed(keys, "p3", seats=2) == []
    assert keys.notice == "seat 3 is not at this table: seats are 1-2"
    assert keys.entry == "p"  # still waiting for a seat
    assert typed(keys, ESC + "x4", seats=3) == [] and "seats are 1-3" in keys.notice
    assert typed(keys, "3", seats=3) == [] and "type the points called" in keys.prompt
    assert typed(keys, "30", seats=3) == [] and "30 points cannot be called" in keys.notice
    assert typed(keys, ENTER, seats=3) == [Action(Kind.MUGGINS, seat=2, points=3)]  # the call names its points


def test_backspace_and_esc_edit_the_entry():
    keys = KeyMapper()
    typed(keys, "p115" + BACKSPACE + "7")
    assert typed(keys, ENTER) == [Action.peg(0, 17)]
    typed(keys, "p1" + ESC)
    assert keys.entry is None and keys.notice == "entry dropped"
    assert typed(keys, ENTER) == [Action.parse("ok")]  # an ordinary OK once the entry is gone


def test_enter_without_points_asks_for_them():
    keys = KeyMapper()
    assert typed(keys, "p1" + ENTER) == []
    assert "type the points" in keys.notice


def test_an_unknown_key_gets_a_hint():
    keys = KeyMapper()
    assert typed(keys, "z") == []
    assert keys.notice == "'z' is not a key here: the keys are listed below"
    assert typed(keys, "5") == [Action.parse("rank 5")] and keys.notice == ""


def test_esc_closes_a_menu_and_does_nothing_otherwise():
    keys = KeyMapper()
    assert typed(keys, ESC, menu_open=True) == [Action(Kind.MENU)]
    assert typed(keys, ESC, menu_open=False) == []


def test_cards_and_plain_keys():
    keys = KeyMapper()
    assert typed(keys, "th") == [Action.parse("rank T"), Action.parse("suit H")]
    assert typed(keys, "gumU") == [Action.parse(w) for w in ("go", "undo", "menu", "undo_long")]


def test_a_seat_asked_for_is_shown_with_the_players_names() -> None:
    keys = KeyMapper()
    names = ("Ann", "Bob", "Cat")
    keys.feed("x", seats=3, names=names)
    assert keys.prompt == "muggins: type the caller's seat (1 Ann, 2 Bob, 3 Cat), Esc drops"
    keys.feed("3", seats=3, names=names)
    keys.feed("2", seats=3, names=names)
    assert keys.prompt == "muggins: seat 3 (Cat) calls 2 points: Enter calls it (Backspace, Esc drops)"


@pytest.mark.parametrize("digit", ["\u0662", "\uff12", "\u00b2"])  # Arabic-Indic 2, fullwidth 2, superscript 2
def test_a_digit_other_than_ascii_is_not_a_seat_or_points(digit):
    """str.isdigit() is true of these and int() reads two of them: the entry takes 0-9 only."""
    keys = KeyMapper()
    assert typed(keys, "p" + digit) == []
    assert keys.entry == "p" and "does nothing now" in keys.notice
    assert typed(keys, "1" + digit + "3" + ENTER) == [Action.peg(0, 3)]


@pytest.mark.parametrize("names", [("Red", "Green", "Blue"), ("Christopher1", "Maximiliana2", "Bartholomew3", "Anastasiaaa4")])
@pytest.mark.parametrize("first", ["x", "p"])
def test_a_seat_prompt_fits_80_columns_with_the_names_when_they_fit(names, first):
    """The muggins seat prompt of a 3-player game was cut at 80 columns ("...of the player who
    calls it (Esc..."); with four long names the seats are given by number only."""
    keys = KeyMapper()
    keys.feed(first, seats=len(names), names=names)
    assert len(keys.prompt) <= 80 and "Esc drops" in keys.prompt
    assert ("1 Red, 2 Green, 3 Blue" if len(names) == 3 else "(1-4)") in keys.prompt


def test_in_claim_mode_the_prompt_says_enter_claims():
    keys = KeyMapper()
    keys.claiming = True
    typed(keys, "p12", seats=2)
    assert keys.prompt == "claim: seat 1, 2 points: Enter claims them (Backspace, Esc drops)"
    keys.claiming = False
    assert keys.prompt == "peg: seat 1, 2 points: Enter pegs them (Backspace, Esc drops)"
