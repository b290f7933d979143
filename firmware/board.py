"""The board the host described, in pegs: what the firmware draws. Every command sets state
absolutely, so applying one twice is the same as once (a retried line never double-applies).
"""

from protocol import ANIMATIONS, HOLES, E_ARG, E_UNKNOWN, ProtocolError, holes_from_hex

GAME_LENGTHS = (121, 61)
MAX_TRACKS = 4


class Track:
    def __init__(self):
        self.front = 0
        self.rear = 0
        self.colour = (255, 255, 255)
        self.games = 0
        self.flash = ()

    def key(self):
        return (self.front, self.rear, self.colour, self.games, self.flash)


class Board:
    """``tracks``, ``game_length``, ``marks``, ``brightness`` (per mille), ``cap_ma`` (the
    host's current cap), ``animation`` (one of ANIMATIONS), ``anim_track``, ``winner``."""

    def __init__(self, tracks=2):
        self.reset(tracks, 121)

    def reset(self, tracks, game_length):
        self.tracks = [Track() for _ in range(tracks)]
        self.game_length = game_length
        self.marks = ()
        self.brightness = 500
        self.cap_ma = 0  # 0: no host cap; the firmware's own always applies
        self.animation = "-"
        self.anim_track = None
        self.winner = None

    def key(self):
        """Equal keys draw equal frames (used to tell a change from a repeat)."""
        return (tuple(t.key() for t in self.tracks), self.game_length, self.marks, self.brightness,
                self.cap_ma, self.animation, self.anim_track, self.winner)

    def apply(self, words):
        """Apply one command's words (``["T", "0", "12", "6", "1"]``); ProtocolError if bad.
        True when the board changed."""
        before = self.key()
        handler = _HANDLERS.get(words[0])
        if handler is None:
            raise ProtocolError(E_UNKNOWN, "unknown command " + words[0][:16])
        args = words[1:]
        if len(args) != handler[1]:
            raise ProtocolError(E_ARG, "%s takes %d argument(s), not %d" % (words[0], handler[1], len(args)))
        try:
            handler[0](self, args)
        except ValueError as exc:
            raise ProtocolError(E_ARG, "%s: %s" % (words[0], exc))
        return self.key() != before

    def track(self, text):
        number = _int(text, 0, len(self.tracks) - 1, "track")
        return self.tracks[number]

    def hole(self, text, what):
        return _int(text, 0, self.game_length, what)


def _int(text, low, high, what):
    if not text.isdigit() or len(text) > 5 or not low <= int(text) <= high:
        raise ValueError("%s %s is not %d-%d" % (what, text[:8], low, high))
    return int(text)


def _maybe(text, high, what):
    return None if text == "-" else _int(text, 0, high, what)


def _reset(board, args):
    tracks = _int(args[0], 1, MAX_TRACKS, "tracks")
    length = _int(args[1], 1, HOLES, "game length")
    if length not in GAME_LENGTHS:
        raise ValueError("game length %d is not 121 or 61" % length)
    board.reset(tracks, length)


def _pegs(board, args):
    track = board.track(args[0])
    front, rear = board.hole(args[1], "front"), board.hole(args[2], "rear")
    if rear > front:
        raise ValueError("rear %d is past front %d" % (rear, front))
    flash = _int(args[3], 0, front, "flash count")
    track.front, track.rear = front, rear
    track.flash = tuple(range(front - flash + 1, front + 1))


def _flash(board, args):
    track = board.track(args[0])
    holes = holes_from_hex(args[1])
    if holes and holes[-1] > board.game_length:
        raise ValueError("hole %d is not on a %d board" % (holes[-1], board.game_length))
    track.flash = holes


def _colour(board, args):
    track = board.track(args[0])
    text = args[1]
    if len(text) != 6 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise ValueError("colour %s is not RRGGBB" % text[:8])
    track.colour = (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


def _games(board, args):
    board.track(args[0]).games = _int(args[1], 0, 99, "games")


def _marks(board, args):
    holes = holes_from_hex(args[0])
    if holes and holes[-1] > board.game_length:
        raise ValueError("mark %d is not on a %d board" % (holes[-1], board.game_length))
    board.marks = holes


def _brightness(board, args):
    brightness, cap = _int(args[0], 0, 1000, "brightness"), _int(args[1], 0, 100000, "current cap")
    board.brightness, board.cap_ma = brightness, cap  # both checked first: an ERR changes nothing


def _animation(board, args):
    if args[0] not in ANIMATIONS:
        raise ValueError("animation %s is not one of %s" % (args[0][:12], " ".join(ANIMATIONS)))
    last = len(board.tracks) - 1
    anim_track, winner = _maybe(args[1], last, "track"), _maybe(args[2], last, "winner")
    if args[0] in ("alert", "winner") and anim_track is None:
        raise ValueError("the %s animation needs a track" % args[0])
    board.animation, board.anim_track, board.winner = args[0], anim_track, winner


_HANDLERS = {
    "Z": (_reset, 2), "T": (_pegs, 4), "F": (_flash, 2), "C": (_colour, 2),
    "G": (_games, 2), "M": (_marks, 1), "B": (_brightness, 2), "A": (_animation, 3),
}
