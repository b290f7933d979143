"""The board model: what the LED tracks show, in pegs and holes, never pixels.

This is what a :class:`~cribpi.hal.base.Pegboard` receives. The controller sends it to the
Pico as it is (about 20 bytes a move) and the firmware draws it; the simulator and a directly
wired strip draw it with :func:`cribpi.views.leds.render_board` through the layout file.

Tracks and seats are numbered from 0 here (``tracks[0]`` is the first track); the layout file
and the people at the table count from 1.

>>> board = BoardModel((TrackModel(front=12, rear=6, colour=(255, 0, 0)),
...                     TrackModel(front=4, rear=0, colour=(0, 0, 255))))
>>> board.tracks[0].gap
6
>>> mark_holes(61)
(5, 10, 15, 20, 25, 30, 31, 35, 40, 45, 50, 55, 60, 61)
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from cribpi.exc import ViewError

__all__ = ["RGB", "TrackModel", "BoardModel", "Animation", "GAME_LENGTHS", "HOLES", "DEFAULT_COLOURS", "mark_holes"]

RGB = tuple[int, int, int]
GAME_LENGTHS = (121, 61)
HOLES = 121  # every track has 121 holes; a 61 game uses the first 61
SKUNK_MARKS = {121: (61, 91), 61: (31,)}
#: Track colours that stay distinct on WS2812s at low brightness: red, blue, green, yellow.
DEFAULT_COLOURS: tuple[RGB, ...] = ((255, 0, 0), (0, 64, 255), (0, 255, 0), (255, 160, 0))


class Animation(str, enum.Enum):
    """A running animation; the drawing side (firmware or pixel backend) keeps its own time."""

    ALERT = "alert"  # a muggins or other alert: the pegs of ``anim_track`` blink red
    WINNER = "winner"  # a chase up the winner's track (``anim_track``)
    WAITING = "waiting"  # nobody is driving the board (host lost, paused): a slow pulse


def mark_holes(game_length: int) -> tuple[int, ...]:
    """Holes marked dim: every fifth, the skunk lines and the game hole.

    On a 121 board the skunk marks sit on holes 91 and 61, the first holes past the lines
    (ACC: a loser on 90 or below is skunked, on 60 or below double skunked), so a loser's
    front peg on a lit mark has escaped. On a 61 board the mark is hole 31.
    """
    fives = range(5, game_length, 5)
    return tuple(sorted({*fives, *SKUNK_MARKS[game_length], game_length}))


def _check_rgb(colour: RGB, what: str) -> None:
    if len(colour) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in colour):
        raise ViewError(f"{what} colour {colour!r} is not an (r, g, b) of integers 0-255")


@dataclass(frozen=True)
class TrackModel:
    """One track: a player, or a partnership (partners share a track).

    ``front`` is the score now, ``rear`` the score before the last one (0: not on the board
    yet), so the gap between the two pegs is the last score.
    """

    front: int
    rear: int
    colour: RGB
    games_won: int = 0

    @property
    def gap(self) -> int:
        return self.front - self.rear

    def check(self, game_length: int, where: str) -> None:
        if not 0 <= self.rear <= self.front <= game_length:
            raise ViewError(
                f"{where}: pegs rear={self.rear} front={self.front} must satisfy "
                f"0 <= rear <= front <= {game_length}"
            )
        if not 0 <= self.games_won <= 99:
            raise ViewError(f"{where}: games_won={self.games_won} must be 0-99")
        _check_rgb(self.colour, where)


@dataclass(frozen=True)
class BoardModel:
    """Everything the LED tracks show.

    ``marks`` are the holes lit dim on every track (see :func:`mark_holes`); ``flash[t]`` lists
    the holes track ``t`` just scored (they blink for a moment); ``winner_track``'s game hole is
    lit in its colour once the game is won; ``animation`` runs on ``anim_track`` (or on the
    whole board for ``WAITING``). ``brightness`` (0-1) scales everything; the current cap is
    the drawing side's own limit.
    """

    tracks: tuple[TrackModel, ...]
    game_length: int = 121
    brightness: float = 0.5
    marks: tuple[int, ...] = ()
    flash: tuple[tuple[int, ...], ...] = ()
    animation: Animation | None = None
    anim_track: int | None = None
    winner_track: int | None = None

    def __post_init__(self) -> None:
        if self.game_length not in GAME_LENGTHS:
            raise ViewError(f"game_length {self.game_length} is not one of {GAME_LENGTHS}")
        if not 1 <= len(self.tracks) <= 4:
            raise ViewError(f"a board has 1 to 4 tracks, not {len(self.tracks)}")
        if not (isinstance(self.brightness, (int, float)) and math.isfinite(self.brightness)
                and 0.0 <= self.brightness <= 1.0):
            raise ViewError(f"brightness {self.brightness!r} is not a number between 0 and 1")
        for number, track in enumerate(self.tracks):
            track.check(self.game_length, f"track {number}")
        self._check_holes()
        self._check_indexes()

    def _check_holes(self) -> None:
        for hole in (*self.marks, *(h for holes in self.flash for h in holes)):
            if not 1 <= hole <= self.game_length:
                raise ViewError(f"hole {hole} is not on a {self.game_length} board: use 1-{self.game_length}")

    def _check_indexes(self) -> None:
        if len(self.flash) > len(self.tracks):
            raise ViewError(f"flash has {len(self.flash)} entries for {len(self.tracks)} tracks")
        for name in ("winner_track", "anim_track"):
            value = getattr(self, name)
            if value is not None and not 0 <= value < len(self.tracks):
                raise ViewError(f"{name}={value} is not a track: use 0-{len(self.tracks) - 1}")
        if self.animation is not None and not isinstance(self.animation, Animation):
            raise ViewError(f"animation {self.animation!r} is not one of {', '.join(a.value for a in Animation)}")
        if self.animation in (Animation.ALERT, Animation.WINNER) and self.anim_track is None:
            raise ViewError(f"the {self.animation.value} animation needs anim_track")

    def flash_holes(self, track: int) -> tuple[int, ...]:
        return self.flash[track] if track < len(self.flash) else ()

    @property
    def still(self) -> bool:
        """Nothing moves: no flash and no animation (a drawing side need not redraw)."""
        return self.animation is None and not any(self.flash)
