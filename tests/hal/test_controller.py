"""The controller backend's host side: the board as protocol commands (bytes per peg move,
what changes), reading the controller's lines, its events as actions, finding the port, the
[controller] configuration, the wiring sharing one link, and a controller that is not there."""

import time

import pytest

from cribpi.config import Config, DisplayConfig, PartsConfig, load_config
from cribpi.exc import ConfigError, HardwareError
from cribpi.hal.actions import Action, Kind
from cribpi.hal.controller import LinkTiming, open_controller
from cribpi.hal.controller.keys import KeyEvents, action_for
from cribpi.hal.controller.ports import find_port
from cribpi.hal.protocol import (
    Line, LineError, board_commands, changed_commands, frame, holes_hex, parse_line,
)
from cribpi.views.board import BoardModel, TrackModel, mark_holes
from cribpi.wiring import open_parts

RED, BLUE = (255, 0, 0), (0, 64, 255)


def board(front=12, rear=6, flash=None, **kw):
    gap = tuple(range(rear + 1, front + 1))
    return BoardModel((TrackModel(front, rear, RED), TrackModel(4, 0, BLUE)), marks=mark_holes(121),
                      flash=((gap if flash is None else flash),), **kw)


def test_a_peg_move_is_one_short_line():
    before, after = board_commands(board(12, 6), 2000), board_commands(board(121, 115), 2000)
    bodies = changed_commands(before, after)
    assert bodies == ["T 0 121 115 6"]
    assert max(len(frame(seq, bodies[0])) for seq in range(256)) <= 24


def test_flash_up_to_the_front_peg_is_a_count_and_any_other_its_own_command():
    assert board_commands(board(12, 6, flash=(3, 4, 5, 6, 7, 8, 9, 10, 11, 12)), 2000)["T0"] == ("T 0 12 6 10",)
    assert board_commands(board(12, 6, flash=()), 2000)["T0"] == ("T 0 12 6 0",)
    assert board_commands(board(12, 6, flash=(10, 8, 9, 10, 11, 12)), 2000)["T0"] == ("T 0 12 6 5",)
    commands = board_commands(board(12, 6, flash=(3, 12)), 2000)
    assert commands["T0"] == ("T 0 12 6 0", f"F 0 {holes_hex((3, 12))}")
    assert holes_hex((1, 121)) == f"{1 | 1 << 120:X}"


def test_a_new_game_length_or_track_count_sends_everything_from_z():
    two = board_commands(board(), 2000)
    three = board_commands(BoardModel((TrackModel(1, 0, RED),) * 3), 2000)
    bodies = changed_commands(two, three)
    assert bodies[0] == "Z 3 121" and len(bodies) == 1 + 3 * 3 + 3
    assert changed_commands(two, two) == []


@pytest.mark.parametrize("raw, says", [
    (b"01 ACK*00", "checksum"),
    (b"ACK", "not a frame"),
    (b"zz ACK*12", "not a frame"),
    (b"x" * 300, "over 127 bytes"),
])
def test_a_bad_line_from_the_controller_is_a_line_error(raw, says):
    with pytest.raises(LineError, match=says):
        parse_line(raw)


def test_a_line_from_the_controller_round_trips():
    assert parse_line(frame(0x10, "KD 5").rstrip(b"\n")) == Line(0x10, "KD", ("5",))
    reply = b"-- ERR LONG line over 127 bytes"
    from cribpi.hal.protocol import crc8

    assert parse_line(reply + b"*%02X" % crc8(reply)) == Line(None, "ERR", ("LONG", "line", "over", "127", "bytes"))


@pytest.mark.parametrize("verb, arg, action", [
    ("KD", "5", Action.parse("rank 5")), ("KD", "T", Action.parse("rank 10")), ("KD", "H", Action.parse("suit H")),
    ("KD", "menu", Action.parse("menu")), ("KH", "5", None),
    ("KD", "peg", Action.peg_key()), ("KD", "muggins", Action.muggins_key()), ("KU", "peg", None),
    ("KU", "5", None), ("CARD", "QS", Action.parse("card QS")),
])
def test_events_become_the_apps_actions(verb, arg, action):
    assert action_for(Line(1, verb, (arg,))) == action


