"""Writing a record: the events in force, one statement a line, checked by the engine as written."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cribpi.exc import RulesError
from cribpi.game.engine import INITIAL, apply, claimable
from cribpi.game.events import (
    Claim, Confirm, Crib, CutForDeal, Discard, EndDeal, Event, Go, HandCards, Lay, Misdeal, MoveCard, Muggins,
    MugginsSet, NewGame, NextGame, Peg, Penalty, Renege, Setup, Starter, Undo,
)
from cribpi.game.state import Effect, GameOver, MatchOver, Phase, State, Where
from cribpi.record.errors import RecordWriteError
from cribpi.record.tags import free_tag_lines, game_tag_lines, setup_tag_line
from cribpi.record.tokens import name_token, quote

__all__ = ["export_record"]


def export_record(events: Iterable[Event], tags: Mapping[str, str] | None = None) -> str:
    """Write the events of one table as a record.

    ``events`` are the events in force (:attr:`Game.events`), starting with NewGame; an Undo
    is refused, since a record keeps what stands, not how it was corrected. ``tags`` adds free
    tags such as Event, Date or Table; the tags that NewGame decides (:data:`GAME_TAGS`) are
    always written from the event, and the same names in ``tags`` are ignored. Every event
    is checked by the engine on the way: a list it refuses raises RecordWriteError.
    """
    events = list(events)
    if not events or not isinstance(events[0], NewGame):
        first = type(events[0]).__name__ if events else "nothing"
        raise RecordWriteError(f"event 1: a record starts with a NewGame event, not {first}", 1)
    writer = _Writer(dict(tags or {}))
    state = INITIAL
    for number, event in enumerate(events, 1):
        after, effects = _checked(number, event, state)
        writer.write(event, state, after, effects)
        state = after
    return writer.text()


def _checked(number: int, event: Event, state: State) -> tuple[State, tuple[Effect, ...]]:
    if isinstance(event, Undo):
        raise RecordWriteError(f"event {number} is an Undo: export the events in force (Game.events), "
                               "not the journal", number)
    try:
        return apply(state, event)
    except RulesError as exc:
        raise RecordWriteError(f"event {number} ({event.kind}) is refused by the engine: {exc}",
                               number, exc) from None


def _is_card(token: str) -> bool:
    return token not in ("go", "|") and "=" not in token


class _Writer:
    """Turns events into lines; consecutive lays, goes and play claims share one Play line."""

    def __init__(self, tags: dict[str, str]) -> None:
        self.tags = tags
        self.lines: list[str] = []
        self.play: list[str] = []
        self.deal_key: tuple[int, int, int] | None = None
        self.misdeals = 0
        self.after_starter = False

    def text(self) -> str:
        self.flush()
        return "\n".join(self.lines).rstrip("\n") + "\n"

    def flush(self) -> None:
        if self.play:
            self.lines.append("Play: " + " ".join(self.play))
            self.play = []

    def line(self, text: str) -> None:
        self.flush()
        self.lines.append(text)

    def write(self, event: Event, before: State, after: State, effects: tuple[Effect, ...]) -> None:
        starter_claim = self.after_starter
        self.after_starter = isinstance(event, Starter)
        if isinstance(event, (Lay, Go)):
            self._play_token(event, before)
        elif isinstance(event, Claim):
            self._claim(event, before, starter_claim)
        else:
            self._statement(event, before)
        self._endings(effects)
        self._deal_header(after)

    def _play_token(self, event: Lay | Go, before: State) -> None:
        if isinstance(event, Go):
            self.play.append("go")
            return
        deal = before.deal
        if deal is not None and not deal.count and deal.played:
            self.play.append("|")  # a new count starts
        self.play.append(str(event.card))

    def _claim(self, event: Claim, before: State, starter_claim: bool) -> None:
        moment = claimable(before, event.seat)
        where = moment.where if moment else None
        deal = before.deal
        last_layer = deal.played[-1][0] if deal and deal.played else None
        if where is Where.PLAY and self.play and _is_card(self.play[-1]) and last_layer == event.seat:
            self.play[-1] += f"={event.points}"  # the claim right after the player's own card
        elif where is Where.HEELS and starter_claim and self.lines[-1].startswith("Starter:"):
            self.lines[-1] += f"={event.points}"
        elif where is Where.HAND:
            self.line(f"Show {name_token(before.names[event.seat])} {event.points}")
        elif where is Where.CRIB:
            self.line(f"Show crib {event.points}")
        else:
            self.line(f"Claim {name_token(before.names[event.seat])} {event.points}")

    def _statement(self, event: Event, before: State) -> None:
        if isinstance(event, NewGame):
            self.lines.extend(free_tag_lines(self.tags) + game_tag_lines(event))
        elif isinstance(event, Setup):
            if not all(line.startswith("[") for line in self.lines):
                raise RecordWriteError("a Setup is written as a tag: it must come straight after the NewGame")
            self.lines.append(setup_tag_line(event, before.names))
        elif isinstance(event, EndDeal):
            self.line(f"End  ; {_scores(before)}")
        elif isinstance(event, NextGame):
            self.line("")
            self.line("Next game")
        else:
            if isinstance(event, Misdeal):
                self.misdeals += 1
            self.line(_format_statement(event, before.names))

    def _endings(self, effects: tuple[Effect, ...]) -> None:
        for effect in effects:
            if isinstance(effect, GameOver):
                self.line(f"; {effect.text}")
            elif isinstance(effect, MatchOver):
                won = effect.summary.get("games_won", [])
                self.line(f"; match over: games won {'-'.join(map(str, won))}")

    def _deal_header(self, after: State) -> None:
        deal = after.deal
        if deal is None or after.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            return
        key = (after.game_number, deal.number, self.misdeals)
        if key != self.deal_key:
            self.deal_key = key
            self.line("")
            self.line(f"Deal {deal.number}: {name_token(after.names[deal.dealer])} deals")


def _format_statement(event: Event, names: tuple[str, ...]) -> str:
    cards = " ".join(map(str, getattr(event, "cards", ())))
    if isinstance(event, CutForDeal):
        return f"Cut: {cards}"
    if isinstance(event, Starter):
        return f"Starter: {event.card}"
    if isinstance(event, HandCards):
        return f"Hand {name_token(names[event.seat])}: {cards}"
    if isinstance(event, Discard):
        return f"Discard {name_token(names[event.seat])}: {cards}"
    if isinstance(event, Crib):
        return f"Crib: {cards}"
    if isinstance(event, Muggins):  # on whom, when the call named it
        on = f" on {name_token(names[event.accused])}" if event.accused is not None else ""
        return f"Muggins {name_token(names[event.seat])} {event.points}{on}"
    if isinstance(event, MugginsSet):  # for the game being played, from the next claim on
        return f"Switch muggins {'on' if event.on else 'off'}"
    if isinstance(event, Peg):
        return f"Peg {name_token(names[event.seat])} {event.points}"
    if isinstance(event, Renege):
        by = f" by {name_token(names[event.by])}" if event.by is not None else ""
        return f"Renege {name_token(names[event.seat])}{by}"
    if isinstance(event, Penalty):
        return f"Penalty {name_token(names[event.seat])} {event.points} {quote(event.reason)}"
    if isinstance(event, Misdeal):
        return "Misdeal"
    if isinstance(event, MoveCard):
        return f"Move {event.card} {name_token(names[event.seat])}"
    if isinstance(event, Confirm):  # a side is named by its first seat (a partnership's too)
        return f"{'Confirm' if event.agree else 'Dispute'} {name_token(names[event.side])}"
    raise RecordWriteError(f"{type(event).__name__} cannot be written in a record")


def _scores(state: State) -> str:
    return ", ".join(f"{state.team_name(t)} {s}" for t, s in enumerate(state.scores))
