"""Claims and pegs keyed by the players: PEG presses add up to a tally that OK confirms (a peg in
board mode, a claim in claim mode), and MUGGINS takes what an opponent missed."""

from __future__ import annotations

from collections.abc import Iterable

from cribpi.exc import RulesError
from cribpi.game import Alert, AlertKind, Claim, Effect, Mode, Muggins, Peg, Phase, State
from cribpi.game.engine import claimable
from cribpi.app.parts import Table

__all__ = ["ClaimTally", "muggins_track"]

UNNAMED_MUGGINS = 2  # what MUGGINS calls for when no missed score is open to take


class ClaimTally:
    """PEG presses add up (a +1 key pressed five times is 5); OK pegs or claims the sum."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.tally: tuple[int, int] | None = None  # seat, points: keyed, not yet confirmed

    def add(self, seat: int, points: int) -> None:
        state = self.table.state
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            raise RulesError("the game is over: the board takes no more pegs (OK starts the next game)")
        if seat >= state.seats:
            raise RulesError(f"seat {seat + 1} is not at this table: seats are 1-{state.seats}")
        if state.mode is not Mode.BOARD and claimable(state, seat) is None:
            raise RulesError(f"{state.names[seat]} has no score to claim now")
        if self.tally is not None and self.tally[0] != seat:
            raise RulesError(f"finish {state.names[self.tally[0]]}'s peg with OK (or UNDO) first")
        total = (self.tally[1] if self.tally else 0) + points
        self.tally = (seat, total)

    def confirm(self) -> tuple[Effect, ...]:
        """OK: peg or claim the tally. A refusal keeps it for UNDO or another try."""
        if self.tally is None:
            raise RulesError("no peg or claim is keyed: press a PEG key first")
        seat, points = self.tally
        event = Peg(seat, points) if self.table.state.mode is Mode.BOARD else Claim(seat, points)
        effects = self.table.apply(event)
        self.tally = None
        return effects

    def drop(self) -> bool:
        """UNDO: forget a tally not yet confirmed; False when there is none."""
        had, self.tally = self.tally is not None, None
        return had

    def text(self) -> str:
        """The tally as the OLED shows it (``Ann 5``), or nothing."""
        if self.tally is None:
            return ""
        seat, points = self.tally
        return f"{self.table.state.names[seat]} {points}"

    def muggins(self, seat: int) -> tuple[Effect, ...]:
        """``seat`` takes the latest score an opponent missed."""
        state = self.table.state
        team = state.team_of(seat)
        open_ = [m for m in (state.deal.missed if state.deal else ()) if state.team_of(m.seat) != team]
        return self.table.apply(Muggins(seat, open_[-1].missed if open_ else UNNAMED_MUGGINS))


def muggins_track(state: State, effects: Iterable[Effect]) -> int | None:
    """The track of whoever just took muggins, for the board to flag."""
    return next((state.team_of(e.seat) for e in effects
                 if isinstance(e, Alert) and e.kind is AlertKind.MUGGINS and e.seat is not None), None)
