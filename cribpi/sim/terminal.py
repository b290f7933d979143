"""The terminal simulator on curses: draws in place, one frame for each change, at any size.

curses keeps its own copy of the screen and sends only what changed, so a game leaves no
scrollback behind; Esc reaches the table at once (the escape delay is set low); a resized
terminal is redrawn to the arrangement its new size holds (:mod:`cribpi.sim.layout`).
"""

from __future__ import annotations

import curses
import dataclasses
import functools
import itertools
import os
import select
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cribpi.app import TableApp
from cribpi.app.listeners import Update
from cribpi.app.ui import PAGED
from cribpi.exc import ConfigError
from cribpi.game import Mode, Phase, State, describe_expected, expected
from cribpi.game.queries import muggins_targets
from cribpi.hal import Action, Kind, Parts
from cribpi.hal.term import Line, Segment, xterm256
from cribpi.sim.keys import BACKSPACE, ENTER, LEGEND, QUIT_KEYS, KeyMapper
from cribpi.sim.layout import View, fit, too_small, track_label, words_page, wrapped_words
from cribpi.sim.parts import sim_parts
from cribpi.views.board import RGB
from cribpi.views.model import ScreenModel
from cribpi.views.text import screen_text

__all__ = ["Terminal", "Palette", "status_line", "rules_words", "PHASE_WORDS", "nearest_colour", "ESCAPE_DELAY_MS"]

ESCAPE_DELAY_MS = 25  # curses waits this long after Esc for the rest of an arrow key's sequence
_SPECIAL_KEYS = {curses.KEY_ENTER: ENTER, curses.KEY_BACKSPACE: BACKSPACE, curses.KEY_DC: BACKSPACE}
_MENU_ARROWS = {curses.KEY_UP: "u", curses.KEY_DOWN: "g"}
STATUS_COLUMNS = 80  # the smallest terminal the simulator plays in


