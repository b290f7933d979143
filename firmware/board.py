"""The board the host described, in pegs: what the firmware draws. Every command sets state
absolutely, so applying one twice is the same as once (a retried line never double-applies).
Each argument is checked before anything is set: a refused command changes nothing.
"""

from protocol import (
    ANIMATIONS, E_UNKNOWN, ProtocolError, arg_error, digits, hex_colour, holes_from_hex, number,
    shown,
)

GAME_LENGTHS = ("121", "61")
MAX_TRACKS = 4
BRIGHTNESS = 500  # per mille, at power-up and after Z
MAX_CAP_MA = 100000  # the highest current cap the host may ask for (0: none)
WHITE = (255, 255, 255)  # a track's colour at power-up and after Z


class Track:
    """``since``: when (ms) its flash last changed; the flash blinks from then."""

    def __init__(self):
        self.front = 0
        self.rear = 0
        self.colour = WHITE
        self.games = 0
        self.flash = ()
        self.since = 0

    def key(self):
        return (self.front, self.rear, self.colour, self.games, self.flash)


class Board:
    """``tracks``, ``game_length``, ``marks``, ``brightness`` (per mille), ``cap_ma`` (the
    host's current cap), ``animation`` (one of ANIMATIONS), ``anim_track``, ``winner``, and
    ``anim_since``: when (ms) the animation last changed."""

    def __init__(self, tracks=2):
        self.now = 0  # the time of the command being applied (ms)
        self.reset(tracks, 121)

    def reset(self, tracks, game_length):
        self._key = None
        self.tracks = [Track() for _ in range(tracks)]
        self.game_length = game_length
        self.marks = ()
        self.brightness = BRIGHTNESS
        self.cap_ma = 0  # 0: no host cap; the firmware's own always applies
        self.animation = "-"
        self.anim_track = None
        self.winner = None
        self.anim_since = 0

    def key(self):
        """Equal keys draw equal frames (used to tell a change from a repeat). Kept from one
        change to the next: the board changes through apply() and reset() only, which drop it
        (apply() needs it before and after, and every redraw once: building it each time was a
        good part of a peg command's time on the Pico)."""
        if self._key is None:  # Track.key()'s, without a call each
            self._key = (tuple([(t.front, t.rear, t.colour, t.games, t.flash) for t in self.tracks]),
                         self.game_length, self.marks, self.brightness, self.cap_ma, self.animation,
                         self.anim_track, self.winner)
        return self._key

    def apply(self, words, now=0):
        """Apply one command's words (``["T", "0", "12", "6", "1"]``) at ``now`` (ms);
        ProtocolError if bad. True when the board changed. A track whose flash changed starts
        blinking at ``now``, and so does an animation that changed; nothing else restarts."""
        handler = _HANDLERS.get(words[0])
        if handler is None:
            raise ProtocolError(E_UNKNOWN, "unknown command " + shown(words[0]))
        args = words[1:]
        if len(args) != handler[1]:
            raise arg_error(takes(words[0], handler[1], len(args)))
        before = self.key()
        self.now = now  # for the handlers that restart a flash or the animation
        handler[0](self, args)
        self._key = None
        return self.key() != before

    def track(self, word):
        return self.tracks[number(word, 0, len(self.tracks) - 1, "track")]

    def hole(self, word, what):
        return number(word, 0, self.game_length, what)


def takes(command, wanted, got):
    return "%s takes %d argument%s, not %d" % (command, wanted, "" if wanted == 1 else "s", got)


def _maybe(word, high, what):
    return None if word == "-" else number(word, 0, high, what)


def _reset(board, args):
    tracks = number(args[0], 1, MAX_TRACKS, "tracks")
    digits(args[1], "game length")
    if args[1] not in GAME_LENGTHS:
        raise arg_error("game length %s is not %s" % (shown(args[1]), " or ".join(GAME_LENGTHS)))
    board.reset(tracks, int(args[1]))
    board.anim_since = board.now  # a full state restarts every flash and the animation
    for track in board.tracks:
        track.since = board.now


def _set_flash(board, track, flash):
    """A track's flash; a changed one starts blinking now."""
    if flash != track.flash:
        track.flash, track.since = flash, board.now


def _pegs(board, args):
    track = board.track(args[0])
    front, rear = board.hole(args[1], "front"), board.hole(args[2], "rear")
    if rear > front:
        raise arg_error("rear %d is past front %d" % (rear, front))
    flash = number(args[3], 0, front, "flash count")
    track.front, track.rear = front, rear
    _set_flash(board, track, tuple(range(front - flash + 1, front + 1)))


def _flash(board, args):
    track = board.track(args[0])
    _set_flash(board, track, holes_from_hex(args[1], board.game_length, "flash"))


def _colour(board, args):
    track = board.track(args[0])
    track.colour = hex_colour(args[1], "colour")


def _games(board, args):
    track = board.track(args[0])
    track.games = number(args[1], 0, 99, "games")


def _marks(board, args):
    board.marks = holes_from_hex(args[0], board.game_length, "marks")


def _brightness(board, args):
    brightness = number(args[0], 0, 1000, "brightness")
    cap = number(args[1], 0, MAX_CAP_MA, "current cap")
    board.brightness, board.cap_ma = brightness, cap  # both checked first: an ERR changes nothing


def _animation(board, args):
    if args[0] not in ANIMATIONS:
        raise arg_error("animation %s is not one of %s" % (shown(args[0]), " ".join(ANIMATIONS)))
    last = len(board.tracks) - 1
    # "-" and "waiting" ignore the track: any number (or "-") is taken there, and kept as none
    ignored = args[0] in ("-", "waiting")
    anim_track = _maybe(args[1], 999 if ignored else last, "track")
    anim_track = None if ignored else anim_track
    winner = _maybe(args[2], last, "winner")
    if args[0] in ("alert", "winner") and anim_track is None:
        raise arg_error("the %s animation needs a track" % args[0])
    if (args[0], anim_track) != (board.animation, board.anim_track):
        board.anim_since = board.now  # a changed animation starts now
    board.animation, board.anim_track, board.winner = args[0], anim_track, winner


_HANDLERS = {
    "Z": (_reset, 2), "T": (_pegs, 4), "F": (_flash, 2), "C": (_colour, 2),
    "G": (_games, 2), "M": (_marks, 1), "B": (_brightness, 2), "A": (_animation, 3),
}
