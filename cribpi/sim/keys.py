"""The simulator's keys -> the table's logical actions.

Most keys are one action (a rank, a suit, go, OK, undo, menu). Two start a short entry that
says what it waits for while it is typed: ``p`` then the seat then the points (1-29), then
Enter pegs them (a claim in claim mode); ``x`` then the caller's seat then the points called,
then Enter, calls muggins (the call names its points: a wrong call gives them to the player
accused, ACC rule 10.4). A digit that would make the entry impossible is refused on the spot,
so ``p 1 2 p 1 2`` cannot turn into a peg of 212: the second ``p`` is answered with how to
finish the first peg.

>>> keys = KeyMapper()
>>> [keys.feed(k, seats=2) for k in "p12"], keys.prompt
([None, None, None], 'peg: seat 1, 2 points: Enter pegs them (Backspace, Esc drops)')
>>> keys.feed("\\r", seats=2)
Action.parse('peg 0 2')
>>> [keys.feed(k, seats=2) for k in "x23"], keys.prompt
([None, None, None], 'muggins: seat 2 calls 3 points: Enter calls it (Backspace, Esc drops)')
>>> keys.feed("\\r", seats=2).points
3
"""

from __future__ import annotations

from cribpi.hal import Action, Kind

__all__ = ["KeyMapper", "LEGEND", "MAX_POINTS", "QUIT_KEYS", "ESC", "ENTER", "BACKSPACE"]

MAX_POINTS = 29  # the most one score can be (a 29 hand); more is a typing slip
ESC, ENTER, BACKSPACE = "\x1b", "\r", "\x7f"
QUIT_KEYS = ("\x03", "\x04")
LEGEND = (
    "rank A 2-9 T J Q K + suit c d h s: card", "g: go", "Enter: OK", "u: undo", "U: undo more",
    "m: menu (Esc closes)", "p seat points Enter: peg/claim", "x seat: muggins, points Enter", "Ctrl-C: quit",
)
_RANK_KEYS = {"a": "A", "t": "T", "0": "T", "j": "J", "q": "Q", "k": "K", **{str(n): str(n) for n in range(2, 10)}}
_SUIT_KEYS = {"c": "C", "d": "D", "h": "H", "s": "S"}
_PLAIN_KEYS = {"g": "go", ENTER: "ok", "\n": "ok", " ": "ok", "u": "undo", BACKSPACE: "undo", "\b": "undo",
               "U": "undo_long", "m": "menu", "\t": "menu"}
_DROP_KEYS = (ESC, "u")


PROMPT_COLUMNS = 80  # a prompt with the players' names in it is cut to this (the least terminal)