class Terminal:
    """The simulated parts drawn with curses; keys from the same terminal.

    ``journal`` is named on the screen and in the quit message with ``resume``, the command
    that goes on with the game; ``phones`` (with ``--phones``) says how a phone joins, under the
    keys' legend, read at each frame (a new game's PIN)."""

    def __init__(self, app: TableApp, parts: Parts, *, journal: Path | None = None,
                 resume: str | None = None, phones: Callable[[], str] | None = None) -> None:
        self.app = app
        self.pegboard, self.display = sim_parts(parts)
        if self.display is None:
            raise ConfigError("the terminal simulator needs a simulated display: set a display's backend to sim")
        self.journal = journal
        self.resume = resume
        self.phones = phones
        self.mapper = KeyMapper()
        self.quit = False
        self.frames = 0  # frames drawn: one for each change
        self.screen: Any = None  # the curses window while running
        self._palette: Palette | None = None
        self._batching = False  # keys being handled: their frame is drawn once, after them
        self._shown: list[Line] = []  # the lines on the screen now
        self._shown_size = (0, 0)
        self.missing: tuple[str, ...] = ()  # the parts down, as the last update said them
        app.subscribe(self._updated)

    # -- what is shown --------------------------------------------------------------------

    def view(self, columns: int = STATUS_COLUMNS) -> View:
        """What one frame shows, its status line fitted to ``columns``."""
        ui, state = self.app.ui, self.app.ui.state
        labels = tuple(track_label(state.team_name(t), s) for t, s in enumerate(state.scores))
        self.mapper.context = _called_on(state, self.mapper.entry)
        self.mapper.claiming = state.mode is Mode.CLAIM
        prompt = self.mapper.notice or self.mapper.prompt or _waiting_for(self.app)
        return View(str(self.journal or ""), self.pegboard.frame if self.pegboard else None, labels,
                    self.display.image if self.display else None, status_line(state, columns, self.missing),
                    tuple(screen_text(ui.screen()).split("\n")), prompt,
                    LEGEND + ((self.phones(),) if self.phones is not None else ()), _pegs(self.pegboard))

    def draw(self) -> None:
        """One frame, in place: only the lines that changed since the last one are written."""
        if self.screen is None:
            return
        size = self._size()
        rows, columns = size
        view = self.paged(self.view(columns), columns, rows)
        lines = fit(view, columns, rows) or [(Segment(too_small(view, columns, rows)),)]
        if size != self._shown_size:
            self.screen.erase()
            self._shown, self._shown_size = [], size
        for y, line in enumerate(lines):
            if y >= len(self._shown) or self._shown[y] != line:
                self.screen.move(y, 0)
                self.screen.clrtoeol()
                self._put(y, line)
        if len(lines) < len(self._shown):
            self.screen.move(len(lines), 0)
            self.screen.clrtobot()
        self._shown = lines
        self.screen.refresh()
        self.frames += 1

    def paged(self, view: View, columns: int, rows: int) -> View:
        """``view`` with the words of the screen's page when the OLED's words are shown alone:
        OK then pages by the lines the terminal holds, not by the OLED's 128x64 pages (the
        table is told so until a larger terminal shows the OLED's picture again)."""
        lines = words_page(view, columns, rows)
        ui = self.app.ui
        ui.count_pages = None if lines is None else functools.partial(_word_pages, columns, lines)
        screen = ui.screen()
        if lines is None or not isinstance(screen, PAGED):
            return view
        page = min(screen.page, _word_pages(columns, lines, screen) - 1)
        words = wrapped_words(view.words, columns)
        return dataclasses.replace(view, words=tuple(words[page * lines:(page + 1) * lines]))

    def _put(self, y: int, line: Line) -> None:
        x = 0
        for (fg, bg), run in itertools.groupby(line, key=lambda segment: (segment.fg, segment.bg)):
            text = "".join(segment.text for segment in run)  # one call for a run of one colour
            try:
                self.screen.addstr(y, x, text, self._palette.attr(fg, bg) if self._palette else 0)
            except curses.error:
                pass  # the bottom-right cell: written, but the cursor cannot move past it
            x += len(text)

    def _updated(self, update: Update) -> None:
        """The table changed: draw now, or once at the end of a batch of keys."""
        self.missing = update.missing
        if not self._batching:
            self.draw()

    # -- keys -----------------------------------------------------------------------------

    def on_keys(self) -> None:
        """Every key waiting: each to its action; the screen is drawn once afterwards."""
        self._batching, keys = True, 0
        try:
            while not self.quit:
                key = self._next_key()
                if key is None:
                    break
                keys += 1
                self.key(key)
        finally:
            self._batching = False
        if keys == 0 and _hung_up(sys.stdin.fileno()):
            self.quit = True  # the terminal went away
        elif keys and not self.quit:
            self.draw()

    def key(self, key: str | int) -> None:
        """One key from curses (a character, or a special key's number)."""
        if key == curses.KEY_RESIZE:
            return  # the frame drawn after these keys reads the new size
        ui = self.app.ui
        if isinstance(key, int):
            key = (_MENU_ARROWS.get(key, "") if ui.menu is not None else "") or _SPECIAL_KEYS.get(key, "")
            if not key:
                self.mapper.notice = "that key is not used here: the keys are listed below"
                return
        if key in QUIT_KEYS:
            self.quit = True
            return
        action = self.mapper.feed(key, seats=ui.state.seats, menu_open=ui.menu is not None, names=ui.state.names)
        if action is not None:
            self._act(action)

    def _act(self, action: Action) -> None:
        self.app.handle(action)
        if action.kind is Kind.PEG and self.app.ui.tally is not None:
            self.app.handle(Action(Kind.OK))  # seat and points typed, then Enter: peg them now
            self.app.ui.tally = None  # refused: the next entry starts afresh, not on top

    def _next_key(self) -> str | int | None:
        try:
            key: str | int = self.screen.get_wch()
        except curses.error:
            return None
        return key

    def _size(self) -> tuple[int, int]:
        """The terminal's size now (rows, columns); curses is told when it changed, even if
        the signal saying so came before the handler was installed."""
        size = os.get_terminal_size(sys.stdout.fileno())
        if (size.lines, size.columns) != self.screen.getmaxyx():
            curses.resizeterm(size.lines, size.columns)
        return size.lines, size.columns

    # -- running --------------------------------------------------------------------------

    def run(self, extra: Sequence[tuple[Any, Callable[[], object]]] = (),
            should_stop: Callable[[], bool] = lambda: False) -> None:
        """Draw and read keys until a quit key or ``should_stop`` (``extra`` as for the app's loop)."""
        keys_fd = sys.stdin.fileno()
        with _curses() as screen:
            try:
                with _on_resize() as resize_fd:
                    self.screen, self._palette = screen, Palette()
                    self.app.start()  # the first frame: drawn by the update it publishes
                    wake = [(keys_fd, self.on_keys), (resize_fd, lambda: self._resized(resize_fd)), *extra]
                    self.app.run(wake, should_stop=lambda: self.quit or should_stop())
            finally:
                self.screen = None
                farewell = self.farewell()
        print(farewell, flush=True)  # after curses has given the terminal back

    def _resized(self, fd: int) -> None:
        os.read(fd, 64)
        self.draw()  # in the arrangement the new size holds

    def farewell(self) -> str:
        """The quit message: where the game is kept and how to go on with it (a finished one:
        how to play the next). The command has a line of its own, so a terminal that wraps it
        never breaks it among other words, and it is copied whole.

        The words for a game being played::

            cribpi: the game is kept in /home/ann/games.db
            To go on with it, run:
            CRIBPI_DB=/home/ann/games.db bash .ci/play
        """
        phase = self.app.ui.state.phase
        what = "the finished game" if phase in (Phase.GAME_OVER, Phase.MATCH_OVER) else "the game"
        where = f" in {self.journal}" if self.journal else ""
        then = {Phase.GAME_OVER: "To play the next game of the match", Phase.MATCH_OVER: "To play a new game"}
        how = then.get(phase, "To go on with it")
        if not self.resume:
            return f"cribpi: {what} is kept{where}.\n{how}, run the same command again."
        return f"cribpi: {what} is kept{where}\n{how}, run:\n{self.resume}"


