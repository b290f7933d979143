"""The PEG and MUGGINS keys of a keypad (the controller's key matrix), which has no key per
seat: a player says whose peg or call it is with a suit key and its points with rank keys, the
OLED saying at each step what the next press does. Each step ends in the table's own logical
actions, the ones the Pi's seat buttons and the simulator's ``p``/``x`` entries give:

* PEG, a suit key (whose: ♣ seat 1, ♦ 2, ♥ 3, ♠ 4), rank keys (A-9 add their pips, T J Q K 10
  each), OK: each rank key is ``peg SEAT N`` (the points add up, as PEG presses do), OK pegs
  them (board mode) or claims them (claim mode). In claim mode PEG starts on the seat whose
  claim is open, so ``PEG 8 OK`` claims 8; a suit key picks another seat.
* MUGGINS, a suit key (who calls it), rank keys, OK: the suit key is ``muggins SEAT`` (the
  call is opened), each rank key ``peg SEAT N`` (names its points), OK calls it.

UNDO takes back the last step (a rank key, then the seat, then the entry); UNDO held drops the
whole entry. Refusals say what would be accepted and leave the entry as it was.
"""

from __future__ import annotations

from cribpi.exc import RulesError
from cribpi.game import Mode, Phase, State, describe_expected, expected
from cribpi.game.claims import MAX_CLAIM
from cribpi.app.claims import ClaimTally, muggins_off_words
from cribpi.hal import Action, Kind
from cribpi.rules import Rank, Suit
from cribpi.views.model import PromptScreen
from cribpi.views.table import seat_label

__all__ = ["PegKeys", "COLOUR_NAMES", "pips", "seat_words", "colour_of"]

#: The tracks' colours as the OLED names them (cribpi.views.board.DEFAULT_COLOURS, in order).
COLOUR_NAMES = ("red", "blue", "green", "orange")
PEG, MUGGINS = "peg", "muggins"
OVER = (Phase.GAME_OVER, Phase.MATCH_OVER)


def pips(rank: Rank) -> int:
    """The points a rank key adds: A-9 their pips, T J Q K 10."""
    return min(int(rank), 10)


def colour_of(state: State, seat: int) -> str:
    """The colour of the seat's track (partners share one)."""
    return COLOUR_NAMES[state.team_of(seat) % len(COLOUR_NAMES)]


def seat_words(state: State, seat: int) -> str:
    """``♣Ann red``: a seat's suit key, name and track colour (the OLED's small font has the
    suit glyphs; its bold one, for titles, has not)."""
    return f"{Suit(seat).glyph}{seat_label(state, seat)} {colour_of(state, seat)}"


def _seats(state: State) -> str:
    return " ".join(seat_words(state, seat) for seat in range(state.seats))


