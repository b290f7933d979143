"""The shared readers of :mod:`cribpi.inputs` every command, configuration, layout and record
goes through: one number parser (ASCII digits only) and the quoting of what an error repeats."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribpi.exc import ConfigError
from cribpi.hal.actions import Action
from cribpi.inputs import escaped, int_option, number_option, one_line_message, parse_int, parse_number, shown

#: Every character Python's int() reads as a digit, but for ASCII 0-9 (Arabic-Indic,
#: Devanagari, fullwidth, mathematical bold...): hundreds of them.
OTHER_DIGITS = [chr(c) for c in range(sys.maxunicode + 1)
                if unicodedata.decimal(chr(c), None) is not None and not "0" <= chr(c) <= "9"]


def test_int_takes_hundreds_of_other_digits_and_parse_int_none() -> None:
    assert len(OTHER_DIGITS) > 600
    for digit in OTHER_DIGITS:
        assert int(digit + "1") == unicodedata.decimal(digit) * 10 + 1  # what cribpi must not do
        assert parse_int(digit) is None and parse_int("1" + digit) is None, repr(digit)
        assert parse_number(digit) is None and parse_number("1." + digit) is None, repr(digit)


@pytest.mark.parametrize("text", ["1_2", " 12", "12 ", "+", "", "0x1f", "1e3", "²", "١٢", "１２", "9" * 21])
def test_parse_int_refuses_what_int_might_take(text: str) -> None:
    assert parse_int(text) is None


@pytest.mark.parametrize("text, number", [("0", 0), ("61", 61), ("-2", -2), ("+7", 7), ("007", 7)])
def test_parse_int_reads_ascii_digits(text: str, number: int) -> None:
    assert parse_int(text) == number


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1_0", "١", "1e999", ".", "1.2.3"])
def test_parse_number_refuses(text: str) -> None:
    assert parse_number(text) is None


@pytest.mark.parametrize("make", [lambda: int_option(1, 16), lambda: int_option(choices=(121, 61)),
                                  lambda: number_option(0, 60)])
def test_argparse_types_refuse_other_digits_naming_them(make) -> None:  # type: ignore[no-untyped-def]
    parse = make()
    for digit in ("\u0661", "\uff11", "\u0967", "\U0001d7ce"):  # Arabic-Indic, fullwidth, Devanagari, math bold
        with pytest.raises(Exception, match=r"is not valid: expected"):
            parse(digit)


@pytest.mark.parametrize("line", ["peg 0 \u0661\u0662", "peg \uff11 2", "muggins 1 \u0662", "peg 0 1_2"])
def test_a_key_script_line_takes_ascii_digits_only(line: str) -> None:
    with pytest.raises(ConfigError, match=r"is not an action \(.* is not a whole number in digits 0-9\)"):
        Action.parse(line)


def test_a_key_script_line_still_takes_its_numbers() -> None:
    assert Action.parse("peg 1 12") == Action.peg(1, 12)


def test_shown_cuts_a_huge_value_and_says_its_length() -> None:
    assert shown("x" * 5000).endswith("...' (5000 characters)") and len(shown("x" * 5000)) < 80
    assert shown(10**5000) == "a number of 5001 digits"
    assert shown("ok") == "'ok'"


@pytest.mark.parametrize("text", ["\x1b[2J", "\x1b]0;title\x07", "\x9b31m", "\u202e", "a\rb", "\x00", "\x7f"])
def test_shown_and_escaped_never_let_a_control_character_through(text: str) -> None:
    assert shown(text).isprintable() and escaped(text).isprintable()
    assert escaped("games" + text + ".db").startswith("games") and escaped("games" + text + ".db").endswith(".db")


def test_escaped_writes_a_path_as_it_is_with_escapes() -> None:
    assert escaped("games\x1b[2J.db") == "games\\x1b[2J.db"
    assert escaped("/home/ann/my games.db") == "/home/ann/my games.db"
    assert escaped("/p" * 3000) == "/p" * 29 + "..." + "/p" * 29 + " (6000 characters)"


@given(st.text(max_size=3000))
def test_any_error_message_becomes_one_printable_bounded_line(message: str) -> None:
    line = one_line_message("cribpi x: " + message)
    assert line.isprintable() and "\n" not in line and len(line) <= 1000


def test_one_line_message_cuts_a_long_quoted_value_and_keeps_short_ones() -> None:
    line = one_line_message(f"argument --mode: invalid choice: {'x' * 5000!r} (choose from 'board', 'count')")
    assert line.startswith("argument --mode: invalid choice: 'xxx") and "...' (5000 characters)" in line
    assert line.endswith("(choose from 'board', 'count')")
    assert one_line_message("the deal's number 'ok' is") == "the deal's number 'ok' is"


def test_a_path_said_back_on_success_is_escaped_in_full(tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from cribpi.cli import main

    monkeypatch.delenv("CRIBPI_CONFIG", raising=False)
    folder = tmp_path / ("x" * 150 + "\x1b[2J")
    folder.mkdir()
    config = folder / "table\x1b]0;pwned\x07.toml"
    config.write_text('backend = "sim"\ndb = "games.db"\n')
    assert main(["config", "--check", str(config)]) == 0
    out = capsys.readouterr().out
    assert out[:-1].isprintable() and out.count("\n") == 1
    assert f"{tmp_path}/{'x' * 150}\\x1b[2J/table\\x1b]0;pwned\\x07.toml: valid" in out  # not cut
    assert f"journal {tmp_path}/{'x' * 150}\\x1b[2J/games.db" in out
