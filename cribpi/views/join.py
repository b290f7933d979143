"""The phones' join screen on the OLED: a QR code of the table's address at the left, the
address in short, the table's PIN and the seats at the right.

The code is a version 1-2 QR code (at most 25x25 modules), drawn at 2 pixels a module on a
display 64 pixels high or more (1 on a lower one), dark modules on a lit ground with a lit
quiet zone around it, so a phone's camera reads it as it reads a printed code. An address is
case-blind in its scheme and host, so they are coded in capitals (``HTTP://192.168.1.20:8080/``):
that is the QR code's alphanumeric mode, which leaves room for error correction level Q
(a quarter of the code may be unreadable: the glare of a small screen) where the same address in
small letters fits version 2 only at level M. The highest level at which the address fits
version 2 is used; an address too long for version 2 at any level is refused, naming it.

>>> qr_text("http://192.168.100.200:8080/")
'HTTP://192.168.100.200:8080/'
>>> qr_code("http://192.168.100.200:8080/").level
'Q'
>>> short_address("http://192.168.100.200:8080/")
'192.168.100.200:8080'
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass

from cribpi.exc import ViewError
from cribpi.views.canvas import LINE, Canvas, wrap
from cribpi.views.fonts import BOLD, SMALL
from cribpi.views.model import JoinScreen

__all__ = ["QrCode", "qr_code", "qr_text", "short_address", "draw_join", "join_lines", "MAX_VERSION"]

MAX_VERSION = 2  # 25x25 modules: 50 pixels at 2 a module, beside the PIN on a 128x64 display
_LEVELS = ("H", "Q", "M", "L")  # error correction, the highest first
_ALPHANUMERIC = re.compile(r"[0-9A-Z $%*+\-./:]*")  # what the QR code's alphanumeric mode holds


@dataclass(frozen=True)
class QrCode:
    """A code's modules (rows top down, True: dark), its version and its error correction level."""

    modules: tuple[tuple[bool, ...], ...]
    version: int
    level: str


def qr_text(url: str) -> str:
    """What the code carries: ``url`` with its scheme and host in capitals when all of it then
    fits the alphanumeric mode (as given otherwise: a path in small letters stays as it is)."""
    parts = urllib.parse.urlsplit(url)
    head = f"{parts.scheme}://{parts.netloc}"
    if not parts.scheme or not url.startswith(head):
        return url
    upper = head.upper() + url[len(head):]
    return upper if _ALPHANUMERIC.fullmatch(upper) else url


def qr_code(url: str) -> QrCode:
    """The version 1-2 code of ``url`` at the highest error correction level it fits. Needs
    ``qrcode`` (the ``phones`` extra): imported here, so a table without phones never does."""
    import qrcode
    import qrcode.constants
    from qrcode.exceptions import DataOverflowError

    text = qr_text(url)
    for name in _LEVELS:
        code = qrcode.QRCode(error_correction=getattr(qrcode.constants, f"ERROR_CORRECT_{name}"), border=0)
        code.add_data(text)
        try:
            code.make(fit=True)
        except DataOverflowError:
            continue
        if code.version <= MAX_VERSION:
            return QrCode(tuple(tuple(bool(m) for m in row) for row in code.get_matrix()), code.version, name)
    raise ViewError(f"the address {url!r} is too long for a version {MAX_VERSION} QR code "
                    f"({len(text)} characters): use a shorter host name or an IP address")


def short_address(url: str) -> str:
    """``192.168.1.20:8080`` for ``http://192.168.1.20:8080/``: what a player types."""
    parts = urllib.parse.urlsplit(url)
    if not parts.netloc:
        return url
    path = parts.path.rstrip("/")
    return parts.netloc + path + (f"?{parts.query}" if parts.query else "")


def _address_lines(text: str, columns: int) -> list[str]:
    """``text`` in lines of ``columns``: the host, then the port (``192.168.1.20`` / ``:8130``)
    when each fits a line, else broken after a dot, colon or slash where it can be."""
    host, colon, rest = text.partition(":")
    if colon and len(host) <= columns and len(colon + rest) <= columns:
        return [host, colon + rest] if len(text) > columns else [text]
    lines, line = [], ""
    for piece in re.findall(r"[^.:/]+[.:/]?|[.:/]", text):
        if line and len(line) + len(piece) > columns:
            lines.append(line)
            line = ""
        line += piece
        while len(line) > columns:
            lines.append(line[:columns])
            line = line[columns:]
    return [*lines, line] if line else lines


def _module_size(c: Canvas, modules: int) -> int:
    return 2 if 2 * (modules + 2) <= c.height else 1


def draw_join(screen: JoinScreen, c: Canvas) -> None:
    """The code at the left, filling the height; the address, ``PIN`` and the PIN in bold,
    then the seats, at the right."""
    code = qr_code(screen.url)
    count = len(code.modules)
    scale = _module_size(c, count)
    quiet = min(4, (c.height // scale - count) // 2)  # the lit margin a camera needs around it
    side = (count + 2 * quiet) * scale
    top = (c.height - side) // 2
    c.draw.rectangle([(0, top), (side - 1, top + side - 1)], fill=1)
    for y, row in enumerate(code.modules):
        for x, dark in enumerate(row):
            if dark:
                left, upper = (quiet + x) * scale, top + (quiet + y) * scale
                c.draw.rectangle([(left, upper), (left + scale - 1, upper + scale - 1)], fill=0)
    _draw_words(screen, c, side + 3)


def _draw_words(screen: JoinScreen, c: Canvas, left: int) -> None:
    columns = (c.width - left) // SMALL.width
    address = _address_lines(short_address(screen.url), columns)
    y = 0
    for line in address[:2]:
        c.text((left, y), line)
        y += LINE
    c.dropped.extend(address[2:])
    y += 2
    label = "PIN "
    bold_top = y if c.tall else y - 3
    c.text((left, bold_top + (BOLD.height - SMALL.height) // 2), label)
    c.text((left + SMALL.text_width(label), bold_top), screen.pin, BOLD)
    y = bold_top + BOLD.height + 1
    seats = wrap([", ".join(screen.seats)], columns) if screen.seats else []
    rows = c.rows(y)
    c.lines(seats, y, rows, left=left)


def join_lines(screen: JoinScreen) -> list[str]:
    """The join screen in words (the simulator, screen readers): the address and PIN, the seats."""
    seats = [f"seats: {', '.join(screen.seats)}"] if screen.seats else []
    return [f"Phones: {screen.url} | PIN {screen.pin}", *seats]
