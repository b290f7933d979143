"""The controller's side of a conversation: bytes in -> lines -> commands applied to the
board -> one reply each (ACK, ERR or HELLO); key and card events out. Pure logic: main.py
does the I/O, so tests run this under CPython and under the MicroPython VM alike.
"""

from board import Board
from protocol import (
    E_GAP, E_LONG, E_PARSE, E_VERSION, FIRMWARE, HOST_TIMEOUT_MS, MAX_LINE, NO_SEQ, PROTOCOL,
    ProtocolError, frame, unframe,
)
import settings


class LineBuffer:
    """Splits incoming bytes into lines. A line longer than MAX_LINE comes out once as
    ``None`` (ERR LONG) and the rest of it up to its newline is dropped; a CR is ignored."""

    def __init__(self):
        self.buf = bytearray()
        self.dropping = False

    def feed(self, data):
        lines = []
        for byte in data:
            if byte == 10:
                if not self.dropping:
                    lines.append(bytes(self.buf))
                self.buf, self.dropping = bytearray(), False
            elif byte != 13 and not self.dropping:
                self.buf.append(byte)
                if len(self.buf) >= MAX_LINE:
                    lines.append(None)
                    self.buf, self.dropping = bytearray(), True
        return lines


def _major(version):
    return version.split(".")[0]


class Controller:
    """``handle(line, now)`` gives the reply to one line; ``event(...)`` frames an event.
    ``changed`` is when the board last changed (the animation clock's start), ``heard`` when
    the host last sent a good line."""

    def __init__(self, layout, now=0):
        self.layout = layout
        self.board = Board(len(layout.HOLES))
        self.greeted = False
        self.refused = None  # the host's protocol version, when its major was refused
        self.last = None  # (seq, reply) of the last command: a repeat gets the same reply
        self.heard = now
        self.changed = now
        self.events = 0

    def handle(self, line, now):
        if line is None:
            return frame(NO_SEQ, "ERR %s line over %d bytes" % (E_LONG, MAX_LINE - 1))
        try:
            seq, words = unframe(line)
        except ProtocolError as exc:
            return self._err(exc.seq, exc)
        self.heard = now
        if self.last is not None and self.last[0] == seq and words[0] != "HELLO":
            return self.last[1]  # a retry: answered again, never applied twice
        reply = self._command(seq, words, now)
        self.last = (seq, reply)
        return reply

    def _command(self, seq, words, now):
        try:
            if words[0] == "HELLO":
                return self._hello(seq, words)
            if not self.greeted:
                raise ProtocolError(E_VERSION, self._refusal())
            if self.last is not None and seq != (self.last[0] + 1) & 0xFF:
                raise ProtocolError(E_GAP, "expected %02X: send the full state" % ((self.last[0] + 1) & 0xFF))
            if words[0] != "PING" and self.board.apply(words):
                self.changed = now
        except ProtocolError as exc:
            return self._err(seq, exc)
        return frame(seq, "ACK")

    def _hello(self, seq, words):
        if len(words) != 2:
            raise ProtocolError(E_PARSE, "HELLO takes the host's protocol version")
        self.greeted = _major(words[1]) == _major(PROTOCOL)
        self.refused = None if self.greeted else words[1][:8]
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
        self.events = (self.events + 1) & 0xFF
        return frame(self.events, "%s %s" % (verb, arg))

    def lost(self, now):
        """The host has been silent too long (or never spoke): show the host-lost pattern."""
        return not self.greeted or now - self.heard > HOST_TIMEOUT_MS
