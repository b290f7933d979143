"""Screen models: the small frozen values the OLED views draw. The app maps game state to
these; the board's model is :mod:`cribpi.views.board`."""

from __future__ import annotations

from dataclasses import dataclass

from cribpi.exc import ViewError
from cribpi.rules import Card, ScoreItem

__all__ = [
    "ScreenModel", "ScoreLine", "PlayScreen", "ScoreScreen", "ShowScreen",
    "ScoreRow", "ScoresScreen", "AlertScreen", "MenuScreen", "MessageScreen", "PromptScreen", "JoinScreen",
    "play_footer",
]


# --- the OLED screens -------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreLine:
    """One score as players say it: ``Bob 2 fifteen two``."""

    who: str
    points: int
    reason: str = ""


@dataclass(frozen=True)
class PlayScreen:
    """The play: the big running count, whose turn it is, the starter, the last score."""

    count: int
    turn: str
    last: ScoreLine | None = None
    note: str = ""  # shown instead of ``last``: e.g. whose play score is still open to claim
    starter: Card | None = None  # in the corner: players look back at it all through the play
    laid: tuple[str, Card] | None = None  # the last card and who it was credited to: a wrong seat shows

    def __post_init__(self) -> None:
        if not 0 <= self.count <= 31:
            raise ViewError(f"the running count {self.count} is not 0-31")


@dataclass(frozen=True)
class ScoreScreen:
    """A score just pegged: who, how many, and why (one reason a line; ``page`` from 0 when
    the reasons take more than a screen). A play score also says the count it was made at and
    whose turn comes next, and the starter, since it covers the play screen that shows them."""

    who: str
    points: int
    reasons: tuple[str, ...] = ()
    page: int = 0
    count: int | None = None
    turn: str = ""
    starter: Card | None = None  # in the corner, as on the play screen
    now: int | None = None  # the count now, when the play has gone on from ``count`` (a go's reset)

    @property
    def footer(self) -> str:
        """``count 15, Blue next`` (empty outside the play); ``count 30, now 0, Blue next`` when
        the count went back to 0 after the score (a go): the turn is at the count now."""
        return play_footer(self.count, self.turn, self.now)


def play_footer(count: int | None, turn: str, now: int | None = None) -> str:
    """``count 15, Blue next``: what a screen that covers the play's says of it (empty outside
    the play); ``now``, the count now when it is not ``count`` any more."""
    now_part = [f"now {now}"] if now is not None and count is not None and now != count else []
    parts = ([f"count {count}"] if count is not None else []) + now_part + ([f"{turn} next"] if turn else [])
    return ", ".join(parts)


@dataclass(frozen=True)
class ShowScreen:
    """A hand or crib counted item by item (``fifteen`` with the cards that make it, for 2),
    a page at a time (``page`` from 0). ``total`` is what the items make; ``claimed`` what was
    pegged when a claim fell short of it (claim mode)."""

    title: str
    items: tuple[ScoreItem, ...]
    total: int
    page: int = 0
    claimed: int | None = None


@dataclass(frozen=True)
class ScoreRow:
    name: str
    score: int
    games_won: int = 0


@dataclass(frozen=True)
class ScoresScreen:
    """Everyone's score and games won (``hint``: what the next press does, at the foot)."""

    rows: tuple[ScoreRow, ...]
    title: str = "Scores"
    hint: str = ""


@dataclass(frozen=True)
class AlertScreen:
    """Something the table must notice: ``MUGGINS!`` / ``Bob missed 2: pair``."""

    title: str
    lines: tuple[str, ...] = ()
    page: int = 0
    count: int | None = None  # in the play: the running count (it covers the play's screen)
    turn: str = ""  # and whose turn it is

    @property
    def footer(self) -> str:
        """``count 15, Blue next`` (empty outside the play)."""
        return play_footer(self.count, self.turn)


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
    page: int = 0
    count: int | None = None  # in the play: the running count (it covers the play's screen)
    turn: str = ""  # and whose turn it is

    @property
    def footer(self) -> str:
        """``count 15, Blue next`` (empty outside the play)."""
        return play_footer(self.count, self.turn)


@dataclass(frozen=True)
class PromptScreen:
    """Waiting for input: ``Enter card: 5_`` while a rank waits for its suit."""

    prompt: str
    entry: str = ""
    hint: str = ""
    cursor: bool = True


@dataclass(frozen=True)
class JoinScreen:
    """How a phone joins the table: its address (drawn as a QR code and in short), the table's
    PIN of 4 digits (a new one each game) and the seats a phone can take."""

    url: str
    pin: str
    seats: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not (self.url.startswith("http://") or self.url.startswith("https://")):
            raise ViewError(f"the phones' address {self.url!r} is not an http:// or https:// address")
        if not (len(self.pin) == 4 and self.pin.isascii() and self.pin.isdigit()):
            raise ViewError(f"the table PIN {self.pin!r} is not 4 digits (0000-9999)")


ScreenModel = (
    PlayScreen | ScoreScreen | ShowScreen | ScoresScreen | AlertScreen
    | MenuScreen | MessageScreen | PromptScreen | JoinScreen
)

