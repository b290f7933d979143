"""The line protocol, controller side: its constants (the one place on this side), framing,
and the strict readers of the words a command carries.

A line is ``SS BODY*CC\\n``: ``SS`` the sequence number (two upper-case hex digits), ``BODY``
words of printable ASCII separated by single spaces, ``CC`` the CRC-8 of everything before
the ``*`` (two upper-case hex digits). docs/protocol.md is the specification (its examples are
run against this firmware by tests/firmware/test_protocol_conformance.py);
cribpi/hal/protocol.py holds the host's copy of these constants and a test keeps the two equal.

Every word is read by hand, in exactly one form: MicroPython's int() takes ``0x5``, ``+5``
and ``5_5``, which the protocol does not.
"""

import micropython

PROTOCOL = "2.2"  # major.minor: a different major is refused on both sides
FIRMWARE = "2.2.0"
MAX_LINE = 128  # bytes, the newline included; a longer line is ERR LONG
HOST_TIMEOUT_MS = 3000  # silence longer than this: the host-lost pattern
STEP_MS = 200  # one animation step
FLASH_STEPS = 6  # scored holes blink for this many steps
HOLES = 121
NO_SEQ = "--"  # the sequence field of a reply to a line whose own could not be read
SHOWN = 20  # bytes of a received word quoted in a reason; a longer one is cut and ends "..."

# ERR codes
E_CRC = "CRC"  # the checksum does not match: the line was damaged
E_PARSE = "PARSE"  # not a frame at all
E_LONG = "LONG"  # longer than MAX_LINE
E_UNKNOWN = "UNKNOWN"  # a command this side does not know
E_ARG = "ARG"  # a known command with bad arguments
E_GAP = "GAP"  # a sequence number was skipped: resync
E_VERSION = "VERSION"  # no handshake yet, or a major-version mismatch

# Commands (host -> controller) and replies/events (controller -> host)
COMMANDS = ("HELLO", "PING", "Z", "T", "F", "C", "G", "M", "B", "A", "REPL")
REPLIES = ("HELLO", "ACK", "ERR")
EVENTS = ("KD", "KU", "KH", "CARD")
ANIMATIONS = ("-", "alert", "winner", "waiting")

_HEX = "0123456789ABCDEF"
_DIGITS = "0123456789"


class ProtocolError(Exception):
    """A line that gets ERR: ``code`` is one of the E_ codes, ``seq`` the line's own (if read)."""

    def __init__(self, code, reason, seq=NO_SEQ):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.seq = seq


@micropython.viper
def crc8(data) -> int:
    """CRC-8 with polynomial 0x07, initial value 0, no reflection (CRC-8/SMBUS), of ``data``
    (bytes). Viper: as bytecode it took 3.5 ms of a peg line's 10 on the Pico, once for the
    line and once for its ACK."""
    buf = ptr8(data)
    crc = 0
    for i in range(int(len(data))):
        crc ^= buf[i]
        for _ in range(8):
            if crc & 0x80:
                crc = ((crc << 1) ^ 0x07) & 0xFF
            else:
                crc = (crc << 1) & 0xFF
    return crc


_ACKS = [None] * 256  # each sequence number's ACK line, made once


def ack(seq):
    """``frame(seq, "ACK")``, made once for each ``seq``."""
    line = _ACKS[seq]
    if line is None:
        line = _ACKS[seq] = frame(seq, "ACK")
    return line


def frame(seq, body):
    """``seq`` (an int 0-255, or NO_SEQ) and ``body`` (str) as the bytes of one line."""
    head = ("%02X %s" % (seq, body)) if isinstance(seq, int) else ("%s %s" % (seq, body))
    data = head.encode()
    return data + ("*%02X\n" % crc8(data)).encode()


def unframe(line):
    """One received line (bytes, without its newline and the CR before it) -> ``(seq, words)``;
    else ProtocolError. The checks, in this order: length (LONG), shape (PARSE), checksum
    (CRC), printable ASCII and single spaces (PARSE). A good line passes them all in one viper
    call (_good); only a bad one goes through them one by one, for its reason."""
    seq = _good(line)
    if seq >= 0:
        return seq, line[3:len(line) - 3].decode().split(" ")
    if len(line) >= MAX_LINE:
        raise ProtocolError(E_LONG, "line over %d bytes" % (MAX_LINE - 1))
    seq = _hex2(line[:2])
    star = line.rfind(b"*")
    if line[2:3] != b" " or star != len(line) - 3 or star < 4:
        raise ProtocolError(E_PARSE, "not a frame", seq)
    if seq == NO_SEQ:
        raise ProtocolError(E_PARSE, "SS is not two upper-case hex digits", seq)
    crc = _hex2(line[star + 1:])
    if crc == NO_SEQ:
        raise ProtocolError(E_PARSE, "CC is not two upper-case hex digits", seq)
    if crc8(line[:star]) != crc:
        raise ProtocolError(E_CRC, "checksum %02X, line says %02X" % (crc8(line[:star]), crc), seq)
    bad = _unprintable(line)
    if bad >= 0:
        raise ProtocolError(E_PARSE, "byte %02X is not printable ASCII" % line[bad], seq)
    words = line[3:star].decode().split(" ")
    if b"*" in line[:star]:
        raise ProtocolError(E_PARSE, "a word holds a star", seq)
    if "" in words:
        raise ProtocolError(E_PARSE, "words are separated by one space", seq)
    return seq, words


