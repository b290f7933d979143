"""View models: the small frozen values the views draw. The app maps game state to these.

Tracks and seats are numbered from 0 here (``tracks[0]`` is the first track); the layout file
and the people at the table count from 1.

>>> board = BoardModel((TrackModel(front=12, rear=6, colour=(255, 0, 0)),
...                     TrackModel(front=4, rear=0, colour=(0, 0, 255))))
>>> board.tracks[0].gap
6
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cribpi.exc import ViewError
from cribpi.rules.cards import Card

__all__ = [
    "RGB", "TrackModel", "BoardModel", "Animation", "GAME_LENGTHS",
    "ScreenModel", "ScoreLine", "PlayScreen", "ScoreScreen", "ShowItem", "ShowScreen",
    "ScoreRow", "ScoresScreen", "AlertScreen", "MenuScreen", "MessageScreen", "PromptScreen",
]

RGB = tuple[int, int, int]
Animation = Literal["muggins", "winner"]
GAME_LENGTHS = (121, 61)


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
        if self.games_won < 0:
            raise ViewError(f"{where}: games_won={self.games_won} must be 0 or more")
        _check_rgb(self.colour, where)


@dataclass(frozen=True)
class BoardModel:
    """Everything the LED tracks show.

    ``flash[t]`` lists the holes track ``t`` just scored (they blink for a few steps);
    ``animation`` with ``anim_step`` (the app counts steps on its timer) plays the muggins
    alert on ``muggins_track`` or the winner's run on ``winner_track``.
    """

    tracks: tuple[TrackModel, ...]
    game_length: int = 121
    flash: tuple[tuple[int, ...], ...] = ()
    animation: Animation | None = None
    anim_step: int = 0
    winner_track: int | None = None
    muggins_track: int | None = None

    def __post_init__(self) -> None:
        if self.game_length not in GAME_LENGTHS:
            raise ViewError(f"game_length {self.game_length} is not one of {GAME_LENGTHS}")
        if not 1 <= len(self.tracks) <= 4:
            raise ViewError(f"a board has 1 to 4 tracks, not {len(self.tracks)}")
        for number, track in enumerate(self.tracks):
            track.check(self.game_length, f"track {number}")
        self._check_indexes()

    def _check_indexes(self) -> None:
        if len(self.flash) > len(self.tracks):
            raise ViewError(f"flash has {len(self.flash)} entries for {len(self.tracks)} tracks")
        for name in ("winner_track", "muggins_track"):
            value = getattr(self, name)
            if value is not None and not 0 <= value < len(self.tracks):
                raise ViewError(f"{name}={value} is not a track: use 0-{len(self.tracks) - 1}")
        if self.animation not in (None, "muggins", "winner"):
            raise ViewError(f"animation {self.animation!r} is not None, 'muggins' or 'winner'")

    def flash_holes(self, track: int) -> tuple[int, ...]:
        return self.flash[track] if track < len(self.flash) else ()


# --- the OLED screens -------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreLine:
    """One score as players say it: ``Bob 2 fifteen two``."""

    who: str
    points: int
    reason: str = ""


@dataclass(frozen=True)
class PlayScreen:
    """The play: the big running count, whose turn it is, the last score."""

    count: int
    turn: str
    last: ScoreLine | None = None
    note: str = ""  # shown instead of ``last``: e.g. whose play score is still open to claim

    def __post_init__(self) -> None:
        if not 0 <= self.count <= 31:
            raise ViewError(f"the running count {self.count} is not 0-31")


@dataclass(frozen=True)
class ScoreScreen:
    """A score just pegged: who, how many, and why (one reason a line)."""

    who: str
    points: int
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class ShowItem:
    """One line of a show count: ``fifteen`` with the cards that make it, for 2."""

    kind: str
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True)
class ShowScreen:
    """A hand or crib counted item by item, a page at a time (``page`` from 0)."""

    title: str
    items: tuple[ShowItem, ...]
    total: int
    page: int = 0


@dataclass(frozen=True)
class ScoreRow:
    name: str
    score: int
    games_won: int = 0


@dataclass(frozen=True)
class ScoresScreen:
    """Everyone's score and games won."""

    rows: tuple[ScoreRow, ...]
    title: str = "Scores"


@dataclass(frozen=True)
class AlertScreen:
    """Something the table must notice: ``MUGGINS!`` / ``Bob missed 2: pair``."""

    title: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class MenuScreen:
    title: str
    items: tuple[str, ...]
    selected: int = 0

    def __post_init__(self) -> None:
        if self.items and not 0 <= self.selected < len(self.items):
            raise ViewError(f"selected={self.selected} is not an item: use 0-{len(self.items) - 1}")


@dataclass(frozen=True)
class MessageScreen:
    lines: tuple[str, ...]
    title: str = ""


@dataclass(frozen=True)
class PromptScreen:
    """Waiting for input: ``Enter card: 5_`` while a rank waits for its suit."""

    prompt: str
    entry: str = ""
    hint: str = ""
    cursor: bool = True


ScreenModel = (
    PlayScreen | ScoreScreen | ShowScreen | ScoresScreen | AlertScreen
    | MenuScreen | MessageScreen | PromptScreen
)

