"""The firmware's logic under CPython: framing, the board's commands, the conversation
(handshake, repeats, gaps, bad lines), the key debouncer and matrix."""

import pytest

import board as fw_board
import keys as fw_keys
import layout as fw_layout
import link as fw_link
import machine
import protocol as fw
from tests.firmware import rig


def line(seq, body):
    return fw.frame(seq, body).rstrip(b"\n")


def greeted(now=0):
    controller = fw_link.Controller(fw_layout, now)
    assert b" HELLO %s " % fw.PROTOCOL.encode() in controller.handle(line(1, "HELLO 2.0"), now)
    return controller


def test_crc8_is_crc8_smbus():
    assert fw.crc8(b"123456789") == 0xF4  # the catalogue's check value for CRC-8/SMBUS


def test_a_frame_round_trips():
    assert fw.frame(0x3F, "T 0 12 6 1") == b"3F T 0 12 6 1*CC\n"
    assert fw.unframe(line(0x3F, "T 0 12 6 1")) == (0x3F, ["T", "0", "12", "6", "1"])


@pytest.mark.parametrize("raw, code", [
    (b"3F T 0 12 6 1*CD", "CRC"),
    (b"3F T 0 12 6 1", "PARSE"),
    (b"garbage\x03\xff", "PARSE"),
    (b"3f T 0 12 6 1*CC", "PARSE"),  # lower-case hex is not the protocol's
    (b"3F T 0 12 6 1*cc", "PARSE"),
    (b"3F T  0*00", "PARSE"),
    (b"x" * 200, "LONG"),
])
def test_a_bad_line_raises_with_its_code(raw, code):
    if code == "PARSE" and raw.endswith(b"*00"):
        raw = raw[:-2] + b"%02X" % fw.crc8(raw[:-3])
    with pytest.raises(fw.ProtocolError) as info:
        fw.unframe(raw)
    assert info.value.code == code


def test_commands_set_state_and_a_repeat_changes_nothing():
    b = fw_board.Board()
    assert b.apply(["T", "0", "12", "6", "6"]) is True
    assert b.tracks[0].front == 12 and b.tracks[0].rear == 6 and b.tracks[0].flash == (7, 8, 9, 10, 11, 12)
    assert b.apply(["T", "0", "12", "6", "6"]) is False
    assert b.apply(["T", "0", "12", "6", "9"]) and b.tracks[0].flash == (4, 5, 6, 7, 8, 9, 10, 11, 12)
    assert b.apply(["C", "1", "0040FF"]) and b.tracks[1].colour == (0, 64, 255)
    assert b.apply(["M", "1"]) and b.marks == (1,)
    assert b.apply(["A", "alert", "1", "-"]) and (b.animation, b.anim_track, b.winner) == ("alert", 1, None)


@pytest.mark.parametrize("words, code, says", [
    (["T", "0", "6", "12", "0"], "ARG", "rear 12 is past front 6"),
    (["T", "2", "1", "0", "0"], "ARG", "track 2 is not 0-1"),
    (["T", "0", "5", "0", "6"], "ARG", "flash count 6 is not 0-5"),
    (["T", "0", "1"], "ARG", "T takes 4 arguments, not 2"),
    (["T", "0", "05", "0", "0"], "ARG", "front 05 is not a number"),
    (["T", "0", "+5", "0", "0"], "ARG", "front +5 is not a number"),
    (["T", "0", "0x5", "0", "0"], "ARG", "front 0x5 is not a number"),
    (["T", "0", "5_5", "0", "0"], "ARG", "front 5_5 is not a number"),
    (["M", "5_5"], "ARG", "marks 5_5 is not a hole bitmap"),
    (["M", "0x5"], "ARG", "marks 0x5 is not a hole bitmap"),
    (["M", "a"], "ARG", "marks a is not a hole bitmap"),
    (["F", "0", "XYZ"], "ARG", "flash XYZ is not a hole bitmap"),
    (["C", "0", "0040ff"], "ARG", "colour 0040ff is not RRGGBB"),
    (["C", "0", "red"], "ARG", "colour red is not RRGGBB"),
    (["Z", "3", "100"], "ARG", "game length 100 is not 121 or 61"),
    (["A", "dance", "-", "-"], "ARG", "animation dance is not one of"),
    (["A", "winner", "-", "-"], "ARG", "the winner animation needs a track"),
    (["Q"], "UNKNOWN", "unknown command Q"),
    (["B", "0", "HELLO"], "ARG", "current cap HELLO is not a number"),  # the brightness is not set either
    (["B", "500", "1000000000"], "ARG", "current cap 1000000000 is not 0-100000"),
])
def test_bad_commands_are_refused_and_change_nothing(words, code, says):
    b = fw_board.Board()
    before = b.key()
    with pytest.raises(fw.ProtocolError) as info:
        b.apply(words)
    assert info.value.code == code and says in info.value.reason
    assert b.key() == before


