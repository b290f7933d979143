"""The interaction model without I/O: actions -> game events -> what the board and OLED show.

:class:`TableUI` hands each action to the part whose job it is (:mod:`~cribpi.app.entry` for
cards, :mod:`~cribpi.app.claims` for pegs and claims, :mod:`~cribpi.app.menus` for MENU) and
keeps what is shown (queued screens, LED flashes) in step with the game. A keypad's bare PEG and
MUGGINS keys go through :mod:`~cribpi.app.pegkeys`, which makes the same peg and muggins actions
of the suit and rank keys that follow.
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Callable
from typing import NamedTuple, TypeVar

from cribpi.exc import CribpiError, RulesError
from cribpi.game import (
    Alert, AlertKind, Claim, CutForDeal, Effect, EndDeal, Event, Go, Lay, Mode, MoveCard, NextGame, Phase, Starter, State, Undo,
    describe_expected, expected, random_cut,
)
from cribpi.game.confirm import answers
from cribpi.game.events import Confirm, MugginsSet
from cribpi.app.claims import ClaimTally, muggins_track
from cribpi.app.entry import CardEntry, turn_of
from cribpi.app.menus import Menu, PenaltyDraft, TableMenus
from cribpi.app.pegkeys import PegKeys
from cribpi.app.session import Journal, Session
from cribpi.app.settings import TableSettings
from cribpi.hal import Action, Kind
from cribpi.views.board import BoardModel
from cribpi.views.model import AlertScreen, MessageScreen, ScoreLine, ScoreScreen, ScreenModel, ShowScreen
from cribpi.views.oled import DEFAULT_SIZE, Size, pages
from cribpi.views.table import (
    ALERT_TITLES, board_model, cut_screen, deal_last_score, effect_screens, flash_from, in_play, last_score_after,
    phase_screen,
)

__all__ = ["TableUI", "Hold", "not_begun", "describe_event", "ok_event", "page_through", "refusal", "is_refusal", "REFUSED",
           "ANIM_TICK", "FLASH_SECONDS"]

FLASH_SECONDS = 1.2
ANIM_TICK = 0.2
REFUSED = "Not allowed"
REFUSAL_UNDO = "UNDO: back"
#: The alerts that wait for their OK while cards are keyed: a renege must be seen (the opponent
#: may claim it only before playing another card, ACC 7.3). Any other alert gives way to the next
#: key as a score does: one left up would hide the card being keyed and the count.
WAIT_FOR_OK = (ALERT_TITLES[AlertKind.RENEGE],)
PAGED = (ShowScreen, ScoreScreen, AlertScreen, MessageScreen)  # the screens that have pages
UNDO_KEYS = (Kind.UNDO, Kind.UNDO_LONG)
PLAY_KEYS = (Kind.RANK, Kind.SUIT, Kind.CARD, Kind.GO)  # keys that leave an unread alert queued
OVER = (Phase.GAME_OVER, Phase.MATCH_OVER)
T = TypeVar("T")

log = logging.getLogger(__name__)


class Hold(NamedTuple):
    """What holds a game of some players at the table (a tournament round whose games are all
    played there, by the players it seated): the screen that says so while the table waits,
    and why a new game is refused."""

    screen: MessageScreen
    why: str


def not_begun(state: State) -> bool:
    """The game has not begun: no card, no score (a cut taken back is none)."""
    return state.phase in (Phase.NEW, Phase.CUT) and not state.games and not any(state.scores)


class TableUI:
    """The interaction model, without I/O. ``handle(action)`` returns the effects."""

    def __init__(self, settings: TableSettings | None = None, *, store: Journal | None = None,
                 session: Session | None = None, rng: random.Random | None = None,
                 on_settings: Callable[[TableSettings], None] | None = None) -> None:
        self.settings = settings or TableSettings()
        self.store = store
        self.rng = rng or random.Random()
        self.session = session or Session(self.settings.new_game(), store, self.settings.table)
        # told the settings before they change, and as a game starts with them (a journal keeps them)
        self.on_settings = on_settings
        self.entry = CardEntry(self)
        self.claims = ClaimTally(self)
        self.pegkeys = PegKeys(self.claims)  # a peg or call keyed with PEG/MUGGINS, a suit and ranks
        self.menus = TableMenus(self)
        self.screens: list[ScreenModel] = []  # transient screens, oldest first
        self.last_score: ScoreLine | None = None
        self.flash: tuple[tuple[int, ...], ...] = ()
        self.muggins_track: int | None = None
        self.display_size: Size = DEFAULT_SIZE  # the table's display: OK pages at its size
        # the pages a screen takes where the table shows it otherwise (the simulator's words
        # alone, a page a terminal's worth of lines); None: as the display draws it
        self.count_pages: Callable[[ScreenModel], int] | None = None
        # what holds a game of these players (names, best of), asked when no game is under way
        # and before a new one starts (a tournament's seating once its games are played by the
        # players it seated: cribpi.tournament.table.seatcast)
        self.hold: Callable[[tuple[str, ...], int], Hold | None] | None = None
        # the phones' address and this game's PIN for the menu's join screen ("Phones"): the
        # daemon hands in its phone server's (the app never imports it); None: no phones
        self.join_info: Callable[[], tuple[str, str] | None] | None = None
        if session is None:
            self._keep_started()
        else:  # resumed: the last score in the words it was made with, not a bare "play"
            self.last_score = deal_last_score(self.state, self.session.game.events)

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def menu(self) -> Menu | None:
        return self.menus.current

    @property
    def tally(self) -> tuple[int, int] | None:
        """A peg or claim keyed but not confirmed yet: (seat, points)."""
        return self.claims.tally

    @tally.setter
    def tally(self, tally: tuple[int, int] | None) -> None:
        self.claims.tally = tally

    # -- what is shown -----------------------------------------------------------------

    def screen(self) -> ScreenModel:
        if self.menus.current is not None:
            return self.menus.current.shown()
        if self.screens:
            return self.screens[0]
        if self.settings.confirm_results and self.state.phase in OVER:
            given, side = answers(self.session.game.events), self.confirming()
            if side is not None or False in given.values():
                disputed = confirm_screen(self.state, side, given)
                held = self.held() if side is None and self.state.phase is Phase.MATCH_OVER else None
                if held is None:
                    return disputed
                return dataclasses.replace(disputed, lines=(*disputed.lines[:-1], *held.screen.lines))  # not "OK: new match"
        over = self.state.phase is Phase.MATCH_OVER  # the next game is the set-up's; one not begun, its own
        held = self.held() if over else self.held(self.state) if not_begun(self.state) else None
        if held is not None:
            return held.screen
        call = self.pegkeys.screen() or self.claims.call_screen()
        if call is not None:
            return call
        keyed = self.claims.text() or self.entry.text()
        return phase_screen(self.state, keyed, self.claims.hint() or self.entry.hint(), self.last_score)

    def pages(self, screen: ScreenModel) -> int:
        """How many pages OK steps through on ``screen``, as the table shows it."""
        return self.count_pages(screen) if self.count_pages is not None else pages(screen, self.display_size)

    def confirming(self) -> int | None:
        """The side asked to confirm the game just finished, or None: the table does not ask
        (a casual table), the game is not over, every side has confirmed, or a side disputed."""
        if not self.settings.confirm_results or self.state.phase not in OVER:
            return None
        given = answers(self.session.game.events)
        if False in given.values():
            return None
        return next((side for side in range(len(self.state.scores)) if side not in given), None)

    def held(self, game: State | None = None) -> Hold | None:
        """What holds a game of ``game``'s players and match, or of the next new game's as the
        set-up has them (see :attr:`hold`); None: nothing does (other players may play)."""
        if self.hold is None:
            return None
        if game is None:
            return self.hold(tuple(self.settings.names[:self.settings.players]), self.settings.match_games)
        return self.hold(game.names, game.match_games)

    def board(self, *, marks: bool = True) -> BoardModel:
        return board_model(self.state, self.flash, alert_track=self.muggins_track,
                           brightness=self.settings.brightness, marks=marks)

    def show(self, screen: ScreenModel) -> None:
        """Close the menu and show ``screen`` until OK."""
        self.menus.close()
        self.screens = [screen]

    # -- input -------------------------------------------------------------------------

    def handle(self, action: Action) -> tuple[Effect, ...]:
        """One logical action. Refused input shows an alert and changes nothing."""
        try:
            return self._refusing(self._dispatch, action)
        finally:
            self.pegkeys.done()  # a call settled from the menu ends its keypad entry too

    def handle_event(self, event: Event) -> tuple[Effect, ...]:
        """An event from outside the keys (a menu, the simulator); refused like a key."""
        return self._refusing(self.apply, event)

    def apply(self, event: Event) -> tuple[Effect, ...]:
        """Journal and apply ``event``, then show its effects; raises if the game refuses it."""
        before = self.state
        effects = self.session.apply(event)
        self.entry.clear()  # half-keyed cards never carry over to what comes next
        state = self.state
        self.flash = flash_from(state, effects)
        self.muggins_track = muggins_track(state, effects)
        self.menus.suggested = next((draft for e in effects if isinstance(e, Alert)
                                     if (draft := PenaltyDraft.renege(e)) is not None), self.menus.suggested)
        self.screens = list(effect_screens(state, effects, before))
        if isinstance(event, CutForDeal) and state.mode is Mode.BOARD:  # no starter prompt will name the dealer
            self.screens = [cut_screen(state, event.cards, effects)]
        # after a move or an undo, the play's latest score as it now stands, in its words
        self.last_score = last_score_after(state, event, effects, self.last_score, self.session.game.events)
        return effects

    def change_settings(self, step: Callable[[TableSettings], TableSettings]) -> None:
        """A choice made in the menu: kept first, so one that cannot be kept (a full disk)
        is refused, in place of the menu, and nothing changes."""
        settings = step(self.settings)
        if self.on_settings is not None:
            try:
                self.on_settings(settings)
            except CribpiError as exc:
                self.show(refusal(str(exc)))
                return
        self.settings = settings

    def _keep_started(self) -> None:
        """A game started with the settings: they are the table's set-up now. The game is
        journalled already, so a set-up that cannot be kept is only logged."""
        if self.on_settings is None:
            return
        try:
            self.on_settings(self.settings)
        except CribpiError as exc:
            log.warning("the set-up of the game just started is not kept: %s", exc)

    def new_game(self) -> tuple[Effect, ...]:
        """Start a fresh game with the current settings (the old one is kept in the store);
        refused, saying why, while something holds a game of the set-up's players (:meth:`held`)."""
        self.menus.close()
        held = self.held()
        if held is not None:
            raise RulesError(held.why)
        self.session = Session(self.settings.new_game(), self.store, self.settings.table)
        self.entry.clear()
        self.claims.drop()
        self.pegkeys.close()
        self.screens, self.flash, self.last_score, self.muggins_track = [], (), None, None
        self._keep_started()
        return ()

    def _dispatch(self, action: Action) -> tuple[Effect, ...]:
        kind = action.kind
        if kind is Kind.REJECTED:  # device noise: shown first, and nothing else changes
            self.screens.insert(0, in_play(self.state, refusal(action.text or "unreadable input")))
        elif kind is Kind.MENU or self.menus.current is not None:
            self.menus.press(kind)
        elif not page_through(self.screens, kind, self.pages):
            # a score gives way to the next key; an alert waits for its OK while cards are keyed
            waiting = unread_alerts(self.screens) if kind in PLAY_KEYS else []
            self.screens.clear()
            try:
                return self._key(action)
            finally:
                self.screens[:0] = waiting
        return ()

    def _key(self, action: Action) -> tuple[Effect, ...]:
        if not_begun(self.state) and (held := self.held(self.state)) is not None:
            raise RulesError(held.why)  # a game started before the hold (a restart's) is not played
        if action.is_key or self.pegkeys.open:
            return self._peg_key(action)
        if action.kind in UNDO_KEYS:
            return self._undo()
        if action.kind is Kind.RANK and action.rank is not None:
            self.entry.key_rank(action.rank)
            return ()
        if action.kind is Kind.SUIT and action.suit is not None:
            return self.entry.key_suit(action.suit)
        if action.kind is Kind.CARD and action.card is not None:
            return self.entry.card(action.card)
        return self._command(action)

    def _peg_key(self, action: Action) -> tuple[Effect, ...]:
        """A key of a peg or muggins call being keyed: the actions it makes, handled as any
        peg, muggins or OK is; refused, the entry is as it was before the key."""
        saved = self.pegkeys.snapshot()
        if action.is_key:
            self.entry.rank = None  # a rank keyed before PEG is not a card's any more
        effects: tuple[Effect, ...] = ()
        try:
            for logical in self.pegkeys.key(action):
                effects += self._command(logical)
        except CribpiError:
            self.pegkeys.restore(saved)
            raise
        self.pegkeys.done()
        return effects

    def _command(self, action: Action) -> tuple[Effect, ...]:
        kind = action.kind
        if kind is Kind.GO:
            rank = self.entry.rank
            effects = self.apply(Go(turn_of(self.state)))
            if rank is not None and "lay" in expected(self.state).actions:
                self.entry.rank = rank  # a rank keyed before GO is the next seat's card
            return effects
        if kind is Kind.PEG:
            self.claims.add(action.seat or 0, action.points or 0)
            return ()
        if kind is Kind.MUGGINS:
            return self.claims.muggins(action.seat or 0, action.points)
        if kind is Kind.OK:
            return self._ok()
        raise RulesError(f"{action} does nothing here")

    def _ok(self) -> tuple[Effect, ...]:
        if self.claims.tally is not None:
            return self.claims.confirm()
        side = self.confirming()
        if side is not None:
            return self.apply(Confirm(side))
        if self.state.phase is Phase.MATCH_OVER:
            return self.new_game()  # the match is kept in the journal: nothing to confirm
        if self.entry.crib_ready():
            return self.entry.count_crib()  # after an undo of the crib itself
        event = ok_event(self.state, self.rng)
        if isinstance(event, Claim):  # OK alone asks "claim 0?" first: the next OK says yes
            self.claims.ask_zero(event.seat)
            return ()
        return self.apply(event)

    def _undo(self) -> tuple[Effect, ...]:
        if self.claims.drop() or self.entry.take_back():
            return ()  # an unconfirmed peg, a rank waiting for its suit, the last card keyed
        side = self.confirming()
        if side is not None:
            return self.apply(Confirm(side, agree=False))  # at the question, UNDO disputes
        events = self.session.game.events
        if len(events) <= 1:
            raise RulesError("nothing to undo: this is the start of the game")
        undone = events[-1]
        effects = self.apply(Undo(1))
        self.screens = [in_play(self.state, MessageScreen((f"took back: {describe_event(self.state, undone)}",), "Undone"))]
        return effects

    def _refusing(self, act: Callable[[T], tuple[Effect, ...]], arg: T) -> tuple[Effect, ...]:
        """Refused input says why, in front of nothing else; the state is untouched."""
        try:
            return act(arg)
        except CribpiError as exc:
            self.entry.rank = None  # a refused card is keyed afresh, rank first
            self.screens = [in_play(self.state, refusal(str(exc))), *unread_alerts(self.screens)]
            return ()


