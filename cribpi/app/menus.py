"""The menus behind MENU: the main menu, the next game's set-up, a confirming question and the
judge's penalty. GO moves down, UNDO up, OK chooses; a menu is built afresh after each choice,
so its labels always say what is set now.

What the table is waiting on comes first, so MENU opens on it: a renege that may be claimed
(ACC rule 7.3: the play goes back to the go), and a muggins call that must say whose claim it
is on (three players)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Protocol

from cribpi.game import (
    Alert, AlertKind, Effect, Event, Misdeal, Mode, MoveCard, Muggins, MugginsSet, Penalty, Phase, Renege, State, apply,
    open_reneges,
)
from cribpi.exc import RulesError, ViewError
from cribpi.game.claims import muggins_switch_refusal
from cribpi.game.review import reviewable_seats
from cribpi.app.claims import ClaimTally
from cribpi.app.parts import Table
from cribpi.app.review import review_screen
from cribpi.app.settings import (
    TableSettings, fixed_game_length, game_length_of, muggins_on, next_brightness, next_game_length, next_match,
    next_mode, next_players, next_rules, next_speech, next_speech_say, next_speech_speed, next_speech_voice,
    next_speech_volume, review_allowed, speech_words, toggle_muggins, toggle_review,
)
from cribpi.hal import Kind
from cribpi.rules import Card
from cribpi.views.join import qr_code
from cribpi.views.model import JoinScreen, MenuScreen, MessageScreen, ScreenModel
from cribpi.views.table import scores_screen

__all__ = ["Menu", "MenuItem", "MenuHost", "TableMenus", "PenaltyDraft", "PENALTY_POINTS", "PENALTY_REASONS", "movable",
           "misdealable", "penalisable", "muggins_label", "MUGGINS_SWITCHED"]

MenuItem = tuple[str, Callable[[], object]]
PENALTY_POINTS = (2, 4, 6, 1, 3, 5, 10, -2, -15)
PENALTY_REASONS = ("renege", "exposed card", "overpeg", "wrong number of cards",
                   "played out of turn", "claimed a game not won", "other")


@dataclasses.dataclass
class Menu:
    """One menu on the OLED: a title and items, each a label and what OK on it does."""

    build: Callable[[], list[MenuItem]]
    title: str = "Menu"
    selected: int = 0
    view: Callable[[], ScreenModel] | None = None  # shown in place of the items (the phones' join screen)
    items: list[MenuItem] = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.items = self.build()
        self.selected = min(self.selected, len(self.items) - 1)

    def rebuilt(self) -> Menu:
        return Menu(self.build, self.title, self.selected, self.view)

    def move(self, step: int) -> None:
        self.selected = (self.selected + step) % len(self.items)

    def screen(self) -> MenuScreen:
        return MenuScreen(self.title, tuple(label for label, _ in self.items), self.selected)

    def shown(self) -> ScreenModel:
        """What the OLED shows: the menu's own screen, or its view in place of the items."""
        return self.view() if self.view is not None else self.screen()


@dataclasses.dataclass(frozen=True)
class PenaltyDraft:
    """The judge's ruling being set: who pegs, how many (negative: goes back) and why."""

    seat: int = 0
    points: int = PENALTY_POINTS[0]
    reason: int = 0  # an index into PENALTY_REASONS

    def next_seat(self, seats: int) -> PenaltyDraft:
        return dataclasses.replace(self, seat=(self.seat + 1) % max(seats, 1))

    def next_points(self) -> PenaltyDraft:
        i = PENALTY_POINTS.index(self.points)
        return dataclasses.replace(self, points=PENALTY_POINTS[(i + 1) % len(PENALTY_POINTS)])

    def next_reason(self) -> PenaltyDraft:
        return dataclasses.replace(self, reason=(self.reason + 1) % len(PENALTY_REASONS))

    def event(self) -> Penalty:
        return Penalty(self.seat, self.points, PENALTY_REASONS[self.reason])

    @classmethod
    def renege(cls, alert: Alert) -> PenaltyDraft | None:
        """The penalty a renege alert names (its opponent pegs its points), if it names one."""
        if alert.kind is not AlertKind.RENEGE or alert.other is None or alert.points not in PENALTY_POINTS:
            return None
        return cls(alert.other, alert.points, PENALTY_REASONS.index("renege"))


def movable(state: State) -> bool:
    """A card of this deal's play can be moved to another seat (until the deal or game ends)."""
    deal = state.deal
    return state.phase in (Phase.PLAY, Phase.SHOW, Phase.DONE) and deal is not None and bool(deal.played)