class Palette:
    """curses colour pairs for the LEDs' colours, made as they are needed."""

    def __init__(self) -> None:
        self.colours = curses.COLORS if curses.has_colors() else 0
        self.pairs: dict[tuple[int, int], int] = {}

    def attr(self, fg: RGB | None, bg: RGB | None) -> int:
        if not self.colours or (fg is None and bg is None):
            return 0
        key = (nearest_colour(fg, self.colours), nearest_colour(bg, self.colours))
        if key not in self.pairs:
            if len(self.pairs) + 1 >= curses.COLOR_PAIRS:
                return 0
            try:
                curses.init_pair(len(self.pairs) + 1, *key)
            except curses.error:  # no default colours (-1) on this terminal, or no room
                return 0
            self.pairs[key] = len(self.pairs) + 1
        return curses.color_pair(self.pairs[key])


def nearest_colour(colour: RGB | None, colours: int) -> int:
    """The terminal's colour number nearest ``colour``: the 256-colour cube, else the 8 basic
    colours; -1 (the terminal's own) for None.

    >>> nearest_colour((255, 0, 0), 256), nearest_colour((255, 0, 0), 8), nearest_colour(None, 8)
    (196, 1, -1)
    """
    if colour is None:
        return -1
    if colours >= 256:
        return xterm256(colour)
    r, g, b = (c >= 96 for c in colour)
    return int(r) + 2 * int(g) + 4 * int(b)  # curses numbers red 1, green 2, blue 4


#: Each phase as the players say it (the status line never shows an identifier).
PHASE_WORDS = {
    Phase.NEW: "new game", Phase.CUT: "cut for deal", Phase.STARTER: "starter card",
    Phase.PLAY: "play", Phase.SHOW: "show", Phase.DONE: "deal counted", Phase.BOARD: "pegging",
    Phase.GAME_OVER: "game over", Phase.MATCH_OVER: "match over",
}


def rules_words(name: str) -> str:
    """A preset's name as said at the table.

    >>> rules_words("acc-tournament"), rules_words("hoyle")
    ('ACC tournament rules', 'Hoyle rules')
    """
    said = {"acc": "ACC", "hoyle": "Hoyle"}
    return " ".join([*(said.get(word, word) for word in name.split("-")), "rules"])


def status_line(state: State, columns: int = STATUS_COLUMNS, missing: Sequence[str] = ()) -> str:
    """The scores, how the game is set, its phase and who deals, in the players' words, in the
    fullest form that fits ``columns``: the set-up is said shorter ("claim, muggins", "ACC
    tournament"), then the phase is left out (the prompt line says what the table waits for),
    then the rules, then the mode, before a score or the dealer is ever cut (four players on
    three-digit scores fit 80 columns). The parts down (``missing``) are said last, for as long as
    they are down ("no LEDs"): the set-up is left out before them, and they are said shorter
    ("no LEDs +2") before a score or the dealer is cut.

    >>> from cribpi.game import Game, NewGame
    >>> from cribpi.rules import ACC
    >>> status_line(Game([NewGame(("Ann", "Bob"), ACC)]).state)
    'Ann 0  Bob 0 · count mode · ACC rules · cut for deal'
    >>> status_line(Game([NewGame(("Ann", "Bob"), ACC)]).state, 40)
    'Ann 0 Bob 0 · count · ACC · cut for deal'
    >>> status_line(Game([NewGame(("Ann", "Bob"), ACC)]).state, 40, ("LEDs",))
    'Ann 0  Bob 0 · count · ACC · no LEDs'
    """
    names = [state.team_name(t) for t in range(len(state.scores))]
    # muggins is said where it is played (claim mode): without it on the line, only an export showed it
    muggins = ", muggins" if state.mode is Mode.CLAIM and state.rules.muggins.moments else ""
    mode, short_mode = f"{state.mode.value} mode{muggins}", f"{state.mode.value}{muggins}"
    rules = rules_words(state.rules.name)
    short_rules = rules.removesuffix(" rules")
    phase = PHASE_WORDS[state.phase]
    deal = state.deal
    # the count is not repeated: the words under it show it all through the play
    dealer = [f"{state.names[deal.dealer]} deals"] if deal and state.names else []
    sides = [f"{name} {score}" for name, score in zip(names, state.scores)]
    # the phase goes first: the line under the words says what the table waits for
    forms: tuple[list[str], ...] = ([mode, rules, phase], [short_mode, short_rules, phase], [short_mode, short_rules],
                                    [short_mode], [])
    # the parts down, all named, else the first and how many more
    down: list[list[str]] = [[f"no {', '.join(missing)}"]] if missing else [[]]
    if len(missing) > 1:
        down.append([f"no {missing[0]} +{len(missing) - 1}"])
    lines = [" · ".join([gap.join(sides), *form, *dealer, *said]) for said in down for form in forms
             for gap in ("  ", " ")]
    fitting = next((line for line in lines if len(line) <= columns), None)
    return fitting if fitting is not None else lines[-1][:max(columns - 1, 0)] + "…"