def ok_event(state: State, rng: random.Random) -> Event:
    """What OK means to the game when no tally, menu, screen or crib is waiting for it."""
    phase = state.phase
    if phase is Phase.CUT:
        return random_cut(rng, state.seats)
    if phase in (Phase.DONE, Phase.BOARD):
        return EndDeal()
    if phase is Phase.GAME_OVER:
        return NextGame()
    want = expected(state)
    if want.actions == ("claim",) and want.seat is not None:
        return Claim(want.seat, 0)  # OK alone claims nothing
    raise RulesError(f"OK does nothing now: waiting for {describe_expected(state)}")


def confirm_screen(state: State, side: int | None, given: dict[int, bool]) -> MessageScreen:
    """The question to ``side`` (or, with None, what a dispute means): the result named, and
    the two keys; what the table publishes waits for every side's OK."""
    result = "-".join(map(str, state.scores))
    if side is not None:
        return MessageScreen((f"{state.team_name(side)}: OK confirms", f"the result {result},",
                              "UNDO disputes it"), "Confirm result")
    disputer = next(s for s, agree in given.items() if not agree)
    after = "OK: new match" if state.phase is Phase.MATCH_OVER else "OK: next game"
    return MessageScreen((f"{state.team_name(disputer)} disputes", f"the result {result}:",
                          "the director rules", after), "Disputed")