def misdealable(state: State) -> bool:
    """A misdeal can be called once the cards are dealt, until the first card is laid."""
    deal = state.deal
    return state.phase in (Phase.STARTER, Phase.PLAY) and deal is not None and not deal.played


def penalisable(state: State) -> bool:
    """A judge's penalty can be pegged while a game is being played (not before the cut, nor
    once it is won)."""
    return state.phase in (Phase.STARTER, Phase.PLAY, Phase.SHOW, Phase.DONE, Phase.BOARD)


def muggins_label(state: State) -> str | None:
    """The main menu's switch of muggins for the game being played (claim mode, while a game
    is being played): ``Muggins: off -> on``; a tournament preset's fixed muggins says so."""
    if state.mode is not Mode.CLAIM or state.phase in (Phase.NEW, Phase.MATCH_OVER):
        return None
    now = bool(state.rules.muggins.moments)
    if state.rules.tournament:
        return f"Muggins: {'on' if now else 'off'} (tournament)"
    return f"Muggins: {'on -> off' if now else 'off -> on'}"


#: What switching muggins changes, said under the question (lines of at most 24 characters,
#: a menu row on the OLED), and the screen after it is switched.
MUGGINS_SWITCHED = {
    True: ("Muggins on this game?", "Yes: muggins on",
           ("From the next claim on,", "an under-claim can be", "taken by the opponents", "(MUGGINS). Claims made",
            "before stay as they are."),
           ("On for this game, from", "the next claim on.")),
    False: ("Muggins off this game?", "Yes: muggins off",
            ("From now on, an under-", "claim stands as claimed;", "what is open to muggins", "now closes."),
            ("Off for this game, from", "now on.")),
}


def _can_move(state: State, card: Card, seat: int) -> bool:
    """Whether the game takes ``card`` moved to ``seat`` (the play scored again from it)."""
    try:
        apply(state, MoveCard(card, seat))
    except RulesError:
        return False
    return True


class MenuHost(Table, Protocol):
    """What the menus do to the table besides reading it."""

    @property
    def settings(self) -> TableSettings: ...

    @property
    def claims(self) -> ClaimTally: ...

    #: the phones' address and this game's PIN, asked each time the join screen is drawn
    #: (the daemon hands in its phone server's); None: the table has no phones
    join_info: Callable[[], tuple[str, str] | None] | None

    def change_settings(self, step: Callable[[TableSettings], TableSettings]) -> None: ...

    def new_game(self) -> tuple[Effect, ...]: ...

    def show(self, screen: ScreenModel) -> None:
        """Close the menu and show ``screen`` until OK."""

    def handle_event(self, event: Event) -> tuple[Effect, ...]: ...


