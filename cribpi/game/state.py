"""Immutable table state and the effects an event produces."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Iterator
from typing import Any, Final

from cribpi.game import events as ev
from cribpi.game.events import Mode
from cribpi.rules import ACC, Card, GameResult, Rules, ScoreItem
from cribpi.rules.speech import spoken_items

__all__ = [
    "evolve", "changed", "Phase", "Where", "Reason", "AlertKind", "Moment", "Missed", "DealState", "GameRecordResult", "State",
    "Effect", "Pegged", "Alert", "GameOver", "MatchOver", "PlayInput",
]

#: The inputs a deal's play and show take after the starter: what a moved card replays.
PlayInput = (ev.Lay | ev.Go | ev.Claim | ev.Muggins | ev.HandCards | ev.Discard | ev.Crib | ev.Penalty
             | ev.MugginsSet)


class Phase(str, enum.Enum):
    NEW = "new"  # before NewGame
    CUT = "cut"  # cutting for the deal
    STARTER = "starter"  # waiting for the starter card
    PLAY = "play"
    SHOW = "show"  # counting hands (and the crib) in order
    DONE = "done"  # deal counted, waiting for EndDeal
    BOARD = "board"  # board mode: manual pegging
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"


class Where(enum.StrEnum):
    """A scoring moment: what a claim is for, and what a muggins rule covers."""

    HEELS = "heels"  # the dealer's two for a jack turned up
    PLAY = "play"  # a card laid, a go, the last card
    HAND = "hand"
    CRIB = "crib"

    @property
    def in_show(self) -> bool:
        """A hand or the crib: counted in the show, where a claim blocks the next count."""
        return self is Where.HAND or self is Where.CRIB

    @property
    def reason(self) -> Reason:
        """The reason its points are pegged for (looked up: calling an enum is slow)."""
        return _REASON_OF[self]


class Reason(enum.StrEnum):
    """Why points were pegged (``Pegged.reason``)."""

    HEELS = "heels"
    PLAY = "play"
    HAND = "hand"
    CRIB = "crib"
    THREE_FOR_LAST = "three for last"  # five-card: the pone's three at the first deal
    MUGGINS = "muggins"  # taken from an opponent's under-claim
    WRONG_MUGGINS = "wrong muggins"  # given away by a muggins call with nothing to take
    OVERCLAIM_PENALTY = "overclaim penalty"
    FALSE_GAME = "false claim of game"  # ACC 8.4: the overclaim to the opponent, 15 back for the offender
    PENALTY = "penalty"  # a judge's ruling
    PEG = "peg"  # board mode: pegged by hand

    @property
    def in_show(self) -> bool:
        return self is Reason.HAND or self is Reason.CRIB


_REASON_OF: Final = {where: Reason(where.value) for where in Where}


class AlertKind(enum.StrEnum):
    """What an ``Alert`` tells the table."""

    CUT = "cut"  # who deals first
    RECUT = "recut"  # a tie for low, or the deciding game of a match
    HEELS = "heels"  # his heels not scored: they cannot peg out under these rules
    RENEGE = "renege"
    OVERCLAIM = "overclaim"
    UNDERCLAIM = "underclaim"  # missed points nobody may take
    MUGGINS = "muggins"  # missed points the other side may take
    MUGGINS_CLOSED = "muggins-closed"  # an under-claim's muggins window closed, nobody having called it
    WRONG_MUGGINS = "wrong-muggins"
    FALSE_GAME = "false-game"  # a claim that would have reached the game hole, not got (ACC 8.4)
    RENEGE_CLAIMED = "renege-claimed"  # the play taken back to the false go (ACC 7.3)
    PENALTY = "penalty"
    MISDEAL = "misdeal"
    MOVED = "moved"  # a card moved to the seat that laid it: the play scored again


@dataclasses.dataclass(frozen=True, slots=True)
class Moment:
    """A scoring moment waiting for a claim (claim mode)."""

    seat: int
    where: Where
    points: int  # what the rules give
    items: tuple[ScoreItem, ...]
    count: int | None = None  # the play's running count the score was made at


@dataclasses.dataclass(frozen=True, slots=True)
class Missed:
    """A claim still open to muggins (its deadline not passed): an under-claim an opponent may
    take (``missed`` > 0), or a claim that was right (``missed`` 0), on which a call is wrong."""

    seat: int
    where: Where
    missed: int
    items: tuple[ScoreItem, ...]


def evolve(obj: Any, **changes: Any) -> Any:
    """A copy of a frozen State or DealState with fields changed.

    ``dataclasses.replace`` re-runs ``__init__`` over every field; the engine makes several
    changes per event, so this copies the instance dict instead (no validation to skip:
    these classes have none).
    """
    return changed(obj, changes)


def changed(obj: Any, changes: dict[str, Any]) -> Any:
    """:func:`evolve` with the changes as a dict: the engine's hot path, which copies a
    deal and the state around it for most events, skips packing keywords twice. The dict
    is copied whole (in C, at its size) and given to the new instance, rather than filled
    field by field."""
    new = object.__new__(type(obj))
    fields = obj.__dict__.copy()
    fields.update(changes)
    _set_attribute(new, "__dict__", fields)  # past the frozen dataclass's __setattr__
    return new


_set_attribute: Final = object.__setattr__


@dataclasses.dataclass(frozen=True)
class DealState:
    """One deal: its cards as far as they are known, the play, the show and its scores."""

    number: int
    dealer: int
    starter: Card | None = None
    played: tuple[tuple[int, Card], ...] = ()  # every card of the play, in order
    count: tuple[Card, ...] = ()  # cards since the count last restarted
    running: int = 0  # the count's total, kept as cards are laid (asked at every card and go)
    held: tuple[int, ...] = ()  # per seat, the cards it has not laid yet (kept, not counted from the play)
    seen_bits: int = 0  # the Card.bit of every card in seen(), or-ed in as cards are seen: has_seen in one step
    last_layer: int | None = None  # seat that laid the last card of the current count
    gone: frozenset[int] = frozenset()  # seats that said go in this count
    turn: int | None = None
    declared: tuple[tuple[Card, ...] | None, ...] = ()  # hands entered whole, per seat
    crib: tuple[Card, ...] = ()
    discards: tuple[tuple[Card, ...] | None, ...] = ()  # per seat, when entered
    show_step: int = 0  # index into the show order; len(order) means the crib
    pending: Moment | None = None  # a hand or the crib waiting for its claim (blocks the show)
    unclaimed: tuple[Moment, ...] = ()  # play and heels scores not claimed yet (one per seat)
    gone_at: tuple[tuple[int, int], ...] = ()  # (seat, count) of every go this deal: renege checks
    missed: tuple[Missed, ...] = ()  # claims open to muggins, oldest first (under-claims and right ones)
    last_claim: int | None = None  # the seat that claimed last (edition 1: a wrong muggins call accuses it)
    scores_at_start: tuple[int, ...] = ()
    pegged: tuple[tuple[int, int, Reason], ...] = ()  # (seat, points, reason) in this deal
    hand_totals: tuple[tuple[int, int], ...] = ()  # (seat, points the rules give) per hand shown
    crib_total: int | None = None
    base: State | None = None  # the table just after the starter: a moved card replays from it
    log: tuple[PlayInput, ...] = ()  # every input since the starter, as entered
    moved: tuple[tuple[Card, int], ...] = ()  # cards moved to the seat that laid them

    def cards_of(self, seat: int) -> tuple[Card, ...]:
        """Cards this seat has laid in the play."""
        return tuple(card for s, card in self.played if s == seat)

    def seen(self) -> set[Card]:
        seen = {card for _, card in self.played}
        for cards in self._shown():
            seen.update(cards)
        return seen

    def has_seen(self, card: Card) -> bool:
        """``card in self.seen()``, in one step (asked for every card laid or entered)."""
        return self.seen_bits & card.bit != 0

    def seeing(self, cards: Iterable[Card]) -> int:
        """``seen_bits`` once ``cards`` are seen too: the handlers that show cards set it."""
        bits = self.seen_bits
        for card in cards:
            bits |= card.bit
        return bits

    def _shown(self) -> Iterator[tuple[Card, ...]]:
        """The cards seen outside the play: the crib, the starter, hands and discards entered."""
        yield self.crib
        if self.starter is not None:
            yield (self.starter,)
        for cards in (*self.declared, *self.discards):
            if cards:
                yield cards


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecordResult:
    """A finished game of the match."""

    winner: int  # team
    scores: tuple[int, ...]
    result: GameResult
    first_dealer: int


@dataclasses.dataclass(frozen=True)
class State:
    """The whole table: players, rules, scores, the deal in progress and the match so far."""

    names: tuple[str, ...] = ()
    rules: Rules = ACC
    mode: Mode = Mode.COUNT
    phase: Phase = Phase.NEW
    scores: tuple[int, ...] = ()  # per team (track)
    rear: tuple[int, ...] = ()  # previous score per team: the rear peg
    deal: DealState | None = None
    game_number: int = 0
    first_dealer: int | None = None  # of the current game
    match_games: int = 1
    review: bool = False  # the post-deal discard review is offered
    edition: int = ev.EDITION  # the rulings on irregularities the game was started under (NewGame.edition)
    games: tuple[GameRecordResult, ...] = ()
    winner: int | None = None  # team, once the game is over

    @property
    def seats(self) -> int:
        return len(self.names)

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.rules.partnerships else seat

    def team_name(self, team: int) -> str:
        if self.rules.partnerships:
            return f"{self.names[team]} & {self.names[team + 2]}"
        return self.names[team]

    def games_won(self) -> tuple[int, ...]:
        won = [0] * len(self.scores)
        for game in self.games:
            won[game.winner] += 1
        return tuple(won)

    def match_summary(self) -> dict[str, Any]:
        """Games won, game points and point spread per team."""
        teams = len(self.scores)
        points = [0] * teams
        spread = [0] * teams
        for game in self.games:
            points[game.winner] += game.result.game_points
            for team in range(teams):
                sign = 1 if team == game.winner else -1
                if team == game.winner or teams == 2:
                    spread[team] += sign * game.result.margin
        return {"games_won": list(self.games_won()), "game_points": points, "spread": spread}


# -- effects --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Effect:
    """Something an event did that the table shows (each dataclass has a docstring: without
    one, ``dataclass`` works out a signature with :mod:`inspect`, milliseconds at import)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Pegged(Effect):
    """Points pegged for a seat's side, with why and the side's score after."""

    seat: int
    team: int
    points: int
    reason: Reason
    items: tuple[ScoreItem, ...]
    score: int  # the team's score after pegging
    note: str = ""  # said instead of the items' count (penalty reasons, muggins)
    count: int | None = None  # a play score: the running count it was made at (a screen shows it)

    @property
    def explain(self) -> str:
        """What is said aloud: "fifteen two, and a pair is four"."""
        if self.note:
            return self.note
        items = self.items
        if not items:
            return ""  # a manual peg or a penalty: the reason says it all
        return spoken_items(items)


@dataclasses.dataclass(frozen=True, slots=True)
class Alert(Effect):
    """Something the table must notice. ``text`` is the whole sentence (for records and logs);
    a claim's alert (overclaim, underclaim, muggins) also carries its data, so a screen can
    say it in its own words: ``where`` the moment, ``points`` what the rules give and
    ``claimed``. A wrong muggins call names the seat that pegs (``other``) and ``points``."""

    kind: AlertKind
    text: str
    seat: int | None = None
    items: tuple[ScoreItem, ...] = ()
    where: Where | None = None
    points: int = 0
    claimed: int = 0
    other: int | None = None  # the seat that pegs: an overclaim penalty, a wrong muggins call


@dataclasses.dataclass(frozen=True, slots=True)
class GameOver(Effect):
    """A side reached the target: the game's result."""

    winner: int  # team
    scores: tuple[int, ...]
    result: GameResult
    text: str


@dataclasses.dataclass(frozen=True, slots=True)
class MatchOver(Effect):
    """The match is decided: its winner and the summary of its games."""

    winner: int
    summary: dict[str, Any]