class PegKeys:
    """A peg or muggins call being keyed: ``what`` (``peg``/``muggins``, None: none is open),
    ``seat`` once chosen, ``added`` the points of each rank key pressed."""

    def __init__(self, claims: ClaimTally) -> None:
        self.claims = claims
        self.what: str | None = None
        self.seat: int | None = None
        self.added: list[int] = []

    @property
    def state(self) -> State:
        return self.claims.table.state

    @property
    def open(self) -> bool:
        return self.what is not None

    def close(self) -> None:
        self.what, self.seat, self.added = None, None, []

    def key(self, action: Action) -> tuple[Action, ...]:
        """The table's actions for one key while an entry is open (or for a bare PEG or
        MUGGINS key, which opens one). Raises RulesError, changing nothing, for a key that
        does not fit the entry."""
        if action.is_key:
            self._start(PEG if action.kind is Kind.PEG else MUGGINS)
            return ()
        if action.kind is Kind.SUIT and action.suit is not None:
            return self._choose(int(action.suit))
        if action.kind is Kind.RANK and action.rank is not None:
            return self._add(pips(action.rank))
        if action.kind is Kind.OK:
            return self._ok()
        if action.kind is Kind.UNDO:
            self._back()
            return ()
        if action.kind is Kind.UNDO_LONG:
            self.claims.drop()
            self.close()
            return ()
        raise RulesError(f"{action} does nothing while a {self._what()} is keyed: {self.next_press()}")

    def snapshot(self) -> tuple[str | None, int | None, list[int]]:
        return self.what, self.seat, list(self.added)

    def restore(self, saved: tuple[str | None, int | None, list[int]]) -> None:
        """Back to a :meth:`snapshot`: the table refused what :meth:`key` gave."""
        self.what, self.seat, self.added = saved[0], saved[1], list(saved[2])

    def done(self) -> None:
        """After the table handled a key (this entry's or another, such as a menu's choice): a
        tally confirmed, or dropped by the table, ends the entry."""
        call_gone = self.what == MUGGINS and self.seat is not None
        if self.open and (self.added or call_gone) and self.claims.tally is None:
            self.close()

    # -- the steps -------------------------------------------------------------------------

    def _start(self, what: str) -> None:
        state = self.state
        tally = self.claims.tally
        if what == PEG and not self.open and tally is not None and not tally[1] and not self.claims.calling:
            self.what, self.seat, self.added = PEG, tally[0], []  # a claim of 0 asked: PEG adds to it
            return
        if self.added or (tally is not None and not self.open):
            seat = self.claims.tally[0] if self.claims.tally else self.seat
            raise RulesError(f"finish {seat_label(state, seat or 0)}'s {self._what()} with OK (or UNDO) first")
        if state.phase in OVER:
            raise RulesError("the game is over: the board takes no more pegs or calls (OK: next game)")
        if what == MUGGINS and (state.mode is not Mode.CLAIM or not state.rules.muggins.moments):
            raise RulesError(muggins_off_words(state))
        if state.phase is Phase.CUT:
            raise RulesError(f"nothing is pegged before the deal: waiting for {describe_expected(state)} "
                             f"(a card per seat, or OK for a random cut)")
        if what == PEG and state.mode is Mode.COUNT:
            raise RulesError("in count mode the table pegs every score itself: PEG is for board and claim mode")
        if self.what == MUGGINS and self.seat is not None:
            self.claims.drop()  # a call opened with no points named yet
        self.what, self.added = what, []
        self.seat = self._claimant() if what == PEG else None

    def _claimant(self) -> int | None:
        """In claim mode, the seat whose claim is open: the show's hand or crib, else the
        player of the play's last card."""
        deal = self.state.deal
        if self.state.mode is not Mode.CLAIM or deal is None:
            return None
        if deal.pending is not None:
            return deal.pending.seat
        return deal.unclaimed[-1].seat if deal.unclaimed else None

    def _zero_claim(self) -> bool:
        """OK alone claims 0 for the seat chosen (the show waits for that claim)."""
        want = expected(self.state)
        return self.state.mode is Mode.CLAIM and want.actions == ("claim",) and want.seat == self.seat

    def _choose(self, seat: int) -> tuple[Action, ...]:
        state = self.state
        if seat >= state.seats:
            raise RulesError(f"{Suit(seat).glyph} is seat {seat + 1}: the seats here are {_seats(state)}")
        if self.added:
            raise RulesError(f"{seat_label(state, self.seat or 0)}'s points are keyed: OK {self._verb()}, "
                             f"UNDO takes them back to pick another seat")
        if self.what == MUGGINS:
            if self.seat is not None:  # another caller: the call opened for the first is dropped
                self.claims.drop()
                self.seat = None
            self.seat = seat
            return (Action.muggins(seat),)  # the call is opened; rank keys name its points
        self.seat = seat
        return ()

    def _add(self, points: int) -> tuple[Action, ...]:
        state = self.state
        if self.seat is None:
            raise RulesError(f"first the suit key of {'who calls' if self.what == MUGGINS else 'whose peg'}: {_seats(state)}")
        total = sum(self.added) + points
        if total > MAX_CLAIM:
            raise RulesError(f"{total} is more than one score can be ({MAX_CLAIM}): OK {self._verb()} "
                             f"{sum(self.added)}, then key the rest as another")
        action = Action.peg(self.seat, points)
        self.added.append(points)
        return (action,)

    def _ok(self) -> tuple[Action, ...]:
        state = self.state
        if self.seat is None:
            raise RulesError(f"first the suit key of {'who calls' if self.what == MUGGINS else 'whose peg'}: {_seats(state)}")
        if not self.added and self.what == MUGGINS:
            raise RulesError(f"{seat_label(state, self.seat)}'s call names no points yet: A-9 and T add them, then OK")
        if not self.added and self.what == PEG:
            if self._zero_claim():
                self.close()
                return (Action.plain(Kind.OK),)  # OK alone claims 0, as without the entry
            raise RulesError(f"no points keyed for {seat_label(state, self.seat)}: A-9 and T add them, then OK")
        return (Action.plain(Kind.OK),)

    def _back(self) -> None:
        """UNDO: the last rank key, else the seat, else the entry."""
        if self.added:
            self.added.pop()
            total = sum(self.added)
            if self.what == MUGGINS:
                self.claims.tally, self.claims.unsettled = (self.seat or 0, total), None  # the call is not made
            else:
                self.claims.tally = (self.seat or 0, total) if total else None
            return
        if self.claims.tally is not None:  # a call opened, or a claim of 0 asked: taken back too
            self.claims.drop()
        if self.seat is not None and not (self.what == PEG and self.seat == self._claimant()):
            self.seat = None
        else:
            self.close()

    # -- what the OLED says ----------------------------------------------------------------

    def _what(self) -> str:
        return "muggins call" if self.what == MUGGINS or self.claims.calling else "peg"

    def _verb(self) -> str:
        if self.what == MUGGINS:
            return "calls"
        return "claims" if self.state.mode is Mode.CLAIM else "pegs"

    def next_press(self) -> str:
        """What the next press does, in a few words."""
        if self.seat is None:
            return f"suit key: {_seats(self.state)}"
        total = sum(self.added)
        if self.what == PEG and not total:
            if self._zero_claim():
                return "A-9,T add points; OK for 0; a suit: other seat"
            return "A-9,T add points, a suit: another seat"
        if self.what == MUGGINS and not total:
            return "A-9,T add the points called"
        if self.what == MUGGINS and self.claims.unsettled is not None:  # three players: on whose claim?
            return f"MENU: whose claim it is on; UNDO -{self.added[-1]}"
        return f"A-T add more; OK {self._verb()} {total}; UNDO -{self.added[-1]}"

    def screen(self) -> PromptScreen | None:
        """The entry on the OLED: whose peg or call, the points so far, the next press."""
        if not self.open:
            return None
        state = self.state
        if self.seat is None:
            title = "Muggins: who calls?" if self.what == MUGGINS else "Peg: whose?"
            return PromptScreen(title, "", self.next_press(), cursor=False)
        who = f"{seat_label(state, self.seat)} ({colour_of(state, self.seat)})"
        total = sum(self.added)
        if self.what == MUGGINS:
            title = f"{seat_label(state, self.seat)} calls muggins"
        else:
            title = f"{'Claim' if state.mode is Mode.CLAIM else 'Peg'} {who}"
        return PromptScreen(title, str(total) if self.added else "", self.next_press())