class TableMenus:
    """Which menu is open, if any, and the menus' own trees."""

    def __init__(self, host: MenuHost) -> None:
        self.host = host
        self.current: Menu | None = None
        self.penalty = PenaltyDraft()
        self.suggested: PenaltyDraft | None = None  # a renege just reported: its penalty, ready to peg

    def press(self, kind: Kind) -> None:
        """MENU opens or closes; in a menu GO moves down, UNDO up and OK chooses."""
        menu = self.current
        if kind is Kind.MENU:
            self.current = Menu(self._main) if menu is None else None
        elif menu is not None and kind in (Kind.GO, Kind.UNDO):
            menu.move(1 if kind is Kind.GO else -1)
        elif menu is not None and kind is Kind.OK:
            menu.items[menu.selected][1]()
            if self.current is menu:
                self.current = menu.rebuilt()

    def close(self) -> None:
        self.current = None

    def confirm(self, question: str, yes: str, act: Callable[[], object], *, from_menu: bool = True) -> None:
        """A second step for what cannot be taken back with UNDO. "No" comes first, and goes
        back where the question came from."""
        back = self._open_main if from_menu else self.close
        self.current = Menu(lambda: [("No, go back", back), (yes, act)], title=question)

    def _open_main(self) -> None:
        self.current = Menu(self._main)

    def _back_to(self, build: Callable[[], list[MenuItem]], label: str, title: str = "Menu") -> Callable[[], None]:
        """A submenu's "Back": it closes, and the menu it was opened from is shown again on the
        item that opened it (not from its top)."""
        def back() -> None:
            menu = Menu(build, title)
            labels = [item for item, _ in menu.items]
            menu.selected = labels.index(label) if label in labels else 0
            self.current = menu
        return back

    def _open_phones(self) -> None:
        """The join screen, until Back (OK) or MENU: drawn afresh each time, so a new game's PIN shows."""
        self.current = Menu(lambda: [("Back", self._back_to(self._main, "Phones"))], title="Phones",
                            view=self._join_screen)

    def _join_screen(self) -> ScreenModel:
        info = self.host.join_info() if self.host.join_info is not None else None
        if info is None:
            return MessageScreen(("The phones' page is not", "served now: see the", "table's problems."), "Phones")
        url, pin = info
        try:
            qr_code(url)  # an address too long for the code is said, not drawn in part
            return JoinScreen(url, pin, tuple(self.host.state.names))
        except ViewError as error:
            return MessageScreen((str(error),), "Phones")

    def _open_setup(self) -> None:
        self.current = Menu(self._setup, title="Next game")

    def _main(self) -> list[MenuItem]:
        host = self.host
        items: list[MenuItem] = [
            *self._waiting(),
            ("Resume", self.close),
            ("New game...", self._confirm_new_game),
            ("Next game setup...", self._open_setup),
            *([(label, self._confirm_muggins)] if (label := muggins_label(host.state)) is not None else []),
            (f"Brightness: {round(host.settings.brightness * 100)}%", lambda: host.change_settings(next_brightness)),
            ("Scores", lambda: host.show(scores_screen(host.state))),
            *([("Phones", self._open_phones)] if host.join_info is not None else []),
            *([("Misdeal...", self._confirm_misdeal)] if misdealable(host.state) else []),
            *([("Penalty...", self._open_penalty)] if penalisable(host.state) else []),
            *([("Move a card...", self._open_moves)] if movable(host.state) else []),
        ]
        return items + [(f"Review {host.state.names[seat]}", self._reviewer(seat))
                        for seat in reviewable_seats(host.state)]

    def _waiting(self) -> list[MenuItem]:
        """A renege that may be claimed, and a muggins call waiting to say whose claim it is on."""
        state, claims = self.host.state, self.host.claims
        items: list[MenuItem] = []
        for seat, by in open_reneges(state):
            label = f"Renege by {state.names[seat]}" if state.seats == 2 else \
                f"{state.names[by]}: renege {state.names[seat]}"
            items.append((label, self._reneger(seat, by)))
        if claims.unsettled is not None:
            caller, points = claims.unsettled
            items += [(f"{state.names[caller]}: muggins {state.names[on]} {points}", self._accuser(on))
                      for on in claims.accusable()]
        return items

    def _reneger(self, seat: int, by: int) -> Callable[[], None]:
        return lambda: self._apply(Renege(seat, by))

    def _accuser(self, accused: int) -> Callable[[], None]:
        def accuse() -> None:
            claims, before = self.host.claims, self.host.state
            if claims.unsettled is None:
                return
            caller, points = claims.unsettled
            self._apply(Muggins(caller, points, accused))
            if self.host.state is not before:  # made (a refusal shows why, and keeps the call)
                claims.unsettled = None
                claims.drop()
        return accuse

    def _setup(self) -> list[MenuItem]:
        """Settings for the next new game (the game in progress keeps its own). A choice the
        rules fix (five-card's 61 points, no review under a tournament preset) says why, and OK
        on it changes nothing."""
        s, change = self.host.settings, self.host.change_settings
        return [
            (f"Mode: {s.mode.value}", lambda: change(next_mode)),
            (f"Players: {s.players}{' pairs' if s.partnerships else ''}", lambda: change(next_players)),
            (f"Rules: {s.rules}", lambda: change(next_rules)),
            (f"Game: {game_length_of(s)}{f' ({s.rules})' if fixed_game_length(s) else ''}",
             lambda: change(next_game_length)),
            (f"Match: best of {s.match_games}", lambda: change(next_match)),
            (f"Review: {'on' if s.review else 'off'}" if review_allowed(s) else "Review: off (tournament)",
             lambda: change(toggle_review)),
            (f"Muggins: {'on' if muggins_on(s) else 'off'}", lambda: change(toggle_muggins)),
            *([("Speech...", self._open_speech)] if s.speaker else []),
            ("Start it now...", self._confirm_new_game),
            ("Back", self._back_to(self._main, "Next game setup...")),
        ]

    def _open_speech(self) -> None:
        self.current = Menu(self._speech, title="Speech")

    def _speech(self) -> list[MenuItem]:
        """The speaker's choices (heard at once, not only from the next game): ``as set`` is
        the configuration's (auto: off under a tournament preset)."""
        s, change = self.host.settings, self.host.change_settings
        return [
            (f"Speech: {speech_words(s)}", lambda: change(next_speech)),
            (f"Says: {s.speech_say or 'as set'}", lambda: change(next_speech_say)),
            (f"Volume: {s.speech_volume if s.speech_volume is not None else 'as set'}",
             lambda: change(next_speech_volume)),
            (f"Voice: {s.speech_voice or 'as set'}", lambda: change(next_speech_voice)),
            (f"Speed: {s.speech_speed or 'as set'}", lambda: change(next_speech_speed)),
            ("Back", self._open_setup),
        ]

    def _penalty(self) -> list[MenuItem]:
        """A judge's ruling: who pegs, how much (negative: goes back) and why."""
        draft, state = self.penalty, self.host.state
        who = state.names[draft.seat] if state.names else str(draft.seat + 1)
        return [
            (f"Pegs: {who}", lambda: self._draft(draft.next_seat(state.seats))),
            (f"Points: {draft.points:+d}", lambda: self._draft(draft.next_points())),
            (f"For: {PENALTY_REASONS[draft.reason]}", lambda: self._draft(draft.next_reason())),
            ("Peg the penalty", lambda: self._apply(draft.event())),
            ("Back", self._back_to(self._main, "Penalty...")),
        ]

    def _moves(self) -> list[MenuItem]:
        """Each card of the deal's play, latest first, to each seat that could have laid it:
        only the moves the play can have had (each is tried on the game, which plays the deal
        again from it), so none listed is then refused."""
        state = self.host.state
        deal = state.deal
        played = reversed(deal.played) if deal is not None else ()
        items: list[MenuItem] = [
            (f"{card} {state.names[seat]} -> {state.names[other]}", self._mover(card, other))
            for seat, card in played for other in range(state.seats) if other != seat and _can_move(state, card, other)
        ]
        if not items:
            items.append(("No card can move", self._open_main))  # each move would leave a play that cannot be
        return [*items, ("Back", self._back_to(self._main, "Move a card..."))]

    def _open_moves(self) -> None:
        self.current = Menu(self._moves, title="Whose card was it?")

    def _mover(self, card: Card, seat: int) -> Callable[[], None]:
        return lambda: self._apply(MoveCard(card, seat))

    def _open_penalty(self) -> None:
        self.penalty, self.suggested = self.suggested or PenaltyDraft(), None
        self.current = Menu(self._penalty, title="Judge's penalty")

    def _draft(self, draft: PenaltyDraft) -> None:
        self.penalty = draft

    def _confirm_new_game(self) -> None:
        """A game under way is abandoned only after a yes; once the match is over there is
        nothing to abandon, and the new game starts at once."""
        if self.host.state.phase is Phase.MATCH_OVER:
            self.close()
            self.host.new_game()
            return
        self.confirm("Abandon this game?", "Yes: new game", self.host.new_game)

    def _confirm_muggins(self) -> None:
        """Muggins switched for the game being played, after a question saying what changes; one
        the game cannot take (a tournament preset's) is refused at once, saying why."""
        state = self.host.state
        on = not state.rules.muggins.moments
        if muggins_switch_refusal(state, on) is not None:
            self._apply(MugginsSet(on))  # refused: the table says why
            return
        question, yes, said, done = MUGGINS_SWITCHED[on]

        def switch() -> None:
            self.close()
            effects = self.host.handle_event(MugginsSet(on))
            # switched (a refusal shows why; the windows it closed are told by their own screens)
            if bool(self.host.state.rules.muggins.moments) is on and not effects:
                self.host.show(MessageScreen(done, f"Muggins {'on' if on else 'off'}"))
        # the question, then what changes, a line an item (OK on one of those lines does nothing)
        self.current = Menu(lambda: [("No, go back", self._open_main), (yes, switch),
                                     *[(line, self._stay) for line in said]], title=question)

    def _stay(self) -> None:
        """OK on a line that only says something: the menu stays as it is."""

    def _confirm_misdeal(self) -> None:
        self.confirm("Misdeal: deal again?", "Yes: misdeal", lambda: self._apply(Misdeal()))

    def _reviewer(self, seat: int) -> Callable[[], None]:
        return lambda: self.host.show(review_screen(self.host.state, seat))

    def _apply(self, event: Event) -> None:
        self.close()
        self.host.handle_event(event)
