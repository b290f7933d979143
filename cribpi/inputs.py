"""What a user hands cribpi from outside: a path, the file behind it, a number.

Every check lives here so every command, configuration key, layout and record refuses the
same bad input the same way: one error naming the input, what was wrong and what is
accepted. Only regular files are read (a FIFO would block for ever, ``/dev/zero`` never
ends), and only up to a size limit; a path with a NUL byte or a ``~user`` that does not
exist is refused before the file system sees it; numbers are finite and inside bounds (a NaN
compares false with every bound, so it must be refused by name).

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
from collections.abc import Callable
from pathlib import Path

from cribpi.exc import ConfigError, CribpiError

__all__ = ["MAX_FILE_BYTES", "MAX_PATH_CHARS", "bounded_int", "bounded_number", "read_user_bytes",
           "read_user_text", "shown", "user_text", "user_path", "int_option", "path_option"]

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
        raise error(f"{raw!r}: expected the path of a {what}")
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
        raise error(f"{path}: no such {what}") from None
    except OSError as exc:
        raise error(f"{path}: cannot be read as a {what}: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a device, FIFO or socket)"
            raise error(f"{path}: {kind}; a {what} is a text file")
        data = _read_at_most(fd, limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot be read as a {what}: {exc.strerror}") from None
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
    return user_text(read_user_bytes(path, what, error, limit), str(user_path(path, what, error)), what, error, limit)


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


def shown(value: object) -> str:
    """``repr(value)`` short enough for one line (a 5,000-digit number cannot even be printed)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**18:
        digits = int(abs(value).bit_length() * math.log10(2))
        return f"a number of {digits + (abs(value) >= 10**digits)} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


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


def int_option(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        if not re.fullmatch(r"[+-]?\d{1,20}", text.strip()) or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{text[:30]!r} is not valid: expected a whole number {low}-{high}")
        return int(text)

    return parse


def path_option(what: str, *, folder: bool = False) -> Callable[[str], Path]:
    """An argparse ``type=`` for a path (:func:`user_path`); with ``folder``, one that is a
    folder or does not exist yet (it will be made)."""

    def parse(text: str) -> Path:
        try:
            path = user_path(text, what)
        except CribpiError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if folder and path.exists() and not path.is_dir():
            raise argparse.ArgumentTypeError(f"{text!r} is a file; expected a {what} (made if missing)")
        return path

    return parse