def test_undo_is_undo_when_let_go_and_undo_long_when_held():
    keys = KeyEvents()
    tapped = [keys.action(Line(n, verb, ("undo",))) for n, verb in enumerate(("KD", "KU"))]
    held = [keys.action(Line(n, verb, ("undo",))) for n, verb in enumerate(("KD", "KH", "KU"))]
    assert tapped == [None, Action.parse("undo")] and held == [None, Action.parse("undo_long"), None]
    repeated = [keys.action(Line(n, verb, ("undo",))) for n, verb in enumerate(("KD", "KH", "KH", "KH", "KU"))]
    assert repeated == [None] + [Action.parse("undo_long")] * 3 + [None]  # a held UNDO keeps undoing


def test_an_unknown_key_or_card_is_shown_not_applied():
    for line in (Line(1, "KD", ("banana",)), Line(1, "CARD", ("ZZ",))):
        action = action_for(line)
        assert action.kind is Kind.REJECTED and ("banana" in action.text or "ZZ" in action.text)


def test_the_port_is_the_configured_one_else_udevs_else_by_id_else_none(tmp_path):
    udev, by_id = tmp_path / "cribpi-controller", str(tmp_path / "usb-MicroPython*")
    assert find_port("socket://localhost:7000", udev=str(udev)) == "socket://localhost:7000"
    (tmp_path / "usb-MicroPython_Board_in_FS_mode_e661-if00").touch()
    assert find_port(None, udev=str(udev), by_id=by_id).endswith("e661-if00")
    udev.touch()
    assert find_port(None, udev=str(udev), by_id=by_id) == str(udev)
    with pytest.raises(HardwareError, match="no controller found: .* 2E8A:0005"):
        find_port(None, udev=str(tmp_path / "none"), by_id=str(tmp_path / "nothing*"))


def test_controller_timing_comes_from_the_configuration(tmp_path):
    path = tmp_path / "cribpi.toml"
    path.write_text('[controller]\nport = "/dev/ttyACM1"\nack_timeout_ms = 50\nretries = 5\nreconnect_max_ms = 2000\n')
    config = load_config(path)
    assert config.controller_port == "/dev/ttyACM1"
    assert config.controller_timing == LinkTiming(ack_timeout_s=0.05, retries=5, backoff_max_s=2.0)


@pytest.mark.parametrize("text, says", [
    ("ack_timeout_ms = 0", "controller.ack_timeout_ms = 0 is not valid"),
    ("retries = 99", "controller.retries = 99 is not valid"),
    ("retries = 1.5", "controller.retries = 1.5 is not valid: expected int"),
    ("reconnect_max_ms = nan", "controller.reconnect_max_ms = nan is not valid"),
    ("baud = 9600", "controller.baud = 9600 is not valid: unknown key; accepted: port, ack_timeout_ms"),
])
def test_bad_controller_settings_name_the_key_value_and_what_is_accepted(tmp_path, text, says):
    path = tmp_path / "cribpi.toml"
    path.write_text(f"[controller]\n{text}\n")
    with pytest.raises(ConfigError, match=says.replace("(", r"\(")):
        load_config(path)


def test_a_controller_that_is_not_there_is_a_problem_not_an_error(tmp_path):
    config = Config(controller_port=str(tmp_path / "no-such-tty"), controller_timing=LinkTiming(backoff_s=0.02),
                    parts=PartsConfig(inputs=("sim", "controller"), pegboard="controller", displays=(DisplayConfig("sim"),)))
    with open_parts(config) as parts:
        pegboard = parts.pegboard
        assert pegboard.link is parts.inputs.sources[1].link  # one link for both faces
        deadline = time.monotonic() + 30  # only bounds a failure: both cores may be busy
        while pegboard.problem != "controller not found: retrying" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pegboard.problem == "controller not found: retrying"
        pegboard.show(board())  # kept for when it comes
        assert pegboard.link.shown is None
    assert not pegboard.link._thread.is_alive()  # closed with the last part on it


def test_a_part_refuses_after_close_and_closes_twice():
    part = open_controller("loop://", timing=LinkTiming(ack_timeout_s=0.01, retries=0, backoff_s=0.02))
    part.close()
    part.close()
    with pytest.raises(HardwareError, match="closed"):
        part.show(board())
    assert part.problem is None


def test_a_port_that_only_echoes_is_not_a_controller_and_is_retried_not_raised():
    part = open_controller("loop://", timing=LinkTiming(ack_timeout_s=0.01, retries=1, backoff_s=0.02))
    try:
        deadline = time.monotonic() + 30  # only bounds a failure: both cores may be busy
        while part.link.hello is None and part.problem == "controller: connecting" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert part.problem == "controller not found: retrying" and part.link.hello is None
    finally:
        part.close()
