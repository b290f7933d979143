"""The controller backend (a Pico on USB drives the LED tracks and scans the card keys).

PLACEHOLDER. The serial protocol between the Pi and the controller is its own issue; until it
lands, opening this backend raises :class:`~cribpi.exc.NotBuiltError` (a
:class:`~cribpi.exc.HardwareError` and a ``NotImplementedError``) saying so. What is fixed
already is the shape: a :class:`ControllerLink` speaks pyserial to a port URL
(``/dev/ttyACM0``, or ``loop://`` and ``socket://`` in tests) and offers the controller's
keys as an input source and its LED tracks as a pegboard.
"""

from __future__ import annotations

from typing import Protocol

from cribpi.exc import NotBuiltError
from cribpi.hal.base import Deliver
from cribpi.views.board import BoardModel

__all__ = ["ControllerLink", "open_controller", "PLACEHOLDER_MESSAGE"]

PLACEHOLDER_MESSAGE = (
    "the controller backend is not built yet (its serial protocol is a separate issue): "
    "use the 'pi', 'sim' or 'mock' backend for now"
)


class ControllerLink(Protocol):
    """What the controller backend will offer once the protocol exists."""

    def start(self, deliver: Deliver) -> None: ...

    def show(self, board: BoardModel) -> None: ...

    def close(self) -> None: ...


def open_controller(port: str | None = None) -> ControllerLink:
    """Always raises :class:`NotBuiltError` for now (see the module docstring)."""
    where = f" (port {port})" if port else ""
    raise NotBuiltError(PLACEHOLDER_MESSAGE + where)
