"""What a user hands cribpi from outside: a path, the file behind it, a number.

Every check lives here so every command, configuration key, layout and record refuses the
same bad input the same way: one error naming the input, what was wrong and what is
accepted. Only regular files are read (a FIFO would block for ever, ``/dev/zero`` never
ends), and only up to a size limit; a path with a NUL byte or a ``~user`` that does not
exist is refused before the file system sees it; numbers are finite and inside bounds (a NaN
compares false with every bound, so it must be refused by name).

Numbers are read by one parser, :func:`parse_int` (and :func:`parse_number`): ASCII digits only.
Python's ``int()`` and ``float()`` also take Arabic-Indic, fullwidth and other Unicode digits
(``int("١٢") == 12``), underscores (``int("1_2") == 12``) and spaces, and ``str.isdigit`` is true
for ``"²"``, which ``int()`` then refuses: none of them is a number a user meant to type here.

Whatever of the user's input an error repeats goes through :func:`shown` (a value, quoted) or
:func:`escaped` (a path or text, as it is): control characters and terminal escape sequences
come out as ``\x1b`` and the like, never raw (a name must not move the cursor or recolour the
terminal), and a huge input is cut, saying how long it was.

>>> bounded_number("leds.brightness", 0.5, 0, 1)
0.5
>>> bounded_number("buttons.debounce_ms", float("nan"), 0, 1000)
Traceback (most recent call last):
cribpi.exc.ConfigError: buttons.debounce_ms = nan is not valid: a finite number 0-1000
"""

from __future__ import annotations

import argparse
import math
import os
import re
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

from cribpi.exc import ConfigError, CribpiError

__all__ = ["MAX_FILE_BYTES", "MAX_PATH_CHARS", "bounded_int", "bounded_number", "read_user_bytes",
           "read_user_text", "shown", "escaped", "WHOLE", "unprintable", "unprintable_in", "one_line_message", "parse_int", "parse_number",
           "user_text", "user_path", "int_option", "number_option", "path_option", "broker_url", "broker_option"]

#: No configuration, layout or record of a real table comes near this (a long match is ~50 kB).
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_PATH_CHARS = 4096  # Linux's PATH_MAX

ErrorType = type[CribpiError]


def user_path(text: str | os.PathLike[str], what: str, error: ErrorType = ConfigError) -> Path:
    """``text`` as a path with ``~`` expanded; a NUL byte, an unknown ``~user`` or a path longer
    than the system takes raises ``error`` naming it."""
    raw = os.fspath(text)
    if "\0" in raw:
        raise error(f"{shown(raw)}: a path cannot hold a NUL byte; expected the path of a {what}")
    if not raw.strip():
        raise error(f"{shown(raw)}: {'a blank' if raw else 'an empty'} path; expected the path of a {what}")
    if len(raw) > MAX_PATH_CHARS:
        raise error(f"{shown(raw)}: a path of {len(raw)} characters; a {what} path has at most {MAX_PATH_CHARS}")
    path = Path(raw)
    if raw.startswith("~"):
        try:
            path = path.expanduser()
        except RuntimeError:  # Path.expanduser raises it for a ~user with no home
            user = raw[1:].split("/", 1)[0]
            whose = f"there is no user {user!r} on this machine" if user else "this user has no home folder"
            raise error(f"{shown(raw)}: {whose}; expected the path of a {what}") from None
    return path


