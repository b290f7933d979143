"""The controller's side of a conversation: bytes in -> lines -> commands applied to the
board -> one reply each (ACK, ERR or HELLO); key and card events out. Pure logic: main.py
does the I/O, so tests run this under CPython and under the MicroPython VM alike.
"""

from board import Board, takes
from protocol import (
    E_GAP, E_LONG, E_PARSE, E_VERSION, FIRMWARE, FLASH_STEPS, HOST_TIMEOUT_MS, MAX_LINE, NO_SEQ,
    PROTOCOL, STEP_MS, ProtocolError, ack, arg_error, frame, shown, unframe, version,
)
import settings

#: Commands taken whatever their sequence number: they start a conversation (HELLO) or a full
#: state (Z), so a line lost before them needs no GAP.
FRESH = ("HELLO", "Z")


class LineBuffer:
    """Splits incoming bytes into lines (without the newline, nor a CR just before it). A line
    of MAX_LINE bytes or more before its newline comes out once, as ``None`` (ERR LONG), as
    soon as its MAX_LINE-th byte arrives; the rest of it up to its newline is dropped."""

    def __init__(self):
        self.buf = bytearray()
        self.dropping = False

    def feed(self, data):
        end = data.find(b"\n")
        if 0 <= end == len(data) - 1 and end < MAX_LINE and not self.buf and not self.dropping:
            # the usual: one whole line, and nothing before it
            if end and data[end - 1] == 13:  # its CR
                end -= 1
            return [bytes(data[:end])]
        lines = []
        data = bytes(data)
        start = 0
        while start < len(data):  # a piece up to each newline at a time, not byte by byte
            end = data.find(b"\n", start)
            if not self.dropping:
                piece = data[start:] if end < 0 else data[start:end]
                if len(self.buf) + len(piece) >= MAX_LINE:
                    lines.append(None)
                    self.buf, self.dropping = bytearray(), True
                else:
                    self.buf += piece
            if end < 0:
                break
            if not self.dropping:
                line = bytes(self.buf)
                lines.append(line[:-1] if line[-1:] == b"\r" else line)
            self.buf, self.dropping = bytearray(), False
            start = end + 1
        return lines


def _major(text):
    return text.split(".")[0]


class Controller:
    """``handle(line, now)`` gives the reply to one line; ``event(...)`` frames an event (None
    before a handshake: nobody is listening). ``heard`` is when the host last sent a good line.
    """

    def __init__(self, layout, now=0):
        self.layout = layout
        self.board = Board(len(layout.HOLES))
        self.greeted = False
        self.refused = None  # the host's protocol version, when its major was refused
        self.last = None  # (seq, reply) of the last counted line: a repeat gets the same reply
        self.heard = now
        self.events = 0  # the next event's number
        self.repl = False  # REPL was ACKed: main.py resets the Pico to its REPL for the flasher

    def handle(self, line, now):
        if line is None:
            return frame(NO_SEQ, "ERR %s line over %d bytes" % (E_LONG, MAX_LINE - 1))
        try:
            seq, words = unframe(line)
        except ProtocolError as exc:  # LONG, PARSE, CRC: not counted, as if never received
            return self._err(exc.seq, exc)
        self.heard = now
        if self.last is not None and self.last[0] == seq and words[0] != "HELLO":
            return self.last[1]  # a retry: answered again, never applied twice
        reply = self._command(seq, words, now)
        self.last = (seq, reply)
        return reply

    def _command(self, seq, words, now):
        verb = words[0]
        try:
            if verb == "HELLO":
                self._count(words, 1)
                return self._hello(seq, words[1])
            if not self.greeted:
                raise ProtocolError(E_VERSION, self._refusal())
            expected = (self.last[0] + 1) & 0xFF
            if seq != expected and verb not in FRESH:
                raise ProtocolError(E_GAP, "expected %02X: send the full state" % expected)
            if verb == "PING":
                self._count(words, 0)
            elif verb == "REPL":
                self._count(words, 0)
                self.repl = True
            else:
                self.board.apply(words, now)
        except ProtocolError as exc:
            return self._err(seq, exc)
        return ack(seq)

    def _count(self, words, wanted):
        if len(words) - 1 != wanted:
            raise arg_error(takes(words[0], wanted, len(words) - 1))

    def _hello(self, seq, word):
        self.greeted = _major(version(word)) == _major(PROTOCOL)
        self.refused = None if self.greeted else shown(word)
        self.events = 0
        leds = 121 + (len(self.layout.COUNTERS[0]) if self.layout.COUNTERS else 0)
        keys = ",".join(k for row in settings.KEYMAP for k in row if k)
        return frame(seq, "HELLO %s %s %d %d %s" % (PROTOCOL, FIRMWARE, len(self.layout.HOLES), leds, keys))

    def _refusal(self):
        if self.refused is None:
            return "no handshake: send HELLO %s first" % PROTOCOL
        return "host protocol %s refused: firmware %s speaks %s" % (self.refused, FIRMWARE, PROTOCOL)

    def _err(self, seq, exc):
        return frame(seq, "ERR %s %s" % (exc.code, exc.reason))

    def event(self, verb, arg):
        """The line of one event, numbered 00, 01, ... FF, 00 from each HELLO; None before
        the host has greeted this controller (or after a HELLO it refused)."""
        if not self.greeted:
            return None
        seq, self.events = self.events, (self.events + 1) & 0xFF
        return frame(seq, "%s %s" % (verb, arg))

    def lost(self, now):
        """The host has been silent too long (or never spoke): show the host-lost pattern."""
        return not self.greeted or now - self.heard > HOST_TIMEOUT_MS

    def picture(self, now):
        """What to draw at ``now``: ``(step, animation, flash_steps)`` for draw(): the
        host-lost pattern (the ``waiting`` animation, on a free clock) when the host is lost,
        else the board's animation (None) at its step; each track's flash at its own step."""
        step, flashes = self.steps(now)
        if self.lost(now):
            return now // STEP_MS, "waiting", flashes
        return step, None, flashes

    def steps(self, now):
        """The animation's step and each track's flash step at ``now`` (a flash step past
        FLASH_STEPS is FLASH_STEPS: it is over)."""
        board = self.board
        flashes = [min((now - t.since) // STEP_MS, FLASH_STEPS) if t.flash else FLASH_STEPS
                   for t in board.tracks]
        return (now - board.anim_since) // STEP_MS, flashes
