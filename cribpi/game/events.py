"""The events of a cribbage table. A game is its list of events; state is derived.

Every event is a frozen dataclass with a JSON form (``to_dict`` / ``event_from_dict``) so the
store can journal it and a record can be written from it.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Final

from cribpi.exc import RulesError
from cribpi.rules import ACC, DECK, Card, Rules, get_rules
from cribpi.rules.presets import rules_from_dict, rules_to_dict

__all__ = [
    "Mode", "Event", "NewGame", "Setup", "CutForDeal", "Starter", "HandCards", "Discard", "Lay", "Go", "Claim",
    "Muggins", "Crib", "Peg", "Penalty", "Misdeal", "EndDeal", "NextGame", "Undo", "MoveCard",
    "Confirm", "Renege", "MugginsSet", "EDITION",
    "EVENT_TYPES", "event_from_dict", "random_cut",
]

#: The edition of the table's rulings on irregularities a game is started under. Edition 2
#: (ACC rules 8.4 and 10): a false claim of game is set back with 15 points' penalty, and a
#: muggins call needs a claim open to it. A journal's ``new_game`` written before editions
#: were recorded is edition 1, and its events are judged as they were when played (a call with
#: nothing open was a wrong call against the last claimer; a false claim of game was only
#: corrected), so an old journal replays to the table its players saw.
EDITION: Final = 2


class Mode(str, enum.Enum):
    """How much the engine knows: see docs/usage.md."""

    BOARD = "board"  # a digital pegboard: players peg with buttons, no cards entered
    COUNT = "count"  # cards are entered; the engine pegs the play and counts the show
    CLAIM = "claim"  # as count, but players claim; the engine checks every claim


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """The base of every event: its ``kind`` names it in the journal and in records."""

    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        for field in dataclasses.fields(self):
            out[field.name] = _to_json(getattr(self, field.name))
        return out


def _to_json(value: object) -> object:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Rules):
        return rules_to_dict(value)  # only what differs from the preset, so records stay short
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def rules_from_json(data: object) -> Rules:
    """A NewGame's rules: a preset's name, or the mapping :func:`rules_to_dict` writes."""
    if isinstance(data, str):
        return get_rules(data)
    if not isinstance(data, Mapping):
        raise RulesError(f"rules must be a preset name or a table of options, not {data!r}")
    return rules_from_dict(data, source="new_game rules")


@dataclasses.dataclass(frozen=True, slots=True)
class NewGame(Event):
    """Seats in clockwise order (seat 0 first); partners sit opposite (seats 0+2, 1+3)."""

    kind: ClassVar[str] = "new_game"
    names: tuple[str, ...]
    rules: Rules = ACC
    mode: Mode = Mode.COUNT
    match_games: int = 1  # best of N
    first_dealer: int | None = None  # None: cut for the deal
    review: bool = False  # post-deal discard review (a coaching aid; refused by tournament rules)
    edition: int = EDITION  # the table's rulings on irregularities (see EDITION); 1: a journal's older game

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(self.names))
        object.__setattr__(self, "mode", _mode(self.mode))


def _mode(value: object) -> Mode:
    try:
        return Mode(value)
    except ValueError:
        raise RulesError(f"mode {value!r} is not known: use board, count or claim") from None


@dataclasses.dataclass(frozen=True, slots=True)
class Setup(Event):
    """A game started from a position (:mod:`cribpi.game.setup`): ``scores`` per side (per team
    with partners) in seat order, the ``dealer``'s seat, and the games each side has ``won``."""

    kind: ClassVar[str] = "setup"
    scores: tuple[int, ...]
    dealer: int
    won: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", tuple(self.scores))
        object.__setattr__(self, "won", tuple(self.won))


@dataclasses.dataclass(frozen=True, slots=True)
class CutForDeal(Event):
    """One card cut by each seat; the lowest rank deals, a tie for lowest cuts again."""

    kind: ClassVar[str] = "cut"
    cards: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Starter(Event):
    """The starter card, cut by the pone and turned by the dealer."""

    kind: ClassVar[str] = "starter"
    card: Card


@dataclasses.dataclass(frozen=True, slots=True)
class HandCards(Event):
    """Declare a seat's kept cards (before the play, or in the show for cards never laid)."""

    kind: ClassVar[str] = "hand"
    seat: int
    cards: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Discard(Event):
    """The cards a seat laid away to the crib (optional: it enables the discard review)."""

    kind: ClassVar[str] = "discard"
    seat: int
    cards: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Lay(Event):
    """A card laid in the play."""

    kind: ClassVar[str] = "lay"
    seat: int
    card: Card