def read_user_bytes(path: str | os.PathLike[str], what: str, error: ErrorType = ConfigError,
                    limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file's first ``limit + 1`` bytes (:func:`user_text` refuses more); anything
    else raises ``error``.

    The file is opened non-blocking and checked with ``fstat`` on the open descriptor, so a
    FIFO neither blocks the open nor is read, and the check cannot race a rename.
    """
    path = user_path(path, what, error)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"{escaped(path)}: no such {what}") from None
    except OSError as exc:
        raise error(f"{escaped(path)}: cannot be read as a {what}: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a device, FIFO or socket)"
            raise error(f"{escaped(path)}: {kind}; a {what} is a text file")
        data = _read_at_most(fd, limit + 1)
    except OSError as exc:
        raise error(f"{escaped(path)}: cannot be read as a {what}: {exc.strerror}") from None
    finally:
        os.close(fd)
    return data


def _read_at_most(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size > 0 and (chunk := os.read(fd, min(size, 1 << 20))):
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_user_text(path: str | os.PathLike[str], what: str, error: ErrorType = ConfigError,
                   limit: int = MAX_FILE_BYTES) -> str:
    """A regular file (:func:`read_user_bytes`) of at most ``limit`` bytes of UTF-8 text."""
    return user_text(read_user_bytes(path, what, error, limit), escaped(user_path(path, what, error)), what, error, limit)


def user_text(data: bytes, source: str, what: str, error: ErrorType = ConfigError,
              limit: int = MAX_FILE_BYTES) -> str:
    """``data`` read from ``source`` (up to ``limit + 1`` bytes) as text: too long, or not UTF-8
    (a binary file), raises ``error`` naming the source."""
    if len(data) > limit:
        raise error(f"{source}: larger than {limit // 1024} kB; a {what} is a small text file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{source}: byte {exc.start} is not UTF-8; a {what} is UTF-8 text") from None


#: How much of a value an error quotes; the rest is said as a length.
SHOWN_CHARS = 60


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    r"""``repr(value)`` for an error's one line: control characters escaped (``repr`` does it),
    and cut when long, saying how long the value was (a 5,000-digit number cannot even be
    printed, so its digits are counted).

    >>> shown("a\x1b[2Jb")
    "'a\\x1b[2Jb'"
    >>> shown("x" * 5000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (5000 characters)"
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**18:
        digits = int(abs(value).bit_length() * math.log10(2))
        return f"a number of {digits + (abs(value) >= 10**digits)} digits"
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    cut = text[:limit - 5] + "..."
    return cut + cut[0] + size if text[0] in "'\"" else cut + size


#: ``escaped(path, WHOLE)``: a path said in full (a success line), only its escapes written out.
WHOLE = 8 * MAX_PATH_CHARS


def escaped(text: object, limit: int = 2 * SHOWN_CHARS) -> str:
    r"""``text`` (a path, a line) as it is, but every character that is not printable written
    as an escape (``\x1b``, ``\t``, ``\u202e``), and a long one cut in the middle, saying how
    long it was: what an error may repeat of a path, which quotes would only clutter.

    >>> escaped("games\x1b[2J.db")
    'games\\x1b[2J.db'
    """
    raw = os.fspath(text) if isinstance(text, (str, os.PathLike)) else str(text)
    out = "".join(c if c.isprintable() else repr(c)[1:-1] for c in raw)
    if len(out) <= limit:
        return out
    half = (limit - 3) // 2
    return f"{out[:half]}...{out[-half:]} ({len(raw)} characters)"


def unprintable(text: str) -> str | None:
    """The first character of ``text`` that is not printable (a control character, the ESC of
    a terminal escape sequence, a bidirectional override), escaped; None when there is none."""
    return next((repr(c)[1:-1] for c in text if not c.isprintable()), None)


MAX_MESSAGE_CHARS = 1000
#: A quoted value (opened after a space, "(", "[", "=", ":" or ",", so "the deal's" opens none)
#: or a word too long to read in one line.
_LONG_QUOTED = re.compile(r"""(?:(?<=[\s(\[=:,])|^)(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?=[\s,:;)\]]|$)|[^\s'"]{%d,}"""
                          % (2 * SHOWN_CHARS))


def one_line_message(message: str) -> str:
    """An error ``message`` as the one line the command line prints: every control character
    (a line break included) escaped, and any quoted value or word too long to read cut, saying
    how long it was. The last net under every error: each reader quotes with :func:`shown` or
    :func:`escaped` already; argparse and the other layers' messages may not."""
    message = escaped(message, limit=len(message) * 8 + 8)

    def cut(match: re.Match[str]) -> str:
        text = match.group()
        if text[0] in "'\"":
            if len(text) <= SHOWN_CHARS:
                return text
            return text[:SHOWN_CHARS - 5] + "..." + text[0] + f" ({len(text) - 2} characters)"
        end = len(text.rstrip(":,;.)"))
        return escaped(text[:end]) + text[end:]

    message = _LONG_QUOTED.sub(cut, message)
    if len(message) > MAX_MESSAGE_CHARS:  # many short pieces: the line itself is cut
        message = message[:MAX_MESSAGE_CHARS - 40] + f"... (a message of {len(message)} characters)"
    return message


def _describe(name: str, value: object, accepted: str, error: ErrorType) -> CribpiError:
    return error(f"{name} = {shown(value)} is not valid: {accepted}")


def bounded_number(name: str, value: object, low: float, high: float, error: ErrorType = ConfigError) -> float:
    """``value`` as a float if it is a finite number from ``low`` to ``high`` (not a bool)."""
    accepted = f"a finite number {low:g}-{high:g}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _describe(name, value, accepted, error)
    try:
        number = float(value)
    except OverflowError:  # an int too big for a float
        raise _describe(name, value, accepted, error) from None
    if not (math.isfinite(number) and low <= number <= high):
        raise _describe(name, value, accepted, error)
    return number


def bounded_int(name: str, value: object, low: int, high: int, error: ErrorType = ConfigError) -> int:
    """``value`` if it is a whole number (an int, not a bool) from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _describe(name, value, f"a whole number {low}-{high}", error)
    return value


def unprintable_in(value: object, key: str = "") -> tuple[str, object, str] | None:
    """The first key or text anywhere in ``value`` (a table read from TOML: dicts, lists, text)
    that is not printable: ``(its dotted key, its value, what is accepted)``; else None."""
    if isinstance(value, dict):
        for name, item in value.items():
            if (bad := unprintable(str(name))) is not None:
                return f"{key}{name}", item, f"a key in printable characters (it holds {bad})"
            if (found := unprintable_in(item, f"{key}{name}.")) is not None:
                return found
    elif isinstance(value, list):
        for n, item in enumerate(value):
            if (found := unprintable_in(item, f"{key[:-1]}[{n}].")) is not None:
                return found
    elif isinstance(value, str) and (bad := unprintable(value)) is not None:
        return key[:-1], value, f"printable text (it holds {bad}, a control character)"
    return None


_INT = re.compile(r"[+-]?[0-9]+")
_NUMBER = r"[+-]?(?:[0-9]{1,%d}(?:\.[0-9]{0,%d})?|\.[0-9]{1,%d})(?:[eE][+-]?[0-9]{1,3})?"


def parse_int(text: str, max_digits: int = 20, signed: bool = True) -> int | None:
    r"""``text`` as a whole number if it is one written in ASCII digits 0-9 (a sign if
    ``signed``), at most ``max_digits`` of them; else None. The one place cribpi reads a whole
    number from text: ``int()`` would also take ``"١٢"``, ``"１２"``, ``"1_2"`` and ``" 12 "``.

    >>> parse_int("61"), parse_int("-2"), parse_int("\u0661\u0662"), parse_int("\uff11"), parse_int("1_2"), parse_int("9" * 50)
    (61, -2, None, None, None, None)
    """
    if not _INT.fullmatch(text) or (not signed and text[0] in "+-") or len(text.lstrip("+-")) > max_digits:
        return None
    return int(text)


def parse_number(text: str, max_digits: int = 20) -> float | None:
    """``text`` as a finite number written in ASCII (``1``, ``-0.5``, ``2e3``); else None
    (``float()`` would also take Unicode digits, ``"nan"``, ``"inf"`` and ``"1_0"``)."""
    if not re.fullmatch(_NUMBER % ((max_digits,) * 3), text):
        return None
    number = float(text)
    return number if math.isfinite(number) else None


def _accepted_int(low: int | None, high: int | None) -> str:
    if low is None or high is None:
        return "a whole number in digits 0-9"
    return f"a whole number {low}-{high} (digits 0-9)"


def int_option(low: int | None = None, high: int | None = None, choices: Sequence[int] = ()) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number (from ``low`` to ``high`` when given) written in
    ASCII digits (:func:`parse_int`). ``choices`` only names them in the message: give them to
    argparse too, which then refuses a number that is not one of them."""
    accepted = (", ".join(map(str, choices[:-1])) + f" or {choices[-1]}") if choices else _accepted_int(low, high)

    def parse(text: str) -> int:
        number = parse_int(text.strip())
        if number is None or (low is not None and number < low) or (high is not None and number > high):
            raise argparse.ArgumentTypeError(f"{shown(text, 30)} is not valid: expected {accepted}")
        return number

    return parse


def number_option(low: float, high: float) -> Callable[[str], float]:
    """An argparse ``type=`` for a finite number from ``low`` to ``high`` in ASCII (:func:`parse_number`)."""

    def parse(text: str) -> float:
        number = parse_number(text.strip())
        if number is None or not low <= number <= high:
            raise argparse.ArgumentTypeError(f"{shown(text, 30)} is not valid: expected a number {low:g}-{high:g} (digits 0-9)")
        return number

    return parse


_BROKER = re.compile(r"mqtts?://[^/\s:]+(?::([0-9]{1,5}))?/?")


def broker_url(text: str) -> bool:
    """Whether ``text`` is ``mqtt://host[:port]`` or ``mqtts://host[:port]``, printable, its port
    1-65535 in ASCII digits (the tournament's broker parser reads the port with ``int()``)."""
    url = _BROKER.fullmatch(text)
    return url is not None and unprintable(text) is None and (url.group(1) is None or 0 < int(url.group(1)) < 65536)


def broker_option(text: str) -> str:
    """An argparse ``type=`` for a broker's URL (:func:`broker_url`)."""
    if not broker_url(text):
        raise argparse.ArgumentTypeError(f"broker {shown(text)} is not valid: mqtt://host[:port] or mqtts://host[:port], a port 1-65535")
    return text


def path_option(what: str, *, folder: bool = False) -> Callable[[str], Path]:
    """An argparse ``type=`` for a path (:func:`user_path`); with ``folder``, one that is a
    folder or does not exist yet (it will be made)."""

    def parse(text: str) -> Path:
        try:
            path = user_path(text, what)
        except CribpiError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if folder and path.exists() and not path.is_dir():
            # A long path is cut in its middle, never its end: the file's own name stays in the line.
            raise argparse.ArgumentTypeError(f"{escaped(text)} is a file; expected a {what} (made if missing)")
        return path

    return parse
