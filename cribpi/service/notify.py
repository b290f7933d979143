"""systemd's notify protocol, in the few lines cribpi needs (the ``sdnotify`` package is
unmaintained). Under ``Type=notify`` systemd waits for ``READY=1`` before it calls the service
started, restarts it when ``WATCHDOG=1`` stops coming, and shows the last ``STATUS=`` line in
``systemctl status``. Outside systemd (no ``NOTIFY_SOCKET``) every call does nothing.
"""

from __future__ import annotations

import os
import socket
from collections.abc import MutableMapping

__all__ = ["Notifier"]


class Notifier:
    """The notify socket, taken from the environment once and removed from it, so processes
    started from here (a shell hook, a test) do not talk to systemd in our name."""

    def __init__(self, environ: MutableMapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.pop("NOTIFY_SOCKET", "")
        usec, pid = env.pop("WATCHDOG_USEC", ""), env.pop("WATCHDOG_PID", "")
        # systemd sets WATCHDOG_PID to the process it watches: a child that inherited it must not ping
        self.watchdog = int(usec) / 1e6 if usec.isdigit() and int(usec) and pid == str(os.getpid()) else None
        self._sock: socket.socket | None = None
        if address[:1] in ("@", "/") and len(address) > 1:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            try:
                self._sock.connect("\0" + address[1:] if address[0] == "@" else address)
            except OSError:
                self.close()

    @property
    def active(self) -> bool:
        """True under systemd: there is a socket to tell."""
        return self._sock is not None

    def send(self, *fields: str) -> bool:
        """Send ``READY=1``, ``STATUS=...`` and the like in one datagram; False if unheard."""
        if self._sock is None:
            return False
        try:
            self._sock.sendall("\n".join(fields).encode("utf-8", "replace"))
        except OSError:
            return False
        return True

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