def test_nothing_is_applied_before_the_handshake():
    controller = fw_link.Controller(fw_layout)
    assert b"ERR VERSION no handshake" in controller.handle(line(1, "Z 2 121"), 0)
    assert controller.lost(0)


def test_the_handshake_names_versions_tracks_leds_and_keys():
    reply = fw_link.Controller(fw_layout).handle(line(7, "HELLO 2.3"), 0)
    seq, words = fw.unframe(reply.rstrip(b"\n"))
    assert seq == 7 and words[:5] == ["HELLO", fw.PROTOCOL, fw.FIRMWARE, "2", "126"]
    assert words[5].split(",")[:3] == ["A", "2", "3"] and "menu" in words[5]


def test_another_major_version_is_refused_naming_both():
    controller = fw_link.Controller(fw_layout)
    controller.handle(line(1, "HELLO 3.0"), 0)
    reply = controller.handle(line(2, "Z 2 121"), 0)
    assert b"ERR VERSION host protocol 3.0 refused: firmware %s speaks %s" % (fw.FIRMWARE.encode(), fw.PROTOCOL.encode()) in reply


def test_a_repeated_line_gets_the_same_answer_and_is_applied_once():
    controller = greeted()
    first = controller.handle(line(2, "T 0 5 0 1"), 100)
    controller.board.tracks[0].flash = ()
    assert controller.handle(line(2, "T 0 5 0 1"), 200) == first == fw.frame(2, "ACK")
    assert controller.board.tracks[0].flash == ()  # not applied again


def test_a_gap_in_sequence_numbers_asks_for_the_full_state():
    controller = greeted()
    assert b"ERR GAP expected 02" in controller.handle(line(5, "T 0 5 0 0"), 0)
    assert controller.board.tracks[0].front == 0
    assert controller.handle(line(6, "T 0 5 0 0"), 0) == fw.frame(6, "ACK")  # counting from the gap


def test_a_damaged_line_is_answered_with_err_and_the_next_one_works():
    controller = greeted()
    damaged = bytearray(line(2, "T 0 5 0 0"))
    damaged[5] ^= 0x01
    assert controller.handle(bytes(damaged), 0).startswith(b"02 ERR CRC")
    assert controller.handle(line(2, "T 0 5 0 0"), 0) == fw.frame(2, "ACK")


def test_silence_longer_than_the_timeout_is_host_lost():
    controller = greeted(now=1000)
    assert not controller.lost(1000 + fw.HOST_TIMEOUT_MS)
    assert controller.lost(1001 + fw.HOST_TIMEOUT_MS)
    controller.handle(line(2, "PING"), 5000)
    assert not controller.lost(5000)


def test_lines_split_anywhere_and_overlong_ones_come_out_once():
    buffer = fw_link.LineBuffer()
    assert buffer.feed(b"01 A") == [] and buffer.feed(b"CK\r\n02") == [b"01 ACK"]
    assert buffer.feed(b"x" * 300) == [None]
    assert buffer.feed(b"yyy\n03 PING\n") == [b"03 PING"]  # the rest of the long line dropped
    fresh = fw_link.LineBuffer()
    assert fresh.feed(b"x" * 300 + b"\n04 PING\n") == [None, b"04 PING"]


