"""Claims and pegs keyed by the players: PEG presses add up to a tally that OK confirms (a peg in
board mode, a claim in claim mode). MUGGINS opens a call that names its points the same way
(ACC rule 10.4: a wrong call gives the accused the points called, so the call must say them).

A call is on an opponent's claim still open to muggins. With one open, the table takes it and
the call's screen names whose it is; with none, the call is refused at once, saying so; with
claims of two opponents open (three players), the call is kept (:attr:`ClaimTally.unsettled`)
and MENU offers it on each of them (:mod:`cribpi.app.menus`)."""

from __future__ import annotations

from collections.abc import Iterable

from cribpi.exc import RulesError
from cribpi.game import Alert, AlertKind, Claim, Effect, Event, Mode, Muggins, Peg, Phase, State
from cribpi.game.claims import MAX_CLAIM, nothing_open_words
from cribpi.game.engine import claimable
from cribpi.game.queries import muggins_targets
from cribpi.app.parts import Table
from cribpi.views.model import PromptScreen

__all__ = ["ClaimTally", "muggins_track"]

CALLABLE = (Phase.PLAY, Phase.SHOW, Phase.DONE)  # when muggins may be called (else the game says why not)

def muggins_off_words(state: State) -> str:
    """Why a muggins call is refused in a game without muggins, and how it is played: switched
    on for this game from the menu in claim mode, else in a new game."""
    if state.mode is Mode.CLAIM and not state.rules.tournament:
        return ("muggins is off in this game: to play it from the next claim on, MENU, "
                "Muggins: off -> on, then Yes (a claim made before stays as it is)")
    if state.mode is Mode.CLAIM:
        return (f"muggins is off in this game, and the {state.rules.name} rules fix it for the game: "
                "a game with it: MENU, Next game setup..., Muggins: on, then Start it now...")
    return (f"muggins is not played in {state.mode.value} mode (the table has no claim to take): a game with it: "
            "MENU, Next game setup..., Mode: claim, Muggins: on, then Start it now...")


