"""Random bytes into both parsers: the firmware's (line buffer, framing, commands) answers
every line with a frame the host can read, and never raises; the host's turns any line into
a Line or a LineError, and any event into an action or nothing."""

from hypothesis import given, settings
from hypothesis import strategies as st

import board as fw_board
import layout as fw_layout
import link as fw_link
import protocol as fw
from cribpi.hal.controller.keys import action_for
from cribpi.hal.protocol import EVENTS, LineError, frame, parse_line

WORDS = st.lists(st.sampled_from(list(fw.COMMANDS) + ["0", "1", "12", "121", "-", "FF00AA", "alert", "x", "-1", "",
                                                     "0x5", "+5", "5_5", "05", "ff00aa", "2.1", "1" * 40, "F" * 31]),
                 min_size=1, max_size=6)


def controller():
    c = fw_link.Controller(fw_layout)
    c.handle(fw.frame(1, "HELLO " + fw.PROTOCOL).rstrip(b"\n"), 0)
    return c


@settings(max_examples=300, deadline=500)
@given(st.binary(max_size=600))
def test_the_firmware_answers_any_bytes_with_frames(data):
    c, lines = controller(), fw_link.LineBuffer()
    for line in lines.feed(data):
        reply = c.handle(line, 0)
        parsed = parse_line(reply.rstrip(b"\n"))  # a frame the host can read
        assert parsed.verb in ("ACK", "ERR", "HELLO")


@settings(max_examples=300, deadline=500)
@given(st.lists(WORDS, max_size=12))
def test_the_firmware_takes_any_framed_words_without_raising_anything_but_err(commands):
    c = controller()
    for seq, words in enumerate(commands, start=2):
        reply = c.handle(fw.frame(seq & 0xFF, " ".join(words)).rstrip(b"\n"), 0)
        parsed = parse_line(reply.rstrip(b"\n"))  # a line the host reads: every reason fits one
        assert parsed.verb in ("ACK", "ERR", "HELLO")
        assert "Error" not in reply.decode() and "syntax" not in reply.decode()  # its own words
        for track in c.board.tracks:
            assert 0 <= track.rear <= track.front <= c.board.game_length


@settings(max_examples=300, deadline=500)
@given(WORDS)
def test_a_refused_command_leaves_the_board_as_it_was(words):
    b = fw_board.Board()
    before = b.key()
    try:
        b.apply(words)
    except fw.ProtocolError as exc:
        assert exc.code in ("ARG", "UNKNOWN") and b.key() == before


@settings(max_examples=500, deadline=500)
@given(st.binary(max_size=300))
def test_the_host_reads_any_bytes_as_a_line_or_a_line_error(data):
    try:
        line = parse_line(data)
    except LineError:
        return
    if line.verb in EVENTS:
        action_for(line)  # an action, None, or a REJECTED action: never an exception


@settings(max_examples=300, deadline=500)
@given(st.sampled_from(EVENTS), st.text(max_size=20).filter(lambda t: "\n" not in t and "*" not in t))
def test_any_event_is_an_action_or_nothing(verb, arg):
    try:
        line = parse_line(frame(1, f"{verb} {arg}").rstrip(b"\n"))
    except LineError:
        return
    action = action_for(line)
    assert action is None or action.kind is not None