@micropython.viper
def _good(line) -> int:
    """The sequence number of a line that passes every check of unframe(), else -1: under
    MAX_LINE bytes, ``SS `` then words of printable ASCII but the star, one space apart, then
    ``*CC``, the CRC-8 of what comes before the star."""
    buf = ptr8(line)
    n = int(len(line))
    if n >= int(MAX_LINE) or n < 7 or buf[2] != 32 or buf[n - 3] != 42:
        return -1
    value = 0
    for k in range(4):  # SS and CC: upper-case hex digits
        c = buf[k if k < 2 else n - 4 + k]
        if c >= 48 and c <= 57:
            value = (value << 4) | (c - 48)
        elif c >= 65 and c <= 70:
            value = (value << 4) | (c - 55)
        else:
            return -1
    crc = 0
    last = 32  # the byte before: a word may not start or end with a space, nor hold two
    for i in range(n - 3):
        c = buf[i]
        if c < 32 or c > 126 or c == 42 or (c == 32 and last == 32 and i > 2):
            return -1
        last = c
        crc ^= c
        for _ in range(8):
            if crc & 0x80:
                crc = ((crc << 1) ^ 0x07) & 0xFF
            else:
                crc = (crc << 1) & 0xFF
    if last == 32 or crc != value & 0xFF:
        return -1
    return value >> 8


@micropython.viper
def _unprintable(line) -> int:
    """The index of the first byte of ``line`` that is not printable ASCII, else -1."""
    buf = ptr8(line)
    for i in range(int(len(line))):
        if buf[i] < 32 or buf[i] > 126:
            return i
    return -1


def _hex2(field):
    """Two upper-case hex digits (bytes) -> 0-255, else NO_SEQ."""
    if len(field) != 2:
        return NO_SEQ
    high, low = _HEX.find(chr(field[0])), _HEX.find(chr(field[1]))
    return NO_SEQ if high < 0 or low < 0 else high * 16 + low


def shown(word):
    """A received word as a reason quotes it: whole, or its first SHOWN bytes and "..."."""
    return word if len(word) <= SHOWN else word[:SHOWN] + "..."


def arg_error(reason):
    return ProtocolError(E_ARG, reason)


def digits(word, what):
    """``word`` is a number: decimal digits, no sign, no leading zero ("0" is zero)."""
    # strip() leaves nothing of a word made of these characters only: one call in C, where a
    # loop over the characters took a good part of a peg command's time on the Pico
    if not word or word.strip(_DIGITS) or (word[0] == "0" and len(word) > 1):
        raise arg_error("%s %s is not a number" % (what, shown(word)))


@micropython.viper
def _decimal(word) -> int:
    """``word`` (str) as a number if it is one by digits(), of at most 9 digits; else -1 (not
    a number) or -2 (a number of more digits)."""
    buf = ptr8(word)
    n = int(len(word))
    if n == 0 or (buf[0] == 48 and n > 1):
        return -1
    value = 0
    for i in range(n):
        c = buf[i]
        if c < 48 or c > 57:
            return -1
        value = value * 10 + c - 48
    return value if n <= 9 else -2


def number(word, low, high, what):
    """A number in low..high."""
    value = _decimal(word)  # one viper call for a good word; a bad one is told below why
    if low <= value <= high:
        return value
    digits(word, what)
    if len(word) > len(str(high)) or not low <= int(word) <= high:
        raise arg_error("%s %s is not %d-%d" % (what, shown(word), low, high))
    return int(word)


def hex_colour(word, what):
    """RRGGBB: exactly six upper-case hex digits -> (r, g, b)."""
    if len(word) != 6 or word.strip(_HEX):
        raise arg_error("%s %s is not RRGGBB" % (what, shown(word)))
    return tuple(_HEX.index(word[i]) * 16 + _HEX.index(word[i + 1]) for i in (0, 2, 4))


def holes_from_hex(word, last, what):
    """A hole bitmap (bit h-1 for hole h; upper-case hex, no leading zero, "0" for none, at
    most 31 digits) -> the sorted holes, each 1-``last``."""
    if not 1 <= len(word) <= 31 or word.strip(_HEX) or (word[0] == "0" and len(word) > 1):
        raise arg_error("%s %s is not a hole bitmap" % (what, shown(word)))
    holes = []
    for place, digit in enumerate(reversed(word)):
        value = _HEX.index(digit)
        for bit in range(4):
            if value >> bit & 1:
                holes.append(place * 4 + bit + 1)
    if holes and holes[-1] > last:
        raise arg_error("%s hole %d is not 1-%d" % (what, holes[-1], last))
    return tuple(holes)


def version(word):
    """MAJOR.MINOR, each a number -> the word itself."""
    dot = word.find(".")
    try:
        if dot < 0:
            raise arg_error("")
        digits(word[:dot], "")
        digits(word[dot + 1:], "")
    except ProtocolError:
        raise arg_error("version %s is not MAJOR.MINOR" % shown(word))
    return word