class ClaimTally:
    """PEG presses add up (a +1 key pressed five times is 5); OK pegs or claims the sum."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.tally: tuple[int, int] | None = None  # seat, points: keyed, not yet confirmed
        self.calling = False  # the tally is a muggins call (its seat is the caller)
        self.unsettled: tuple[int, int] | None = None  # a call (seat, points) waiting to be told whose claim it is on

    def add(self, seat: int, points: int) -> None:
        state = self.table.state
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            raise RulesError("the game is over: the board takes no more pegs (OK starts the next game)")
        if seat >= state.seats:
            raise RulesError(f"seat {seat + 1} is not at this table: seats are 1-{state.seats}")
        if self.tally is not None and self.tally[0] != seat:
            raise RulesError(self._unfinished(self.tally[0]))
        if not self.calling and state.mode is not Mode.BOARD and claimable(state, seat) is None:
            raise RulesError(f"{state.names[seat]} has no score to claim now")
        total = (self.tally[1] if self.tally else 0) + points
        self.tally = (seat, total)

    def confirm(self) -> tuple[Effect, ...]:
        """OK: peg or claim the tally, or make the muggins call. A refusal keeps it for UNDO or
        another try."""
        if self.tally is None:
            raise RulesError("no peg or claim is keyed: press a PEG key first")
        seat, points = self.tally
        if self.calling and points == 0:
            name = self.table.state.names[seat]
            raise RulesError(f"{name}'s muggins call names no points: PEG {name} adds them (1-{MAX_CLAIM}), then OK")
        if self.calling:
            effects = self._call(seat, points)
        else:
            event: Event = Peg(seat, points) if self.table.state.mode is Mode.BOARD else Claim(seat, points)
            effects = self.table.apply(event)
        self.drop()
        return effects

    def drop(self) -> bool:
        """UNDO: forget a tally not yet confirmed; False when there is none."""
        had, self.tally, self.calling = self.tally is not None, None, False
        return had

    def _call(self, seat: int, points: int) -> tuple[Effect, ...]:
        """The call made: on the one claim open to it; with claims of several opponents open,
        refused and kept for MENU to say whose claim it is on."""
        state = self.table.state
        targets = muggins_targets(state, seat)
        if state.edition >= 2 and len(targets) > 1:
            self.unsettled = (seat, points)
            listed = " or ".join(f"{state.names[t]} (seat {t + 1})" for t in targets)
            raise RulesError(f"claims of {listed} are open to muggins: MENU says whose claim "
                             f"{state.names[seat]}'s call is on")
        self.unsettled = None
        return self.table.apply(Muggins(seat, points))

    def accusable(self) -> tuple[int, ...]:
        """Whose claims the call kept may be on now (none once they have closed)."""
        if self.unsettled is None:
            return ()
        return muggins_targets(self.table.state, self.unsettled[0])

    def ask_zero(self, seat: int) -> None:
        """OK alone on a claim: a claim of 0 keyed, which the next OK makes. A key press is
        never taken for a claim the player has not seen asked (an OK that paged away a hand's
        breakdown and the next OK, pressed at once, claimed 0 for the hand it uncovered)."""
        self.tally, self.calling = (seat, 0), False

    def hint(self) -> str:
        """What the next keys do with a claim of 0 keyed (else "": the phase's own hint)."""
        if self.tally is None or self.calling or self.tally[1] or self.table.state.mode is not Mode.CLAIM:
            return ""
        return "OK claims 0, PEG adds, UNDO: back"

    def text(self) -> str:
        """The tally as the OLED shows it (``Ann 5``), or nothing."""
        if self.tally is None:
            return ""
        seat, points = self.tally
        return f"{self.table.state.names[seat]} {points}"

    def call_screen(self) -> PromptScreen | None:
        """A muggins call being keyed: who calls it, the points named so far and the keys that
        finish it (None when no call is open)."""
        if not self.calling or self.tally is None:
            return None
        seat, points = self.tally
        state = self.table.state
        targets = muggins_targets(state, seat)
        on = f"on {state.names[targets[0]]}: " if len(targets) == 1 else "on whom: MENU after OK; " if targets else ""
        return PromptScreen(f"{state.names[seat]} calls muggins", f"{points} point{'' if points == 1 else 's'}",
                            f"{on}PEG adds points, OK calls it, UNDO drops it")

    def muggins(self, seat: int, points: int | None = None) -> tuple[Effect, ...]:
        """``seat`` calls muggins for ``points`` (taken from what an opponent missed; a wrong call
        gives the accused those points). Without points (the MUGGINS key) the call is opened,
        and PEG presses for the caller name its points until OK."""
        state = self.table.state
        if state.mode is not Mode.CLAIM or not state.rules.muggins.moments:
            raise RulesError(muggins_off_words(state))
        if state.edition >= 2 and state.phase in CALLABLE and not muggins_targets(state, seat):
            raise RulesError(nothing_open_words(state, seat))  # refused before its points are keyed
        if points is not None:
            return self._call(seat, points)
        if self.tally is not None and not (self.calling and self.tally[0] == seat):
            raise RulesError(self._unfinished(self.tally[0]))
        if self.tally is None:
            self.tally, self.calling = (seat, 0), True
        return ()

    def _unfinished(self, seat: int) -> str:
        what = "muggins call" if self.calling else "peg"
        return f"finish {self.table.state.names[seat]}'s {what} with OK (or UNDO) first"


def muggins_track(state: State, effects: Iterable[Effect]) -> int | None:
    """The track of whoever just took muggins, for the board to flag."""
    return next((state.team_of(e.seat) for e in effects
                 if isinstance(e, Alert) and e.kind is AlertKind.MUGGINS and e.seat is not None), None)