class KeyMapper:
    """Keys -> actions, with the peg and muggins entries in between.

    ``prompt`` says what an entry waits for; ``notice`` why the last key did nothing."""

    def __init__(self) -> None:
        self.entry: str | None = None  # "p" (a peg) or "x" (a muggins call) + seat + points digits
        self.notice = ""
        self.seats = 4  # at the table now (told with every key)
        self.names: tuple[str, ...] = ()  # the players' names, seat 1 first (told with every key), if known
        self.context = ""  # whose claim a muggins call typed is on, as the table sees it (said in the prompt)
        self.claiming = False  # claim mode: ``p`` types a claim, and Enter claims it

    def feed(self, key: str, *, seats: int = 4, menu_open: bool = False,
             names: tuple[str, ...] = ()) -> Action | None:
        """The action ``key`` makes at a table of ``seats`` (None: none yet, or refused);
        ``names``: the players', so that a seat asked for is shown with its name."""
        self.notice, self.seats, self.names = "", seats, tuple(names[:seats])
        if self.entry is not None:
            return self._entry_key(key, seats)
        if key == ESC:
            return Action(Kind.MENU) if menu_open else None  # Esc closes a menu; otherwise nothing is open
        if key in ("p", "x"):
            self.entry = key
            return None
        if key in _RANK_KEYS:
            return Action.rank_key(_RANK_KEYS[key])
        if key in _SUIT_KEYS:
            return Action.suit_key(_SUIT_KEYS[key])
        if key in _PLAIN_KEYS:
            return Action.parse(_PLAIN_KEYS[key])
        self.notice = f"{_name(key)} is not a key here: the keys are listed below"
        return None

    @property
    def prompt(self) -> str:
        """What the entry being typed waits for, in words ("" when none is)."""
        if self.entry is None:
            return ""
        verb, does = ("claim", "claims") if self.claiming else ("peg", "pegs")
        if self.entry == "x":
            return self._fitted("muggins: type the caller's seat ({}), Esc drops")
        if len(self.entry) == 1:
            return self._fitted(verb + ": type the seat ({}), then the points, Esc drops")
        seat, points = self._seat_named(self.entry[1]), self.entry[2:]
        if self.entry[0] == "x":
            if self.context:  # e.g. "on Bob's claim": what the call will be, short enough for one line
                return f"muggins: seat {seat} calls {_points(points) if points else 'it'}, {self.context}: " + \
                    ("Enter calls it" if points else f"type the points (1-{MAX_POINTS})")
            if not points:
                return f"muggins: seat {seat} calls it, type the points called (1-{MAX_POINTS}), then Enter"
            return f"muggins: seat {seat} calls {_points(points)}: Enter calls it (Backspace, Esc drops)"
        if not points:
            return f"{verb}: seat {seat}, type the points (1-{MAX_POINTS}), then Enter"
        return f"{verb}: seat {seat}, {_points(points)}: Enter {does} {'it' if points == '1' else 'them'} (Backspace, Esc drops)"

    def _fitted(self, prompt: str) -> str:
        """``prompt`` with the seat list in it: with the players' names when that fits 80 columns
        (the terminal's least), else the seats' numbers only."""
        named = prompt.format(self._seat_list())
        return named if len(named) <= PROMPT_COLUMNS else prompt.format(f"1-{self.seats}")

    def _seat_list(self) -> str:
        """``1 Ann, 2 Bob``: the seats with their players' names (``1-2`` without them)."""
        if len(self.names) == self.seats:
            return ", ".join(f"{n} {name}" for n, name in enumerate(self.names, 1))
        return f"1-{self.seats}"

    def _seat_named(self, digit: str) -> str:
        """``2 (Bob)``: a seat typed, with its player's name when known."""
        seat = int(digit)
        return f"{digit} ({self.names[seat - 1]})" if 1 <= seat <= len(self.names) else digit

    def _entry_key(self, key: str, seats: int) -> Action | None:
        entry = self.entry
        assert entry is not None
        if key in _DROP_KEYS:
            self.entry = None
            self.notice = "entry dropped"
        elif key in (BACKSPACE, "\b"):
            self.entry = entry[:-1] or None
        elif len(key) == 1 and key in "0123456789":  # str.isdigit() is true of '٢' and '２' too
            return self._digit(entry, key, seats)
        elif key in (ENTER, "\n", " ") and len(entry) > 2:
            self.entry = None
            seat, points = int(entry[1]) - 1, int(entry[2:])
            return Action.peg(seat, points) if entry[0] == "p" else Action(Kind.MUGGINS, seat=seat, points=points)
        else:
            self.notice = f"{_name(key)} does nothing now: {self.prompt}"
        return None

    def _digit(self, entry: str, digit: str, seats: int) -> Action | None:
        if len(entry) == 1:  # the seat
            if not 1 <= int(digit) <= seats:
                self.notice = f"seat {digit} is not at this table: seats are 1-{seats}"
                return None
            self.entry = entry + digit
            return None
        points = int(entry[2:] + digit)
        if not 1 <= points <= MAX_POINTS:
            what = ("claimed at once" if self.claiming else "pegged at once") if entry[0] == "p" else "called"
            # the entry still stands: say what Enter would do with it, not only what was refused
            self.notice = f"{points} points cannot be {what} (1-{MAX_POINTS}); {self.prompt}"
            return None
        self.entry = entry + digit
        return None


def _name(key: str) -> str:
    """A key as the player would call it."""
    names = {ESC: "Esc", ENTER: "Enter", "\n": "Enter", " ": "Space", "\t": "Tab", BACKSPACE: "Backspace"}
    return names.get(key, f"'{key}'" if key.isprintable() else f"key {key!r}")


def _points(typed: str) -> str:
    """``1 point``, ``12 points``: the points typed so far, as said."""
    return f"{typed} point" if typed == "1" else f"{typed} points"
