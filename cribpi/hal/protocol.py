"""The controller's line protocol, host side: its constants (the one place on this side),
framing, and the board model as commands (docs/protocol.md is the specification;
firmware/protocol.py is the controller's copy of the constants, and a test keeps them equal).

>>> frame(0x3F, "T 0 12 6 1")
b'3F T 0 12 6 1*CC\\n'
>>> parse_line(frame(0x3F, "ACK").rstrip(b"\\n"))
Line(seq=63, verb='ACK', args=())
"""

from __future__ import annotations

from dataclasses import dataclass

from cribpi.exc import HardwareError
from cribpi.views.board import Animation, BoardModel

__all__ = [
    "PROTOCOL", "MAX_LINE", "HOST_TIMEOUT_MS", "STEP_MS", "FLASH_STEPS", "NO_SEQ", "ERROR_CODES",
    "COMMANDS", "REPLIES", "EVENTS", "ANIMATIONS", "MAX_CAP_MA", "UNCOUNTED", "Line", "LineError", "crc8", "frame",
    "parse_line", "holes_hex", "board_commands", "changed_commands", "major",
]

PROTOCOL = "2.2"  # major.minor: a controller of another major is refused
MAX_LINE = 128  # bytes, the newline included
HOST_TIMEOUT_MS = 3000  # the controller shows the host-lost pattern after this much silence
STEP_MS = 200
FLASH_STEPS = 6
NO_SEQ = "--"
MAX_CAP_MA = 100_000  # the highest current cap a B command may carry
#: Errors that mean the line never arrived whole: it is not counted, and is sent again with
#: the same sequence number (as when no answer comes at all).
UNCOUNTED = ("LONG", "PARSE", "CRC")
ERROR_CODES = ("CRC", "PARSE", "LONG", "UNKNOWN", "ARG", "GAP", "VERSION")
COMMANDS = ("HELLO", "PING", "Z", "T", "F", "C", "G", "M", "B", "A", "REPL")
REPLIES = ("HELLO", "ACK", "ERR")
EVENTS = ("KD", "KU", "KH", "CARD")
ANIMATIONS = ("-", "alert", "winner", "waiting")


class LineError(HardwareError):
    """A line from the controller that is not a frame (damaged, truncated, noise)."""


@dataclass(frozen=True)
class Line:
    """One line from the controller: ``seq`` (None for ``--``), the verb and its words."""

    seq: int | None
    verb: str
    args: tuple[str, ...]


def major(version: str) -> str:
    return version.split(".")[0]


def crc8(data: bytes) -> int:
    """CRC-8/SMBUS: polynomial 0x07, initial value 0, no reflection."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def frame(seq: int, body: str) -> bytes:
    head = f"{seq:02X} {body}".encode()
    return head + f"*{crc8(head):02X}\n".encode()


def _hex2(field: bytes) -> int | None:
    """Two upper-case hex digits -> 0-255 (lower case is not the protocol's)."""
    if len(field) != 2 or any(c not in b"0123456789ABCDEF" for c in field):
        return None
    return int(field, 16)


def parse_line(line: bytes) -> Line:
    """A line (without its newline; a CR just before it is stripped) -> :class:`Line`, or
    :class:`LineError`: held to the same form the controller holds the host's lines to (upper-case
    hex, printable ASCII, words of one or more bytes separated by one space, no ``*`` in them)."""
    line = line[:-1] if line.endswith(b"\r") else line
    shown = line[:40].decode("ascii", "replace")
    if len(line) >= MAX_LINE:
        raise LineError(f"controller line over {MAX_LINE - 1} bytes: {shown!r}...")
    star = line.rfind(b"*")
    seq, crc = _hex2(line[:2]), _hex2(line[star + 1:])
    if star != len(line) - 3 or star < 4 or line[2:3] != b" " or crc is None \
            or (seq is None and line[:2] != NO_SEQ.encode()):
        raise LineError(f"controller sent {shown!r}: not a frame (SS BODY*CC)")
    if crc8(line[:star]) != crc:
        raise LineError(f"controller sent {shown!r}: checksum {crc8(line[:star]):02X}, the line says {crc:02X}")
    if any(not 32 <= byte <= 126 for byte in line) or b"*" in line[:star]:
        raise LineError(f"controller sent {shown!r}: not printable ASCII words")
    words = line[3:star].decode("ascii").split(" ")
    if words[0] not in REPLIES + EVENTS or "" in words:
        raise LineError(f"controller sent {shown!r}: {words[0][:16]!r} is not one of {', '.join(REPLIES + EVENTS)}")
    return Line(seq, words[0], tuple(words[1:]))


def holes_hex(holes: tuple[int, ...] | list[int]) -> str:
    """Holes as the protocol's bitmap: bit h-1 for hole h, in hex (``"0"`` for none)."""
    bits = 0
    for hole in holes:
        bits |= 1 << (hole - 1)
    return f"{bits:X}"


def _animation(board: BoardModel) -> str:
    name = board.animation.value if isinstance(board.animation, Animation) else "-"
    track = "-" if board.anim_track is None else str(board.anim_track)
    winner = "-" if board.winner_track is None else str(board.winner_track)
    return f"A {name} {track} {winner}"


def _pegs(board: BoardModel, number: int) -> tuple[str, ...]:
    """``T``, with the flash as a count of holes up to the front peg (the usual flash: the holes
    just scored); any other flash as an ``F`` after it."""
    track, flash = board.tracks[number], sorted(set(board.flash_holes(number)))  # order draws nothing
    if flash == list(range(track.front - len(flash) + 1, track.front + 1)):
        return (f"T {number} {track.front} {track.rear} {len(flash)}",)
    return (f"T {number} {track.front} {track.rear} 0", f"F {number} {holes_hex(flash)}")


def board_commands(board: BoardModel, cap_ma: int) -> dict[str, tuple[str, ...]]:
    """The whole board as command bodies, keyed by what each sets (a later board's command
    under the same key replaces it). In order: ``Z`` first (it clears the rest)."""
    commands: dict[str, tuple[str, ...]] = {"Z": (f"Z {len(board.tracks)} {board.game_length}",)}
    for number, track in enumerate(board.tracks):
        r, g, b = track.colour
        commands[f"C{number}"] = (f"C {number} {r:02X}{g:02X}{b:02X}",)
        commands[f"G{number}"] = (f"G {number} {min(track.games_won, 99)}",)
        commands[f"T{number}"] = _pegs(board, number)
    commands["M"] = (f"M {holes_hex(board.marks)}",)
    commands["B"] = (f"B {round(board.brightness * 1000)} {cap_ma}",)
    commands["A"] = (_animation(board),)
    return commands


def changed_commands(old: dict[str, tuple[str, ...]] | None, new: dict[str, tuple[str, ...]]) -> list[str]:
    """The bodies that take the controller from ``old`` to ``new``: everything when ``old``
    is None or the tracks or game length changed (``Z`` clears the board), else the changes."""
    if old is None or old["Z"] != new["Z"]:
        return [body for bodies in new.values() for body in bodies]
    return [body for key, bodies in new.items() if old.get(key) != bodies for body in bodies]