def test_card_reader_lines_become_single_words():
    import cards

    lines = cards.CardLines()
    assert lines.feed(b"5H\r\n10 d\n") == ["5H", "10d"]
    assert lines.feed(b"Q\xe2\x99") == [] and lines.feed(b"\xa0\n") == ["QS"]  # a suit symbol, split in the middle
    assert lines.feed("10\u2661\n".encode()) == ["10H"]
    assert lines.feed(b"x" * 40 + b"\n\xff\n7*C\n\n") == ["?", "?", "7C"]  # too long, not ASCII: not a card
    assert lines.feed(b"x" * 16 + b"\n" + b"x" * 17 + b"\n") == ["x" * 16, "?"]


def test_a_key_counts_only_after_the_debounce_and_repeats_its_hold_while_held():
    keys = fw_keys.Debouncer(debounce_ms=20, hold_ms=800, repeat_ms=400)
    assert keys.update({"5"}, 0) == []
    assert keys.update(set(), 10) == []  # a bounce: never reported
    assert keys.update({"5"}, 30) == [] and keys.update({"5"}, 49) == []
    assert keys.update({"5"}, 50) == [("KD", "5")]
    assert keys.update({"5"}, 849) == [] and keys.update({"5"}, 850) == [("KH", "5")]
    assert keys.update({"5"}, 1249) == [] and keys.update({"5"}, 1250) == [("KH", "5")]  # a repeat
    assert keys.update({"5"}, 1500) == [] and keys.update({"5"}, 1650) == [("KH", "5")]
    assert keys.update(set(), 1660) == [] and keys.update(set(), 1680) == [("KU", "5")]
    assert not keys.update(set(), 3000)  # let go: no more repeats
    assert keys.update({"5"}, 3000) == [] and keys.update({"5"}, 3020) == [("KD", "5")]
    assert keys.update({"5"}, 3819) == [] and keys.update({"5"}, 3820) == [("KH", "5")]  # a new press: HOLD_MS again


def test_the_matrix_reads_the_key_at_its_row_and_column():
    import settings

    matrix = fw_keys.Matrix()
    machine.press({(settings.ROW_PINS[2], settings.COL_PINS[1]), (settings.ROW_PINS[3], settings.COL_PINS[0])})
    try:
        assert sorted(matrix.scan()) == sorted(["C", "ok"])
        machine.press({(settings.ROW_PINS[3], settings.COL_PINS[5])})  # no key there
        assert matrix.scan() == []
    finally:
        machine.press(())


def test_no_firmware_module_uses_neopixel_or_turns_interrupts_off():
    import ast
    import importlib

    for path in sorted(rig.FIRMWARE.glob("*.py")):
        importlib.import_module(path.stem)  # the neopixel stand-in fails any import of it
        tree = ast.parse(path.read_text())
        names = {alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                 for alias in node.names} | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        calls = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert "neopixel" not in names and "disable_irq" not in calls, path.name


def test_the_matrix_needs_the_columns_pull_ups(tmp_path):
    """The board has no resistors: a column reads high only through the Pico's own pull-up, so
    a matrix whose columns are plain inputs reads every key of a scanned row as pressed (the
    stub ``machine.Pin`` honours ``pull`` as the emulated RP2040 does)."""
    import settings

    class Plain(fw_keys.Matrix):
        def __init__(self):
            super().__init__()
            self.cols = [machine.Pin(p, machine.Pin.IN) for p in settings.COL_PINS]

    machine.press({(settings.ROW_PINS[2], settings.COL_PINS[1])})
    try:
        assert fw_keys.Matrix().scan() == ["C"]
        plain = sorted(Plain().scan())
        assert plain != ["C"] and len(plain) == sum(1 for row in settings.KEYMAP for key in row if key)
    finally:
        machine.press(())