def refusal(why: str) -> AlertScreen:
    """Why the input was refused. UNDO here takes back only the refusal (the input changed
    nothing), so the screen says so: a second UNDO takes back the last event."""
    return AlertScreen(REFUSED, (why, REFUSAL_UNDO))


def is_refusal(screen: ScreenModel) -> bool:
    return isinstance(screen, AlertScreen) and screen.title == REFUSED


def unread_alerts(screens: list[ScreenModel]) -> list[ScreenModel]:
    """The alerts queued that a card keyed leaves queued, each waiting for its OK: a renege only
    (see WAIT_FOR_OK)."""
    return [s for s in screens if isinstance(s, AlertScreen) and s.title in WAIT_FOR_OK]


def page_through(screens: list[ScreenModel], kind: Kind, count: Callable[[ScreenModel], int] = pages) -> bool:
    """With screens queued, OK pages through them (as many pages as ``count`` says each takes:
    by default on the 128x64 OLED) and UNDO takes back a refusal (not the last event); True
    when the key was used so."""
    if screens and kind is Kind.OK:
        next_page(screens, count)
        return True
    if screens and kind in UNDO_KEYS and is_refusal(screens[0]):
        screens.pop(0)
        return True
    return False


def next_page(screens: list[ScreenModel], count: Callable[[ScreenModel], int] = pages) -> None:
    """OK on a queued screen: its next page (a long show, a score's reasons, an alert's or a
    message's lines), else the next screen."""
    screen = screens[0]
    if isinstance(screen, PAGED) and screen.page + 1 < count(screen):
        screens[0] = dataclasses.replace(screen, page=screen.page + 1)
    else:
        screens.pop(0)


def describe_event(state: State, event: Event) -> str:
    """``Ann lays 5C``: an event in a few words, for the undo notice."""
    seat = getattr(event, "seat", None)
    who = state.names[seat] if seat is not None and seat < len(state.names) else ""
    if isinstance(event, Lay):
        return f"{who} lays {event.card}"
    if isinstance(event, MoveCard):
        return f"{event.card} moved to {who}"
    if isinstance(event, Starter):
        return f"the starter {event.card}"
    if isinstance(event, Confirm):
        return f"{state.team_name(event.side)} {'confirms' if event.agree else 'disputes'} the result"
    if isinstance(event, MugginsSet):
        return f"muggins switched {'on' if event.on else 'off'}"
    cards = getattr(event, "cards", None)
    detail = " ".join(map(str, cards)) if cards else str(getattr(event, "points", "") or "")
    return " ".join(part for part in (who, event.kind.replace("_", " "), detail) if part)
