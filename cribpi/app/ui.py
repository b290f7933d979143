"""The interaction model without I/O: actions -> game events -> what the board and OLED show."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from cribpi.exc import CribpiError, RulesError
from cribpi.game import (
    Alert, Claim, Crib, CutForDeal, Discard, Effect, EndDeal, Event, Go, HandCards, Lay,
    Misdeal, Mode, Muggins, NewGame, NextGame, Peg, Penalty, Phase, Starter, State, Undo, expected,
    describe_expected, random_cut, show_order,
)
from cribpi.game.engine import claimable
from cribpi.game.review import review_seat, reviewable_seats
from cribpi.app.session import Journal, Session
from cribpi.hal import Action, Kind
from cribpi.rules import PRESETS, Card, Rank, get_rules
from cribpi.views.model import AlertScreen, MenuScreen, MessageScreen, ScoreLine, ScreenModel, ShowScreen
from cribpi.views.oled import show_pages
from cribpi.views.table import (
    board_model, effect_screens, flash_from, last_score_line, phase_screen, scores_screen,
)

__all__ = ["TableSettings", "TableUI", "MODES_CYCLE", "DEFAULT_NAMES", "settings_of", "describe_event"]

MODES_CYCLE = (Mode.COUNT, Mode.CLAIM, Mode.BOARD)
PLAYER_SETUPS = ((2, False), (3, False), (4, False), (4, True))
BRIGHTNESS_STEPS = (0.1, 0.25, 0.5, 0.75, 1.0)
MATCH_LENGTHS = (1, 3, 5, 7)
DEFAULT_NAMES = ("Red", "Blue", "Green", "Yellow")
PENALTY_POINTS = (2, 4, 6, 1, 3, 5, 10, -2, -15)
PENALTY_REASONS = ("renege", "exposed card", "overpeg", "wrong number of cards",
                   "played out of turn", "claimed a game not won", "other")
FLASH_SECONDS = 1.2
ANIM_TICK = 0.2


@dataclasses.dataclass(frozen=True)
class TableSettings:
    """What a new game is started with (the MENU changes these)."""

    names: tuple[str, ...] = DEFAULT_NAMES
    players: int = 2
    partnerships: bool = False
    rules: str = "acc"
    mode: Mode = Mode.COUNT
    review: bool = False
    match_games: int = 1
    brightness: float = 0.5
    table: str | None = None

    def new_game(self) -> NewGame:
        rules = get_rules(self.rules).replace(players=self.players, partnerships=self.partnerships)
        names = tuple(self.names[:self.players])
        review = self.review and not rules.tournament
        return NewGame(names, rules, self.mode, self.match_games, review=review)


def settings_of(state: State, base: TableSettings) -> TableSettings:
    """The settings a resumed game was started with, so "New game" keeps the table's set-up."""
    if not state.names:
        return base
    names = state.names + tuple(n for n in base.names if n not in state.names)
    return dataclasses.replace(
        base, names=names, players=state.seats, partnerships=state.rules.partnerships,
        rules=state.rules.name if state.rules.name in PRESETS else base.rules, mode=state.mode,
        review=state.review, match_games=state.match_games)


@dataclasses.dataclass
class _Menu:
    build: Callable[[], list[tuple[str, Callable[[], None]]]]
    selected: int = 0
    title: str = "Menu"

    def __post_init__(self) -> None:
        self.items = self.build()
        self.selected = min(self.selected, len(self.items) - 1)

    def rebuilt(self) -> _Menu:
        return _Menu(self.build, self.selected, self.title)