def _word_pages(columns: int, lines: int, screen: ScreenModel) -> int:
    """The pages ``screen``'s words take, ``lines`` a page, wrapped to ``columns``."""
    return max(1, -(-len(wrapped_words(screen_text(screen).split("\n"), columns)) // lines))


def _pegs(pegboard: Any) -> tuple[tuple[int, int], ...]:
    """Each track's front and rear peg holes, as the LED board last drew them (none before)."""
    board = getattr(pegboard, "board", None)
    return tuple((t.front, t.rear) for t in board.tracks) if board is not None else ()


def _called_on(state: State, entry: str | None) -> str:
    """Whose claim a muggins call being typed is on, as the table will take it (``x`` and a
    seat typed): the one claim open, or that there is none, or that MENU will ask whose."""
    if not entry or entry[0] != "x" or len(entry) < 2 or not entry[1].isdigit():
        return ""
    caller = int(entry[1]) - 1
    if not 0 <= caller < state.seats or state.mode is not Mode.CLAIM or not state.rules.muggins.moments:
        return ""
    targets = muggins_targets(state, caller)
    if not targets:
        return "nothing is open to muggins"
    if len(targets) == 1:
        return f"on {state.names[targets[0]]}'s claim"
    return f"on {' or '.join(state.names[t] for t in targets)}, MENU asks"


def _waiting_for(app: TableApp) -> str:
    if app.ui.menu is not None:
        return "menu: g down, u up, Enter picks, Esc closes"
    state = app.ui.state
    want = expected(state)
    if want.actions == ("claim",) and want.seat is not None:  # the keys, with the seat they need
        seat = want.seat + 1
        return f"waiting for a claim from {state.names[want.seat]} (seat {seat}): p {seat} N Enter claims N"
    return f"waiting for {describe_expected(state)}"


def _hung_up(fd: int) -> bool:
    """The terminal closed: readable with nothing to read."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return any(events & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, events in poller.poll(0))


@contextmanager
def _curses() -> Iterator[Any]:
    """The terminal in curses mode (raw keys, no echo, no cursor) until the block ends."""
    curses.use_env(False)  # the size from the terminal itself, never a stale $LINES/$COLUMNS
    try:
        screen = curses.initscr()
    except curses.error as exc:
        raise ConfigError(f"cannot draw on this terminal (TERM={os.environ.get('TERM', '')!r}: {exc}): "
                          "run it in a terminal such as xterm, or set TERM to one") from None
    try:
        curses.noecho()
        curses.raw()
        curses.set_escdelay(ESCAPE_DELAY_MS)
        screen.keypad(True)
        screen.nodelay(True)
        try:
            curses.curs_set(0)
        except curses.error:
            pass  # a terminal that cannot hide its cursor
        if curses.has_colors():
            curses.start_color()
            try:
                curses.use_default_colors()  # the terminal's own colours behind the LEDs
            except curses.error:
                pass  # the Palette then draws the LEDs in colour on what it can
        yield screen
    finally:
        curses.endwin()


@contextmanager
def _on_resize() -> Iterator[int]:
    """SIGWINCH wakes the loop through a pipe (curses' own handler would only tell the next key)."""
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)

    def handler(_signum: int, _frame: object) -> None:
        try:
            os.write(write_fd, b"w")
        except BlockingIOError:
            pass

    previous = signal.signal(signal.SIGWINCH, handler)
    try:
        yield read_fd
    finally:
        signal.signal(signal.SIGWINCH, previous)
        os.close(read_fd)
        os.close(write_fd)
