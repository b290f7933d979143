"""The controller backend: a Raspberry Pi Pico on USB drives the LED tracks and scans the card
keys (firmware/ on the Pico; docs/protocol.md for the line protocol between them).

One :class:`~cribpi.hal.controller.link.Link` per port does the talking in its own thread.
The wiring opens the controller twice, as the table's pegboard and as one of its input
sources: :func:`open_controller` gives each a :class:`ControllerPart` sharing that port's
link, which closes when the last part on it closes.

A part never raises into the app when the Pico goes away: ``problem`` says what is wrong
("controller lost: reconnecting", or the firmware-version message) and is None again once
the link has reconnected and sent the whole board.
"""

from __future__ import annotations

import threading
from typing import Any

from cribpi.hal.base import Deliver, check_open
from cribpi.hal.controller.link import Hello, Link, LinkTiming, version_problem
from cribpi.views.board import BoardModel

__all__ = ["ControllerPart", "Link", "LinkTiming", "Hello", "open_controller", "version_problem"]

_links: dict[str, tuple[Link, int]] = {}
_lock = threading.Lock()


class ControllerPart:
    """The controller as a pegboard and as an input source (the wiring uses one face each)."""

    def __init__(self, link: Link, key: str) -> None:
        self.link = link
        self._key = key
        self._closed = False
        self._delivering = False

    @property
    def problem(self) -> str | None:
        return None if self._closed else self.link.problem

    def show(self, board: BoardModel) -> None:
        check_open(self._closed, "pegboard")
        self.link.show(board)

    def start(self, deliver: Deliver) -> None:
        check_open(self._closed, "controller inputs")
        self._delivering = True
        self.link.deliver_to(deliver)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._delivering:
            self.link.deliver_to(None)
        _release(self._key)


def open_controller(port: str | None = None, *, timing: LinkTiming = LinkTiming(), cap_ma: float = 2000,
                    **link_options: Any) -> ControllerPart:
    """A part on the controller at ``port`` (a path or pyserial URL; None: find the Pico).
    Never fails for want of a device: the link keeps looking and says so in ``problem``."""
    key = port or ""
    with _lock:
        link, users = _links.get(key, (None, 0))
        if link is None:
            link = Link(port, timing=timing, cap_ma=int(cap_ma), **link_options)
        _links[key] = (link, users + 1)
    return ControllerPart(link, key)


def _release(key: str) -> None:
    with _lock:
        link, users = _links[key]
        if users > 1:
            _links[key] = (link, users - 1)
            return
        del _links[key]
    link.close()