@dataclasses.dataclass(frozen=True, slots=True)
class Go(Event):
    """``seat`` says go: it has no card that fits under 31."""

    kind: ClassVar[str] = "go"
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class MoveCard(Event):
    """A card of this deal's play was laid by ``seat``, not by the seat it was entered for: the
    play is scored again from it (:mod:`cribpi.game.moves`)."""

    kind: ClassVar[str] = "move_card"
    card: Card
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class Claim(Event):
    """Claim mode: the points a seat says it scored at the pending scoring moment."""

    kind: ClassVar[str] = "claim"
    seat: int
    points: int


@dataclasses.dataclass(frozen=True, slots=True)
class Muggins(Event):
    """``seat`` calls muggins for ``points`` on an opponent's claim still open to it
    (:mod:`cribpi.game.claims`). ``accused`` names whose claim: needed only when claims of
    more than one opponent are open (three players); None lets the table take the one open."""

    kind: ClassVar[str] = "muggins"
    seat: int
    points: int
    accused: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class MugginsSet(Event):
    """Muggins switched on (``on``) or off for the game being played (claim mode; not under a
    tournament preset, whose rules are announced before play). From the next claim on, an
    under-claim is open to the opponents (on: ACC Rule 10's scope, or the game's own if it
    had one); a claim made before is not opened after it. Off closes what is open."""

    kind: ClassVar[str] = "muggins_set"
    on: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Renege(Event):
    """A renege by ``seat`` is claimed (ACC rule 7.3): ``seat`` said go holding a card that
    fitted. The play goes back to that go (the cards laid since return to the hands, every
    point pegged since is cancelled), and ``by`` (the opponent; with three players, the one who
    claims it) pegs 2 for each card that could have been played. ``by`` None: the opponent."""

    kind: ClassVar[str] = "renege"
    seat: int
    by: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Crib(Event):
    """The crib's four cards (they must hold the discards already entered)."""

    kind: ClassVar[str] = "crib"
    cards: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Peg(Event):
    """Board mode: a seat pegs points by hand."""

    kind: ClassVar[str] = "peg"
    seat: int
    points: int


@dataclasses.dataclass(frozen=True, slots=True)
class Penalty(Event):
    """A judge's ruling: ``seat`` pegs ``points`` (negative: goes back) for ``reason``."""

    kind: ClassVar[str] = "penalty"
    seat: int
    points: int
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class Misdeal(Event):
    """Redeal by the same dealer; nothing scored in the deal stands."""

    kind: ClassVar[str] = "misdeal"


@dataclasses.dataclass(frozen=True, slots=True)
class EndDeal(Event):
    """The deal is over (after the show, or on the board): the deal passes to the left."""

    kind: ClassVar[str] = "end_deal"


@dataclasses.dataclass(frozen=True, slots=True)
class NextGame(Event):
    """Start the next game of the match (a deciding game is cut for afresh)."""

    kind: ClassVar[str] = "next_game"


@dataclasses.dataclass(frozen=True, slots=True)
class Confirm(Event):
    """A side's word on the game just finished (a tournament table asks each side in turn
    before its result is final): ``agree`` confirms the result, otherwise the side disputes it.
    Journalled like any event, so the answers survive a restart and can be undone."""

    kind: ClassVar[str] = "confirm"
    side: int
    agree: bool = True


@dataclasses.dataclass(frozen=True, slots=True)
class Undo(Event):
    """Take back the last ``steps`` events (undos themselves are not counted)."""

    kind: ClassVar[str] = "undo"
    steps: int = 1


EVENT_TYPES: Final[dict[str, type[Event]]] = {
    cls.kind: cls
    for cls in (NewGame, Setup, CutForDeal, Starter, HandCards, Discard, Lay, Go, Claim, Muggins, Crib, Peg,
                Penalty, Misdeal, EndDeal, NextGame, Undo, MoveCard, Confirm, Renege, MugginsSet)
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """The inverse of ``Event.to_dict``; bad input raises RulesError naming the field."""
    data = dict(data)
    kind = data.pop("type", None)
    if kind == "new_game" and "edition" not in data:
        data["edition"] = 1  # written before editions were: judged as it was played
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RulesError(f"unknown event type {kind!r}: use {', '.join(EVENT_TYPES)}")
    try:
        return cls(**{k: _from_json(k, v) for k, v in data.items()})
    except TypeError as exc:
        raise RulesError(f"bad {kind} event {data!r}: {exc}") from None


def _from_json(field: str, value: Any) -> Any:
    if field == "card":
        return Card.parse(value)
    if field == "cards":
        return tuple(Card.parse(v) for v in value)
    if field == "names":
        return tuple(value)
    if field == "rules":
        return rules_from_json(value)
    return value


def random_cut(rng: random.Random, seats: int) -> CutForDeal:
    """Each seat cuts one card from a shuffled pack."""
    return CutForDeal(tuple(rng.sample(DECK, seats)))
