"""Board model -> LED frame: the pixels, for the parts that draw them (the simulator, a
directly wired strip). The controller does not use this: its firmware draws the board model.

A frame holds one colour per hole (hole 1 at index 0, the game hole 121 at index 120) for
each track, and the game-counter LEDs of each track. It is plain data: ``to_json()`` gives
lists of ``[r, g, b]``; :class:`cribpi.hal.layout.Layout` maps it to strips.

What the holes show, from the bottom layer up:

* the board's marks, dim;
* pegs: the front peg bright and the rear peg dim in the track's colour; the gap between them
  is the last score;
* flash: the holes just scored blink white for ``FLASH_STEPS`` animation steps;
* the winner: the game hole lit in the winner's colour; the ``WINNER`` animation runs a chase
  up the winner's track. The ``ALERT`` animation blinks the pegs and the game counters of
  ``anim_track`` red; ``WAITING`` pulses every game hole.
* game counters: the first ``games_won`` counter LEDs of a track lit in its colour.

Then the board's ``brightness`` scales the frame and the current cap scales it down further
when the estimate (``(r + g + b) / 255 * 20 mA`` per LED, the WS2812 figure) exceeds the cap.
``step`` counts animation steps (the drawing side's own clock, ``STEP_SECONDS`` apart).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cribpi.exc import ViewError
from cribpi.views.board import HOLES, RGB, Animation, BoardModel, TrackModel

__all__ = [
    "FLASH_STEPS", "STEP_SECONDS", "LedSettings", "LedFrame",
    "render_board", "apply_power", "estimate_current_ma",
]

FLASH_STEPS = 6
STEP_SECONDS = 0.2
OFF: RGB = (0, 0, 0)


@dataclass(frozen=True)
class LedSettings:
    """The drawing side's settings: the current cap, whether the table wants marks, the
    colours. ``brightness`` is where a table starts (the board model carries the live one)."""

    brightness: float = 0.5
    current_cap_ma: float = 2000.0
    marks: bool = True
    game_counter_leds: int = 5
    rear_level: float = 0.2
    mark_colour: RGB = (40, 40, 40)
    flash_colour: RGB = (255, 255, 255)
    alert_colour: RGB = (255, 0, 0)
    ma_per_channel: float = 20.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.brightness <= 1.0:
            raise ViewError(f"brightness {self.brightness} is not between 0 and 1")
        if not (math.isfinite(self.current_cap_ma) and 0 < self.current_cap_ma <= 100_000):
            raise ViewError(f"current cap {self.current_cap_ma} mA is not a number over 0 and up to 100000")
        if not 0 <= self.game_counter_leds <= 10:
            raise ViewError(f"game_counter_leds {self.game_counter_leds} is not 0-10")


@dataclass(frozen=True)
class LedFrame:
    """Colours per track hole (``tracks[t][hole - 1]``) and per game-counter LED."""

    tracks: tuple[tuple[RGB, ...], ...]
    games: tuple[tuple[RGB, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "tracks": [[list(c) for c in track] for track in self.tracks],
            "games": [[list(c) for c in leds] for leds in self.games],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LedFrame:
        def colours(rows: list[list[list[int]]]) -> tuple[tuple[RGB, ...], ...]:
            return tuple(tuple((int(r), int(g), int(b)) for r, g, b in row) for row in rows)

        return cls(colours(data["tracks"]), colours(data["games"]))

    def hole(self, track: int, hole: int) -> RGB:
        return self.tracks[track][hole - 1]

    def all_leds(self) -> list[RGB]:
        return [c for row in (*self.tracks, *self.games) for c in row]


def scale(colour: Sequence[int], factor: float) -> RGB:
    r, g, b = (min(255, max(0, round(c * factor))) for c in colour)
    return (r, g, b)


def _track_holes(board: BoardModel, number: int, settings: LedSettings, step: int) -> list[RGB]:
    track = board.tracks[number]
    holes = [OFF] * HOLES
    for hole in board.marks:
        holes[hole - 1] = settings.mark_colour
    if track.rear:
        holes[track.rear - 1] = scale(track.colour, settings.rear_level)
    if track.front:
        holes[track.front - 1] = track.colour
    if step < FLASH_STEPS and step % 2 == 0:
        for hole in board.flash_holes(number):
            if 1 <= hole <= HOLES:
                holes[hole - 1] = settings.flash_colour
    if board.winner_track == number:
        holes[board.game_length - 1] = track.colour
    return holes


def _animate(board: BoardModel, tracks: list[list[RGB]], games: list[list[RGB]],
             settings: LedSettings, step: int) -> None:
    number = board.anim_track
    if board.animation is Animation.WAITING and step % 4 < 2:
        for holes in tracks:
            holes[board.game_length - 1] = settings.alert_colour
    if number is None:
        return
    track = board.tracks[number]
    if board.animation is Animation.WINNER:
        for hole in range(1 + step % 8, board.game_length, 8):
            tracks[number][hole - 1] = track.colour
    if board.animation is Animation.ALERT and step % 2 == 0:
        for hole in (track.rear, track.front, *board.flash_holes(number)):
            if 1 <= hole <= HOLES:
                tracks[number][hole - 1] = settings.alert_colour
        games[number] = [settings.alert_colour] * len(games[number])


def _game_counters(track: TrackModel, settings: LedSettings) -> list[RGB]:
    lit = min(track.games_won, settings.game_counter_leds)
    return [track.colour] * lit + [OFF] * (settings.game_counter_leds - lit)


def estimate_current_ma(frame: LedFrame, ma_per_channel: float = 20.0) -> float:
    """WS2812 estimate: each channel draws up to ``ma_per_channel`` at 255."""
    return sum(sum(c) for c in frame.all_leds()) / 255 * ma_per_channel


def _map_frame(frame: LedFrame, fn: Any) -> LedFrame:
    return LedFrame(
        tuple(tuple(fn(c) for c in row) for row in frame.tracks),
        tuple(tuple(fn(c) for c in row) for row in frame.games),
    )


def apply_power(frame: LedFrame, settings: LedSettings) -> LedFrame:
    """Scale by ``brightness``, then down to ``current_cap_ma`` if the estimate exceeds it."""
    frame = _map_frame(frame, lambda c: scale(c, settings.brightness))
    current = estimate_current_ma(frame, settings.ma_per_channel)
    if current <= settings.current_cap_ma:
        return frame
    factor = settings.current_cap_ma / current
    # floor, not round: the capped frame must stay at or under the cap
    return _map_frame(frame, lambda c: tuple(math.floor(v * factor) for v in c))


def render_board(board: BoardModel, settings: LedSettings | None = None, step: int = 0) -> LedFrame:
    """The LED frame for ``board`` at animation ``step``, with the board's brightness and the
    current cap applied."""
    settings = settings or LedSettings()
    tracks = [_track_holes(board, n, settings, step) for n in range(len(board.tracks))]
    games = [_game_counters(track, settings) for track in board.tracks]
    _animate(board, tracks, games, settings, step)
    raw = LedFrame(tuple(map(tuple, tracks)), tuple(map(tuple, games)))
    if settings.brightness != board.brightness:
        settings = replace(settings, brightness=board.brightness)
    return apply_power(raw, settings)