class TableUI:
    """The interaction model, without I/O. ``handle(action)`` returns the effects."""

    def __init__(self, settings: TableSettings | None = None, *, store: Journal | None = None,
                 session: Session | None = None, rng: random.Random | None = None,
                 on_settings: Callable[[TableSettings], None] | None = None) -> None:
        self.settings = settings or TableSettings()
        self.store = store
        self.rng = rng or random.Random()
        self.session = session or Session(self.settings.new_game(), store, self.settings.table)
        self.rank: Rank | None = None  # a rank key waiting for its suit
        self.entry: list[Card] = []  # cards entered towards a cut, a crib or a hand
        self.screens: list[ScreenModel] = []  # transient screens, oldest first
        self.menu: _Menu | None = None
        self.last_score: ScoreLine | None = None
        self.tally: tuple[int, int] | None = None
        self.penalty: tuple[int, int, int] = (0, 2, 0)  # the penalty menu: seat, points, reason
        self.flash: tuple[tuple[int, ...], ...] = ()
        self.muggins_track: int | None = None
        self.on_settings = on_settings

    @property
    def state(self) -> State:
        return self.session.state

    # -- what is shown -----------------------------------------------------------------

    def screen(self) -> ScreenModel:
        if self.menu is not None:
            return MenuScreen(self.menu.title, tuple(label for label, _ in self.menu.items), self.menu.selected)
        if self.screens:
            return self.screens[0]
        hint = ""
        if "crib" in expected(self.state).actions and self.state.review:
            hint = self._crib_step()[0]
        return phase_screen(self.state, self._entry_text(), hint, self.last_score)

    def board(self, anim_step: int = 0) -> Any:
        return board_model(self.state, self.flash, anim_step=anim_step, muggins_track=self.muggins_track)

    def _entry_text(self) -> str:
        if self.tally is not None:
            seat, points = self.tally
            return f"{self.state.names[seat]} {points}"
        text = " ".join(str(c) for c in self.entry)
        if self.rank is not None:
            text = f"{text} {self.rank.symbol}_".strip()
        return text

    # -- input -------------------------------------------------------------------------

    def handle(self, action: Action) -> tuple[Effect, ...]:
        """One logical action. Refused input shows an alert and changes nothing."""
        try:
            return self._dispatch(action)
        except CribpiError as exc:
            self._refuse(str(exc))
            return ()

    def _dispatch(self, action: Action) -> tuple[Effect, ...]:
        kind = action.kind
        if kind is Kind.REJECTED:  # device noise: shown first, and nothing else changes
            self.screens.insert(0, AlertScreen(REFUSED, (action.text or "unreadable input",)))
            return ()
        if kind is Kind.MENU:
            self._toggle_menu()
            return ()
        if self.menu is not None:
            return self._menu_action(kind)
        if self.screens and kind is Kind.OK:
            self._next_screen()
            return ()
        if self.screens and kind in (Kind.UNDO, Kind.UNDO_LONG) and _is_refusal(self.screens[0]):
            self.screens.pop(0)  # UNDO after a refusal takes back the refusal, not the last event
            return ()
        self.screens.clear()
        if kind in (Kind.UNDO, Kind.UNDO_LONG):
            return self._undo()
        if kind is Kind.RANK:
            self.rank = action.rank
            return ()
        if kind is Kind.SUIT:
            if self.rank is None:
                raise RulesError("press a rank key first, then the suit")
            card = Card(self.rank, action.suit)  # type: ignore[arg-type]
            self.rank = None
            return self._card(card)
        if kind is Kind.CARD:
            return self._card(action.card)  # type: ignore[arg-type]
        return self._command(action)

    def _command(self, action: Action) -> tuple[Effect, ...]:
        kind = action.kind
        state = self.state
        if kind is Kind.GO:
            return self._apply(Go(self._turn()))
        if kind is Kind.PEG:
            return self._peg(action.seat or 0, action.points or 0)
        if kind is Kind.MUGGINS:
            return self._muggins(action.seat or 0)
        if kind is Kind.OK:
            return self._ok(state)
        raise RulesError(f"{action} does nothing here")

    def _ok(self, state: State) -> tuple[Effect, ...]:
        if self.tally is not None:
            return self._commit_tally()
        phase = state.phase
        if phase is Phase.CUT:
            return self._apply(random_cut(self.rng, state.seats))
        if phase is Phase.DONE:
            return self._apply(EndDeal())
        if phase is Phase.BOARD:
            return self._apply(EndDeal())
        if phase is Phase.GAME_OVER:
            return self._apply(NextGame())
        if phase is Phase.MATCH_OVER:
            self._confirm("Match over: new match?", "Yes: new match", lambda: (self.new_game(), None)[1],
                          from_menu=False)
            return ()
        want = expected(state)
        if "crib" in want.actions and state.review and self._crib_step()[1] == 0:
            return self._apply(self._crib_step()[2](()))  # after an undo of the crib itself
        if want.actions == ("claim",) and want.seat is not None:
            return self._apply(Claim(want.seat, 0))  # OK alone claims nothing
        raise RulesError(f"OK does nothing now: waiting for {describe_expected(state)}")

    def _turn(self) -> int:
        deal = self.state.deal
        if deal is None or deal.turn is None:
            raise RulesError("nobody is to play now")
        return deal.turn

    def _card(self, card: Card) -> tuple[Effect, ...]:
        state = self.state
        want = expected(state)
        if state.phase is Phase.CUT:
            return self._collect(card, state.seats, lambda cards: CutForDeal(cards))
        if "starter" in want.actions:
            return self._apply(Starter(card))
        if "lay" in want.actions:
            return self._apply(Lay(self._turn(), card))
        if "crib" in want.actions:
            return self._crib_card(card)
        if "hand" in want.actions and want.seat is not None:
            seat = want.seat
            laid = state.deal.cards_of(seat) if state.deal else ()
            need = state.rules.cards_held - len(laid)
            return self._collect(card, need, lambda cards: HandCards(seat, laid + cards))
        raise RulesError(f"no card is wanted now: waiting for {describe_expected(state)}")

    def _crib_step(self) -> tuple[str, int, Callable[[tuple[Card, ...]], Event]]:
        """What the next crib cards are. With the review on, each player's discard is entered
        on its own (the review needs to know whose cards they were), then any card from the
        pack; otherwise the four crib cards at once."""
        state = self.state
        deal = state.deal
        assert deal is not None
        if not state.review:
            return "Crib cards", 4, lambda cards: Crib(cards)
        for seat in show_order(state):
            if deal.discards[seat] is None:
                return (f"{state.names[seat]}'s discard", state.rules.discards_each,
                        lambda cards, seat=seat: Discard(seat, cards))
        thrown = tuple(c for d in deal.discards if d for c in d)
        label = "Crib: card from the pack" if len(thrown) < 4 else "Crib: OK to count it"
        return label, 4 - len(thrown), lambda cards: Crib(thrown + cards)

    def _crib_card(self, card: Card) -> tuple[Effect, ...]:
        _, needed, make = self._crib_step()
        if needed == 0:
            raise RulesError("the discards make the whole crib: press OK to count it")
        effects = self._collect(card, needed, make)
        if "crib" in expected(self.state).actions and not self.entry and self._crib_step()[1] == 0:
            effects += self._apply(self._crib_step()[2](()))  # 2 or 4 players: the discards are the crib
        return effects

    def _collect(self, card: Card, needed: int, make: Callable[[tuple[Card, ...]], Event]) -> tuple[Effect, ...]:
        if card in self.entry:
            raise RulesError(f"{card} is already entered: enter {needed - len(self.entry)} more different card(s)")
        self.entry.append(card)
        if len(self.entry) < needed:
            return ()
        try:
            return self._apply(make(tuple(self.entry)))
        except CribpiError:
            self.entry.pop()  # only the card that was refused; the rest stay entered
            raise

    def _peg(self, seat: int, points: int) -> tuple[Effect, ...]:
        """PEG presses add up (a +1 key pressed five times is 5); OK pegs or claims the sum."""
        state = self.state
        if seat >= state.seats:
            raise RulesError(f"seat {seat + 1} is not at this table: seats are 1-{state.seats}")
        if state.mode is not Mode.BOARD and claimable(state, seat) is None:
            raise RulesError(f"{state.names[seat]} has no score to claim now")
        if self.tally is not None and self.tally[0] != seat:
            raise RulesError(f"finish {state.names[self.tally[0]]}'s peg with OK (or UNDO) first")
        total = (self.tally[1] if self.tally else 0) + points
        self.tally = (seat, total)
        return ()

    def _commit_tally(self) -> tuple[Effect, ...]:
        assert self.tally is not None
        seat, points = self.tally
        event = Peg(seat, points) if self.state.mode is Mode.BOARD else Claim(seat, points)
        effects = self._apply(event)  # a refusal keeps the tally for UNDO or another try
        self.tally = None
        return effects

    def _muggins(self, seat: int) -> tuple[Effect, ...]:
        deal = self.state.deal
        team = self.state.team_of(seat)
        open_ = [m for m in (deal.missed if deal else ()) if self.state.team_of(m.seat) != team]
        return self._apply(Muggins(seat, open_[-1].missed if open_ else 2))

    def _undo(self) -> tuple[Effect, ...]:
        if self.tally is not None:
            self.tally = None  # drop a peg or claim not yet confirmed
            return ()
        if self.rank is not None:
            self.rank = None  # take back a rank key that waits for its suit
            return ()
        if self.entry:
            self.entry.pop()  # take back the last card of a crib, hand or cut being entered
            return ()
        events = self.session.game.events
        if len(events) <= 1:
            raise RulesError("nothing to undo: this is the start of the game")
        undone = events[-1]
        effects = self._apply(Undo(1))
        self.screens = [MessageScreen((f"took back: {describe_event(self.state, undone)}",), "Undone")]
        return effects

    def _apply(self, event: Event) -> tuple[Effect, ...]:
        effects = self.session.apply(event)
        self.entry, self.rank = [], None  # half-keyed cards never carry over to what comes next
        state = self.state
        self.flash = flash_from(state, effects)
        self.muggins_track = next((state.team_of(e.seat) for e in effects
                                   if isinstance(e, Alert) and e.kind == "muggins" and e.seat is not None), None)
        self.screens = list(effect_screens(state, effects))
        self.last_score = last_score_line(state, effects, self.last_score)
        return effects

    def _next_screen(self) -> None:
        screen = self.screens[0]
        if isinstance(screen, ShowScreen) and screen.page + 1 < show_pages(screen):
            self.screens[0] = dataclasses.replace(screen, page=screen.page + 1)
            return
        self.screens.pop(0)

    # -- the menu ----------------------------------------------------------------------

    def _toggle_menu(self) -> None:
        self.menu = None if self.menu is not None else _Menu(self._menu_items)

    def _menu_action(self, kind: Kind) -> tuple[Effect, ...]:
        assert self.menu is not None
        if kind is Kind.GO:
            self.menu.selected = (self.menu.selected + 1) % len(self.menu.items)
        elif kind is Kind.UNDO:
            self.menu.selected = (self.menu.selected - 1) % len(self.menu.items)
        elif kind is Kind.OK:
            menu = self.menu
            _, act = menu.items[menu.selected]
            act()
            if self.menu is menu:
                self.menu = menu.rebuilt()
        return ()

    def _menu_items(self) -> list[tuple[str, Callable[[], None]]]:
        s = self.settings
        items: list[tuple[str, Callable[[], None]]] = [
            ("Resume", self._close_menu),
            ("New game...", lambda: self._confirm("Abandon this game?", "Yes: new game",
                                                  lambda: (self.new_game(), None)[1])),
            ("Next game setup...", lambda: setattr(self, "menu", _Menu(self._setup_items, title="Next game"))),
            (f"Brightness: {round(s.brightness * 100)}%", lambda: self._cycle_brightness()),
            ("Scores", lambda: self._show(scores_screen(self.state))),
            ("Misdeal...", lambda: self._confirm("Misdeal: deal again?", "Yes: misdeal",
                                                 lambda: self._menu_apply(Misdeal()))),
            ("Penalty...", self._open_penalty),
        ]
        for seat in reviewable_seats(self.state):
            items.append((f"Review {self.state.names[seat]}", lambda seat=seat: self._show_review(seat)))
        return items

    def _setup_items(self) -> list[tuple[str, Callable[[], None]]]:
        """Settings for the next new game (the game in progress keeps its own)."""
        s = self.settings
        players = f"{s.players}{' pairs' if s.partnerships else ''}"
        matches = MATCH_LENGTHS[(MATCH_LENGTHS.index(s.match_games) + 1) % len(MATCH_LENGTHS)] \
            if s.match_games in MATCH_LENGTHS else 1
        return [
            (f"Mode: {s.mode.value}", self._cycle_mode),
            (f"Players: {players}", self._cycle_players),
            (f"Rules: {s.rules}", self._cycle_rules),
            (f"Match: best of {s.match_games}", lambda: self._change(match_games=matches)),
            (f"Review: {'on' if s.review else 'off'}", lambda: self._change(review=not s.review)),
            ("Start it now...", lambda: self._confirm("Abandon this game?", "Yes: new game",
                                                      lambda: (self.new_game(), None)[1])),
            ("Back", lambda: setattr(self, "menu", _Menu(self._menu_items))),
        ]

    def _confirm(self, question: str, yes: str, act: Callable[[], None], *, from_menu: bool = True) -> None:
        """A second step for what cannot be taken back with UNDO. "No" comes first, and goes
        back where the question came from."""
        back = (lambda: setattr(self, "menu", _Menu(self._menu_items))) if from_menu else self._close_menu
        self.menu = _Menu(lambda: [("No, go back", back), (yes, act)], title=question)

    def _open_penalty(self) -> None:
        self.penalty = (0, PENALTY_POINTS[0], 0)
        self.menu = _Menu(self._penalty_items, title="Judge's penalty")

    def _penalty_items(self) -> list[tuple[str, Callable[[], None]]]:
        """A judge's ruling: who pegs, how much (negative: goes back) and why."""
        seat, points, reason = self.penalty
        state = self.state
        seats = max(state.seats, 1)
        nxt = PENALTY_POINTS[(PENALTY_POINTS.index(points) + 1) % len(PENALTY_POINTS)]
        return [
            (f"Pegs: {state.names[seat] if state.names else seat + 1}",
             lambda: self._set_penalty(seat=(seat + 1) % seats)),
            (f"Points: {points:+d}", lambda: self._set_penalty(points=nxt)),
            (f"For: {PENALTY_REASONS[reason]}",
             lambda: self._set_penalty(reason=(reason + 1) % len(PENALTY_REASONS))),
            ("Peg the penalty", lambda: self._menu_apply(Penalty(seat, points, PENALTY_REASONS[reason]))),
            ("Back", lambda: setattr(self, "menu", _Menu(self._menu_items))),
        ]

    def _set_penalty(self, seat: int | None = None, points: int | None = None, reason: int | None = None) -> None:
        old = self.penalty
        self.penalty = (old[0] if seat is None else seat, old[1] if points is None else points,
                        old[2] if reason is None else reason)

    def _close_menu(self) -> None:
        self.menu = None

    def _show(self, screen: ScreenModel) -> None:
        self.menu = None
        self.screens = [screen]

    def _menu_apply(self, event: Event) -> None:
        self.menu = None
        self.handle_event(event)

    def _refuse(self, why: str) -> None:
        """Refused input: say why, in front of nothing else; the state is untouched."""
        self.rank = None
        self.screens = [AlertScreen(REFUSED, (why,))]

    def handle_event(self, event: Event) -> tuple[Effect, ...]:
        try:
            return self._apply(event)
        except CribpiError as exc:
            self._refuse(str(exc))
            return ()

    def _show_review(self, seat: int) -> None:
        review = review_seat(self.state, seat)
        if review is None:
            self._show(MessageScreen(("No review: it is off", "or the discard is", "not entered."), "Review"))
            return
        made = " ".join(map(str, review.made.discard))
        best = " ".join(map(str, review.best.discard))
        self._show(MessageScreen((f"Threw {made}: {review.made.total_ev:+.2f}",
                                  f"Best {best}: {review.best.total_ev:+.2f}",
                                  f"Cost {review.loss:.2f} pts, #{review.rank}"), f"{self.state.names[seat]} review"))

    def _change(self, **changes: Any) -> None:
        self.settings = dataclasses.replace(self.settings, **changes)
        if self.on_settings is not None:
            self.on_settings(self.settings)

    def _cycle_mode(self) -> None:
        i = MODES_CYCLE.index(self.settings.mode)
        self._change(mode=MODES_CYCLE[(i + 1) % len(MODES_CYCLE)])

    def _cycle_players(self) -> None:
        i = PLAYER_SETUPS.index((self.settings.players, self.settings.partnerships))
        players, pairs = PLAYER_SETUPS[(i + 1) % len(PLAYER_SETUPS)]
        rules = self.settings.rules if players == 2 or self.settings.rules != "five-card" else "acc"
        self._change(players=players, partnerships=pairs, rules=rules)

    def _cycle_rules(self) -> None:
        names = [n for n in PRESETS if n != "five-card" or self.settings.players == 2]
        i = names.index(self.settings.rules) if self.settings.rules in names else -1
        self._change(rules=names[(i + 1) % len(names)])

    def _cycle_brightness(self) -> None:
        steps = BRIGHTNESS_STEPS
        i = min(range(len(steps)), key=lambda k: abs(steps[k] - self.settings.brightness))
        self._change(brightness=steps[(i + 1) % len(steps)])

    def new_game(self) -> tuple[Effect, ...]:
        """Start a fresh game with the current settings (the old one is kept in the store)."""
        self.menu = None
        self.session = Session(self.settings.new_game(), self.store, self.settings.table)
        self.entry, self.rank, self.screens, self.flash = [], None, [], ()
        self.tally, self.last_score, self.muggins_track = None, None, None
        return ()


REFUSED = "Not allowed"


def _is_refusal(screen: ScreenModel) -> bool:
    return isinstance(screen, AlertScreen) and screen.title == REFUSED


def describe_event(state: State, event: Event) -> str:
    """``Ann lays 5C``: an event in a few words, for the undo notice."""
    seat = getattr(event, "seat", None)
    who = state.names[seat] if seat is not None and seat < len(state.names) else ""
    if isinstance(event, Lay):
        return f"{who} lays {event.card}"
    if isinstance(event, Starter):
        return f"the starter {event.card}"
    cards = getattr(event, "cards", None)
    detail = " ".join(map(str, cards)) if cards else str(getattr(event, "points", "") or "")
    return " ".join(part for part in (who, event.kind.replace("_", " "), detail) if part)


