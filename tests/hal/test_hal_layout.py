from __future__ import annotations

from pathlib import Path

import pytest

from cribpi.exc import ConfigError
from cribpi.hal.layout import load_layout, parse_layout
from cribpi.hal.sim import SimPegboard
from cribpi.views.board import BoardModel, TrackModel
from cribpi.views.leds import render_board

LAYOUTS = sorted((Path(__file__).parents[2] / "hardware" / "layouts").glob("*.toml"))


def test_there_are_samples():
    names = {p.stem for p in LAYOUTS}
    assert {"two-track-serpentine", "three-track-serpentine", "four-track-serpentine", "two-track-folded"} <= names


@pytest.mark.parametrize("path", LAYOUTS, ids=lambda p: p.stem)
def test_every_sample_loads_and_places_a_frame(path):
    layout = load_layout(path)
    assert len(layout.holes) == 121 * layout.tracks
    assert len(set(layout.holes.values()) | set(layout.counters.values())) == len(layout.holes) + len(layout.counters)
    colours = [(255, 0, 0), (0, 0, 255), (0, 255, 0), (255, 255, 0)][: layout.tracks]
    board = BoardModel(tuple(TrackModel(10 + t, 5, c, 1) for t, c in enumerate(colours)))
    frame = render_board(board)
    strips = layout.place(frame)
    for track in range(1, layout.tracks + 1):
        strip, index = layout.holes[(track, 10 + track - 1)]
        assert strips[strip][index] == frame.hole(track - 1, 10 + track - 1)


@pytest.mark.parametrize("path", LAYOUTS, ids=lambda p: p.stem)
def test_the_simulated_board_lights_each_peg_on_its_led(path):
    """The pixel pegboard draws the board model through the layout: every track's front peg
    lands on the LED the layout gives its hole, and nothing else on that LED's strip is lit
    but marks, rear pegs and game counters."""
    layout = load_layout(path)
    colours = [(255, 0, 0), (0, 0, 255), (0, 255, 0), (255, 255, 0)][: layout.tracks]
    board = SimPegboard(layout=layout)
    board.show(BoardModel(tuple(TrackModel(100 + t, 0, c) for t, c in enumerate(colours)), brightness=1.0))
    lit = {(s, i) for s, leds in board.strips.items() for i, colour in enumerate(leds) if colour != (0, 0, 0)}
    pegs = {layout.holes[(t + 1, 100 + t)] for t in range(layout.tracks)}
    assert lit == pegs
    for t, colour in enumerate(colours):
        strip, index = layout.holes[(t + 1, 100 + t)]
        assert board.strips[strip][index] == colour


def two_tracks(*leds, counters=0):
    return {"tracks": 2, "game_counters": counters, "run": [{"strip": 0, "leds": list(leds)}]}


FULL = ("1:1-121", "2:121-1")


def test_serpentine_rows_count_down():
    layout = parse_layout(two_tracks(*FULL))
    assert layout.holes[(1, 1)] == (0, 0)
    assert layout.holes[(2, 121)] == (0, 121)
    assert layout.holes[(2, 1)] == (0, 241)
    assert layout.strip_lengths == {0: 242}


def test_skip_and_games_and_start():
    data = {"tracks": 2, "game_counters": 2, "run": [
        {"strip": 1, "start": 3, "leds": ["1:1-121", "skip 4", "games 1:1-2"]},
        {"strip": 1, "leds": ["2:1-121", "games 2:2-1"]},
    ]}
    layout = parse_layout(data)
    assert layout.holes[(1, 1)] == (1, 3)
    assert layout.counters[(1, 1)] == (1, 3 + 121 + 4)
    assert layout.holes[(2, 1)] == (1, 3 + 121 + 4 + 2)
    assert layout.counters[(2, 2)] == (1, 3 + 121 + 4 + 2 + 121)


@pytest.mark.parametrize(
    "data, message",
    [
        (two_tracks("1:1-121"), r"track 2 = 'hole 1-121 unmapped'"),
        (two_tracks("1:1-120", "2:1-121"), r"hole 121 unmapped"),
        (two_tracks(*FULL, "1:5"), r"run\[0\].leds\[2\] = 'hole 1:5'.*already mapped by run\[0\].leds\[0\]"),
        (two_tracks(*FULL, "3:1"), r"track 3 does not exist: tracks are 1-2"),
        (two_tracks(*FULL, "1:0-3"), r"holes are 1-121"),
        (two_tracks(*FULL, "one to ten"), r"'one to ten' is not valid: one of"),
        (two_tracks(*FULL, "games 1:1"), r"game_counters is 0"),
        (two_tracks(*FULL, counters=1), r"games 1 unmapped"),
        ({"tracks": 5, "run": []}, r"tracks = 5 .*integer 2-4"),
        ({"tracks": 2}, r"run = None"),
        ({"tracks": 2, "colour": 1, "run": []}, r"colour = 1 .*unknown key"),
        ({"tracks": 2, "run": [{"strip": -1, "leds": ["1:1"]}]}, r"run\[0\].strip = -1"),
    ],
)
def test_errors_name_the_entry(data, message):
    with pytest.raises(ConfigError, match=message):
        parse_layout(data, "board.toml")


def test_led_used_twice():
    data = {"tracks": 2, "run": [
        {"strip": 0, "leds": ["1:1-121"]},
        {"strip": 0, "start": 120, "leds": ["2:1-121"]},
    ]}
    with pytest.raises(ConfigError, match=r"run\[1\].leds\[0\] = 'strip 0 index 120'.*used by run\[0\]"):
        parse_layout(data, "board.toml")


def test_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("tracks = [")
    with pytest.raises(ConfigError, match="bad.toml: not valid TOML"):
        load_layout(bad)
    with pytest.raises(ConfigError, match="no such layout file"):
        load_layout(tmp_path / "none.toml")

def test_a_huge_skip_is_refused():
    import pytest as _pytest

    from cribpi.exc import ConfigError as _ConfigError
    from cribpi.hal.layout import parse_layout as _parse

    with _pytest.raises(_ConfigError, match="skip"):
        _parse({"tracks": 2, "run": [{"leds": ["1:1-121", "skip 99999999", "2:1-121"]}]})
