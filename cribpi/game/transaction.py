"""One event's transaction: the state being built, the effects so far, and the pegging that
ends a game at the exact instant a side reaches the target. Also the checks every handler
shares (phase, seat, unseen cards)."""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from cribpi.exc import RulesError
from cribpi.game import events as ev
from cribpi.game.events import Mode
from cribpi.game.legal import describe_expected
from cribpi.game.queries import seen_words
from cribpi.game.state import (
    Alert, AlertKind, DealState, Effect, GameOver, GameRecordResult, MatchOver, Moment, Pegged, Phase,
    Reason, State, Where, changed,
)
from cribpi.rules import Card, ScoreItem, classify_result

__all__ = ["GameEnded", "Tx", "need_phase", "check_seat", "who", "check_unseen"]


class GameEnded(Exception):
    """Raised inside a transaction when a side reaches the target: stop scoring at once."""


class Tx:
    """The state being built by one event, and the effects it has produced so far.

    Copy on first write: the state and deal the event started from are never changed (a
    refused event drops the transaction, and handlers read them as they were), so the first
    change copies each once and later changes update those copies in place. An event that
    changes its deal six times copies the state and the deal once, not six times each.
    Whatever keeps a state beyond the event (a deal's ``base``) takes it with :meth:`freeze`.
    """

    def __init__(self, state: State) -> None:
        self.state = state
        self.effects: list[Effect] = []
        self._own_state: State | None = None  # the copy this transaction made, while it is self.state
        self._own_deal: DealState | None = None  # likewise, while it is self.state.deal

    @property
    def deal(self) -> DealState:
        deal = self.state.deal
        if deal is None:
            raise RulesError("no deal is in progress")
        return deal

    def set(self, **changes: Any) -> None:
        state = self.state
        if state is self._own_state:
            state.__dict__.update(changes)
        else:
            self.state = self._own_state = changed(state, changes)
        if "deal" in changes:
            self._own_deal = None  # a deal from elsewhere: copied before it is changed

    def set_deal(self, **changes: Any) -> None:
        own = self._own_deal
        if own is not None and self.state is self._own_state:  # then own is the state's deal
            own.__dict__.update(changes)
        else:
            deal = changed(self.deal, changes)
            self.set(deal=deal)
            self._own_deal = deal

    def freeze(self) -> State:
        """The state as it is now, kept unchanged: later changes copy it first."""
        self._own_state = self._own_deal = None
        return self.state

    def alert(self, kind: AlertKind, text: str, seat: int | None = None, *, items: tuple[ScoreItem, ...] = (),
              where: Where | None = None, points: int = 0, claimed: int = 0, other: int | None = None) -> None:
        """Tell the table (a claim's alert carries the moment, its points and the claim)."""
        self.effects.append(Alert(kind, text, seat, items, where, points, claimed, other))

    def peg(self, seat: int, points: int, reason: Reason, items: tuple[ScoreItem, ...] = (), note: str = "",
            count: int | None = None) -> None:
        """Peg points for a seat's side; ends the game the instant the target is reached."""
        if points == 0:
            return
        state = self.state
        team = state.team_of(seat)
        scores = list(state.scores)
        rear = list(state.rear)
        rear[team] = scores[team]
        scores[team] = min(max(0, scores[team] + points), state.rules.game_length)  # the peg stops in the game hole
        self.set(scores=tuple(scores), rear=tuple(rear))
        deal = state.deal
        if deal is not None:
            self.set_deal(pegged=deal.pegged + ((seat, points, reason),))
        self.effects.append(Pegged(seat, team, points, reason, items, scores[team], note, count))
        if scores[team] >= state.rules.game_length:
            self._end_game(team)

    def score(self, seat: int, where: Where, points: int, items: tuple[ScoreItem, ...], count: int | None = None) -> None:
        """Count mode pegs at once; claim mode waits for the claim (as a :class:`Moment`).

        A play or heels score waits without blocking the play, until its player lays his next
        card (Hoyle: a short peg "may not be corrected after he has played the next card"; the
        leaflet: heels are lost once the dealer plays). A hand or the crib blocks the show.
        """
        if self.state.mode is not Mode.CLAIM:
            if points:
                self.peg(seat, points, where.reason, items, count=count)
            return
        moment = Moment(seat, where, points, items, count)
        if moment.where.in_show:
            self.set_deal(pending=moment)
        else:
            self._add_unclaimed(moment)

    def _add_unclaimed(self, moment: Moment) -> None:
        """One unclaimed play score per seat: a second (a go after the card) joins the first."""
        unclaimed = list(self.deal.unclaimed)
        for i, old in enumerate(unclaimed):
            if old.seat == moment.seat and old.where is moment.where:
                unclaimed[i] = Moment(old.seat, old.where, old.points + moment.points, old.items + moment.items, moment.count)
                break
        else:
            unclaimed.append(moment)
        self.set_deal(unclaimed=tuple(unclaimed))

    def _end_game(self, team: int) -> None:
        state = self.state
        others = [s for t, s in enumerate(state.scores) if t != team]
        result = classify_result(state.scores[team], max(others), state.rules)
        record = GameRecordResult(team, state.scores, result, state.first_dealer or 0)
        self.set(phase=Phase.GAME_OVER, winner=team, games=state.games + (record,))
        if state.deal is not None:
            self.set_deal(turn=None, pending=None, unclaimed=(), missed=())  # nothing after this instant counts
        text = f"{state.team_name(team)} wins {state.scores[team]}-{max(others)}: {result.kind.value}"
        self.effects.append(GameOver(team, state.scores, result, text))
        champion = _match_winner(self.state)
        if champion is not None:
            self.set(phase=Phase.MATCH_OVER)
            self.effects.append(MatchOver(champion, self.state.match_summary()))
        raise GameEnded


def _match_winner(state: State) -> int | None:
    won = state.games_won()
    needed = state.match_games // 2 + 1
    if max(won) >= needed or len(state.games) >= state.match_games:
        best = max(won)
        return won.index(best)
    return None


#: Each phase as the table says it (refusals are read by players, not programmers).
PHASE_WORDS = {
    Phase.NEW: "before the game", Phase.CUT: "the cut for the deal", Phase.STARTER: "the starter's turn-up",
    Phase.PLAY: "the play", Phase.SHOW: "the show", Phase.DONE: "the end of a deal",
    Phase.BOARD: "pegging by hand", Phase.GAME_OVER: "the end of a game", Phase.MATCH_OVER: "the end of the match",
}


def need_phase(state: State, event: ev.Event, *phases: Phase) -> None:
    if state.phase not in phases:
        what = event.kind.replace("_", " ")
        wanted = " or ".join(PHASE_WORDS[p] for p in phases)
        raise RulesError(f"{what} is not possible now, at {PHASE_WORDS[state.phase]}: only at {wanted} "
                         f"(waiting for {describe_expected(state)})")


def check_seat(state: State, seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
        raise RulesError(f"seat {seat!r} does not exist: seats are 0-{state.seats - 1} (1-{state.seats} at the table)")
    return seat


def who(state: State, seat: int) -> str:
    return f"{state.names[seat]} (seat {seat + 1})"  # people count seats from 1


def check_unseen(deal: DealState, cards: tuple[Card, ...], what: str,
                 allowed: Set[Card] = frozenset()) -> None:
    if len(cards) > 1 and len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise RulesError(f"{dup} appears twice in the {what}: every card must be different")
    for card in cards:
        if card not in allowed and deal.has_seen(card):
            raise RulesError(seen_words(card, what))
