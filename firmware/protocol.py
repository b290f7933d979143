"""The line protocol, controller side: its constants (the one place on this side) and framing.

A line is ``SS BODY*CC\\n``: ``SS`` the sequence number (two hex digits), ``BODY`` words
separated by single spaces, ``CC`` the CRC-8 of everything before the ``*`` (two hex digits).
docs/protocol.md is the specification; cribpi/hal/protocol.py holds the host's copy of these
constants and a test keeps the two equal.
"""

PROTOCOL = "2.0"  # major.minor: a different major is refused on both sides
FIRMWARE = "2.0.0"
MAX_LINE = 128  # bytes, the newline included; a longer line is ERR LONG
HOST_TIMEOUT_MS = 3000  # silence longer than this: the host-lost pattern
STEP_MS = 200  # one animation step
FLASH_STEPS = 6  # scored holes blink for this many steps
HOLES = 121
NO_SEQ = "--"  # the sequence field of a reply to a line whose own could not be read

# ERR codes
E_CRC = "CRC"  # the checksum does not match: the line was damaged
E_PARSE = "PARSE"  # not a frame at all
E_LONG = "LONG"  # longer than MAX_LINE
E_UNKNOWN = "UNKNOWN"  # a command this side does not know
E_ARG = "ARG"  # a known command with bad arguments
E_GAP = "GAP"  # a sequence number was skipped: resync
E_VERSION = "VERSION"  # no handshake yet, or a major-version mismatch

# Commands (host -> controller) and replies/events (controller -> host)
COMMANDS = ("HELLO", "PING", "Z", "T", "F", "C", "G", "M", "B", "A")
REPLIES = ("HELLO", "ACK", "ERR")
EVENTS = ("KD", "KU", "KH", "CARD")
ANIMATIONS = ("-", "alert", "winner", "waiting")


class ProtocolError(Exception):
    """A line that gets ERR: ``code`` is one of the E_ codes, ``seq`` the line's own (if read)."""

    def __init__(self, code, reason, seq=NO_SEQ):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.seq = seq


def crc8(data):
    """CRC-8 with polynomial 0x07, initial value 0, no reflection (CRC-8/SMBUS)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def frame(seq, body):
    """``seq`` (an int 0-255, or NO_SEQ) and ``body`` (str) as the bytes of one line."""
    head = ("%02X %s" % (seq, body)) if isinstance(seq, int) else ("%s %s" % (seq, body))
    data = head.encode()
    return data + ("*%02X\n" % crc8(data)).encode()


def unframe(line):
    """One received line (bytes, without its newline) -> ``(seq, words)``; else ProtocolError."""
    if len(line) >= MAX_LINE:
        raise ProtocolError(E_LONG, "line over %d bytes" % (MAX_LINE - 1))
    star = line.rfind(b"*")
    seq = _seq(line[:2])
    if star < 4 or len(line) != star + 3 or line[2:3] != b" ":
        raise ProtocolError(E_PARSE, "not SS BODY*CC", seq)
    crc = _seq(line[star + 1:])
    try:
        text = line[3:star].decode()
    except UnicodeError:
        text = None
    if crc == NO_SEQ or text is None:
        raise ProtocolError(E_PARSE, "not SS BODY*CC", seq)
    if crc8(line[:star]) != crc:
        raise ProtocolError(E_CRC, "checksum %02X, line says %02X" % (crc8(line[:star]), crc), seq)
    if seq == NO_SEQ:
        raise ProtocolError(E_PARSE, "sequence is not two hex digits", seq)
    words = text.split(" ")
    if "" in words:
        raise ProtocolError(E_PARSE, "words are separated by one space", seq)
    return seq, words


def _seq(field):
    """Two hex digits -> 0-255, else NO_SEQ."""
    if len(field) != 2 or any(c not in _HEX for c in field):
        return NO_SEQ
    return int(field, 16)


_HEX = b"0123456789ABCDEFabcdef"


def holes_from_hex(text):
    """A hole bitmap (bit h-1 for hole h, hex) -> the sorted holes; ValueError if bad."""
    if not 1 <= len(text) <= 31:
        raise ValueError("a hole bitmap is 1-31 hex digits")
    bits = int(text, 16)
    if bits >> HOLES or bits < 0:
        raise ValueError("holes are 1-%d" % HOLES)
    return tuple(h for h in range(1, HOLES + 1) if bits >> (h - 1) & 1)
