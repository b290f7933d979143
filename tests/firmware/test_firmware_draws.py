"""The firmware draws what the host would: the same board through the protocol, drawn by the
firmware's Python (under CPython, and under the real MicroPython VM), equals
cribpi.views.leds.render_board placed through the same layout file, pixel for pixel."""

import json
import subprocess
from pathlib import Path

import pytest

from cribpi.hal.controller.flash import layout_module
from cribpi.hal.layout import load_layout
from cribpi.hal.protocol import board_commands, changed_commands, frame
from cribpi.views.board import Animation, BoardModel, TrackModel, mark_holes
from cribpi.views.leds import LedSettings, render_board
from tests.firmware import rig

LAYOUTS = rig.ROOT / "hardware" / "layouts"
RED, BLUE, GREEN, YELLOW = (255, 0, 0), (0, 64, 255), (0, 255, 0), (255, 160, 0)
TWO = (TrackModel(12, 6, RED, games_won=2), TrackModel(4, 0, BLUE))
FOUR = (TrackModel(121, 115, RED, 3), TrackModel(90, 77, BLUE, 1), TrackModel(61, 60, GREEN), TrackModel(5, 3, YELLOW, 9))
BOARDS = {
    "pegs and flash": BoardModel(TWO, brightness=0.5, marks=mark_holes(121), flash=((7, 8, 9, 10, 11, 12),)),
    "odd flash": BoardModel(TWO, brightness=1.0, flash=((), (1, 3, 4))),
    "alert": BoardModel(TWO, brightness=0.25, animation=Animation.ALERT, anim_track=0, flash=((7, 12),)),
    "winner on 61": BoardModel((TrackModel(61, 55, RED), TrackModel(40, 30, BLUE)), game_length=61,
                               brightness=1.0, marks=mark_holes(61), animation=Animation.WINNER,
                               anim_track=0, winner_track=0),
    "waiting": BoardModel(TWO, brightness=0.75, animation=Animation.WAITING),
    "flash out of order": BoardModel((TrackModel(111, 110, RED), TrackModel(121, 119, BLUE)), brightness=1.0,
                                     flash=((), (119, 117, 118, 119, 120, 121))),
}
STEPS = list(range(9))


def script(board, cap_ma, steps=STEPS):
    bodies = ["HELLO 2.0", *changed_commands(None, board_commands(board, cap_ma))]
    data = b"".join(frame(seq, body) for seq, body in enumerate(bodies, start=1))
    return {"input": data.hex(), "steps": steps}


def host_frames(board, layout, cap_ma, steps=STEPS):
    settings = LedSettings(current_cap_ma=cap_ma, game_counter_leds=layout.game_counters)
    placed = [layout.place(render_board(board, settings, step)) for step in steps]
    return [[[(g << 24) | (r << 16) | (b << 8) for r, g, b in leds] for _, leds in sorted(p.items())] for p in placed]


def in_cpython(layout_file, the_script):
    import types

    import probe

    layout = types.SimpleNamespace()
    exec(layout_module(load_layout(layout_file)), layout.__dict__)
    return probe.run(the_script, layout)


def in_vm(tmp_path, layout_file, the_script):
    folder = rig.firmware_copy(tmp_path / "fw", layout_module(load_layout(layout_file)))
    done = subprocess.run([rig.micropython(), str(Path(rig.__file__).with_name("probe.py"))],
                          input=json.dumps(the_script), capture_output=True, text=True, timeout=60,
                          env={"MICROPYPATH": rig.mpy_path(folder, rig.STUBS)})
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", BOARDS)
def test_the_firmware_draws_the_board_as_the_host_does(name):
    board, layout_file = BOARDS[name], LAYOUTS / "two-track-serpentine.toml"
    got = in_cpython(layout_file, script(board, 2000))
    assert [reply.split("*")[0].split(" ")[1] for reply in got["replies"]] == ["HELLO"] + ["ACK"] * (len(got["replies"]) - 1)
    assert got["frames"] == host_frames(board, load_layout(layout_file), 2000)


def test_the_current_cap_scales_a_bright_frame_down_as_on_the_host():
    layout_file = LAYOUTS / "four-track-serpentine.toml"
    board = BoardModel(FOUR, brightness=1.0, marks=mark_holes(121), flash=((116, 117, 118, 119, 120, 121),),
                       winner_track=0, animation=Animation.WINNER, anim_track=0)
    got = in_cpython(layout_file, script(board, 150))
    assert got["frames"] == host_frames(board, load_layout(layout_file), 150)
    total = sum(((w >> 24) & 255) + ((w >> 16) & 255) + ((w >> 8) & 255) for strip in got["frames"][0] for w in strip)
    assert 140 < total / 255 * 20 <= 150  # held at the cap, not far under it


def test_the_vm_runs_the_same_logic_with_the_same_answers(tmp_path):
    layout_file = LAYOUTS / "four-track-serpentine.toml"
    board = BoardModel(FOUR, brightness=0.5, marks=mark_holes(121), flash=((), (78, 80)),
                       animation=Animation.ALERT, anim_track=1)
    the_script = script(board, 300, steps=[0, 1, 2])
    the_script["input"] += (b"garbage\x03\xff\n" + b"y" * 300 + b"\n" + frame(99, "Q 1") + frame(99, "T 9 1 0 0")).hex()
    the_script["keys"] = [[["5"], 0], [[], 5], [["5"], 10], [["5"], 40], [["5", "ok"], 900], [["ok"], 950], [["ok"], 980]]
    vm = in_vm(tmp_path, layout_file, the_script)
    assert vm == in_cpython(layout_file, the_script)
    assert vm["frames"] == host_frames(board, load_layout(layout_file), 300, [0, 1, 2])
    following = len(vm["replies"]) - 4 + 1  # the sequence number after the board's last command
    gap = f"63 ERR GAP expected {following:02X}: send the full state"
    assert [r.split("*")[0] for r in vm["replies"][-4:]] == [
        "-- ERR PARSE not a frame", "-- ERR LONG line over 127 bytes", gap, gap]  # a repeat: the same answer
    assert vm["events"] == [["KD", "5"], ["KH", "5"], ["KD", "ok"], ["KU", "5"]]
