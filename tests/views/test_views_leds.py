from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribpi.exc import ViewError
from cribpi.views.board import Animation, BoardModel, TrackModel, mark_holes
from cribpi.views.leds import FLASH_STEPS, LedFrame, LedSettings, apply_power, estimate_current_ma, render_board

RED, BLUE, GREEN = (255, 0, 0), (0, 64, 255), (0, 255, 0)
NO_MARKS = LedSettings(current_cap_ma=100_000)
M121, M61 = mark_holes(121), mark_holes(61)

BOARDS = {  # name: (board, animation step)
    "start": (BoardModel((TrackModel(0, 0, RED), TrackModel(0, 0, BLUE)), marks=M121), 0),
    "midgame": (BoardModel(
        (TrackModel(47, 41, RED, 1), TrackModel(52, 44, BLUE)), marks=M121, flash=((42, 43, 44, 45, 46, 47),)
    ), 0),
    "three_tracks_61": (BoardModel(
        (TrackModel(30, 28, RED), TrackModel(12, 8, BLUE, 2), TrackModel(61, 55, GREEN, 1)),
        game_length=61, marks=M61, winner_track=2,
    ), 0),
    "winner_anim": (BoardModel(
        (TrackModel(121, 117, RED, 3), TrackModel(88, 80, BLUE, 1)), marks=M121,
        animation=Animation.WINNER, anim_track=0, winner_track=0,
    ), 3),
    "muggins_anim": (BoardModel(
        (TrackModel(20, 18, RED), TrackModel(30, 24, BLUE)), marks=M121,
        flash=((), (25, 26, 27, 28, 29, 30)), animation=Animation.ALERT, anim_track=1,
    ), 0),
}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_frame_matches_golden(name, golden):
    board, step = BOARDS[name]
    golden.json(f"leds_{name}", render_board(board, step=step).to_json())


def test_front_bright_rear_dim_gap_dark():
    frame = render_board(BoardModel((TrackModel(12, 6, RED), TrackModel(0, 0, BLUE)), brightness=1), NO_MARKS)
    assert frame.hole(0, 12) == RED
    assert frame.hole(0, 6) == (51, 0, 0)
    assert all(frame.hole(0, h) == (0, 0, 0) for h in range(7, 12))
    assert all(c == (0, 0, 0) for c in frame.tracks[1])


def test_marks_document_which_holes():
    assert {61, 91, 121, 5, 120} <= set(mark_holes(121))
    assert 89 not in mark_holes(121) and 92 not in mark_holes(121)
    assert 31 in mark_holes(61) and 61 in mark_holes(61)


def test_flash_blinks_then_stops():
    board = BoardModel((TrackModel(10, 4, RED), TrackModel(0, 0, BLUE)), brightness=1, flash=((5, 6, 7),))
    lit = [render_board(board, NO_MARKS, step=s).hole(0, 6) for s in range(FLASH_STEPS + 2)]
    assert lit[0] == lit[2] == (255, 255, 255)
    assert lit[1] == (0, 0, 0)
    assert lit[FLASH_STEPS] == lit[FLASH_STEPS + 1] == (0, 0, 0)


def test_game_counters_and_winner_hole():
    board = BoardModel((TrackModel(121, 110, RED, 2), TrackModel(80, 70, BLUE, 7)), brightness=1, winner_track=0)
    frame = render_board(board, NO_MARKS)
    assert frame.games[0] == (RED, RED, (0, 0, 0), (0, 0, 0), (0, 0, 0))
    assert frame.games[1] == (BLUE,) * 5
    assert frame.hole(0, 121) == RED


def test_brightness_scales_every_led():
    board = BOARDS["midgame"][0]
    full = render_board(replace(board, brightness=1.0), LedSettings(current_cap_ma=1e5))
    half = render_board(replace(board, brightness=0.5), LedSettings(current_cap_ma=1e5))
    assert half.hole(1, 52) == (0, 32, 128) and full.hole(1, 52) == BLUE


def test_current_estimate():
    frame = LedFrame((((255, 255, 255),) * 2,), ((),))
    assert estimate_current_ma(frame) == pytest.approx(120.0)


def test_cap_scales_the_whole_frame():
    white = LedFrame((((255, 255, 255),) * 121,) * 2, (((255, 255, 255),) * 5,) * 2)
    capped = apply_power(white, LedSettings(brightness=1.0, current_cap_ma=1000))
    assert estimate_current_ma(capped) <= 1000
    assert estimate_current_ma(capped) > 900  # floor() loses a little
    assert len({c for c in capped.all_leds()}) == 1  # scaled evenly


@given(
    st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=1, max_size=300),
    st.floats(0, 1),
    st.floats(1, 20_000),
)
def test_cap_is_never_exceeded(colours, brightness, cap):
    frame = LedFrame((tuple(colours),), ((),))
    out = apply_power(frame, LedSettings(brightness=brightness, current_cap_ma=cap))
    assert estimate_current_ma(out) <= cap + 1e-9


def test_frame_json_round_trips():
    frame = render_board(BOARDS["midgame"][0])
    text = json.dumps(frame.to_json())
    assert LedFrame.from_json(json.loads(text)) == frame


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(tracks=(TrackModel(5, 6, RED),)), "rear=6 front=5"),
        (dict(tracks=(TrackModel(130, 6, RED),)), "front=130"),
        (dict(tracks=(TrackModel(5, 0, RED),), game_length=100), "game_length 100"),
        (dict(tracks=(TrackModel(5, 0, RED),), winner_track=1), "winner_track=1"),
        (dict(tracks=(TrackModel(5, 0, (300, 0, 0)),)), "colour"),
        (dict(tracks=()), "1 to 4 tracks"),
        (dict(tracks=(TrackModel(5, 0, RED),), brightness=float("nan")), "brightness nan"),
        (dict(tracks=(TrackModel(5, 0, RED),), marks=(0,)), "hole 0"),
        (dict(tracks=(TrackModel(5, 0, RED),), flash=((62,),), game_length=61), "hole 62"),
        (dict(tracks=(TrackModel(5, 0, RED),), animation=Animation.ALERT), "needs anim_track"),
        (dict(tracks=(TrackModel(5, 0, RED),), animation="muggins", anim_track=0), "not one of"),
    ],
)
def test_bad_models_are_refused(kwargs, message):
    with pytest.raises(ViewError, match=message):
        BoardModel(**kwargs)


def test_bad_settings_are_refused():
    with pytest.raises(ViewError, match="brightness 1.5"):
        LedSettings(brightness=1.5)
    with pytest.raises(ViewError, match="current cap nan"):
        LedSettings(current_cap_ma=float("nan"))


def test_waiting_pulses_every_game_hole():
    board = BoardModel((TrackModel(10, 4, RED), TrackModel(3, 0, BLUE)), brightness=1, animation=Animation.WAITING)
    on, off = render_board(board, NO_MARKS, step=0), render_board(board, NO_MARKS, step=2)
    assert on.hole(0, 121) == on.hole(1, 121) == NO_MARKS.alert_colour
    assert off.hole(0, 121) == off.hole(1, 121) == (0, 0, 0)
    assert on.hole(0, 10) == RED  # the pegs stay where they are
