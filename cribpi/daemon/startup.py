"""Opening the parts at start-up: as a service, a part that cannot be opened (the OLED not
answering at power-up, a loose cable, a board that is not a Pi) never fails the start, which
would make systemd give up after its start limit, and never holds the start open either. Run
by hand, it fails at once with its one line.

Each part that will not open is replaced by its stand-in (:mod:`cribpi.daemon.missing`) and the
table runs on the others; what follows is the last resort, for a failure no stand-in covers.

As a service, the first failure makes it READY at once, degraded: ``READY=1`` with a
``STATUS=`` line naming the part's problem and ``cribpi doctor``. Waiting in ``activating``
instead would keep ``systemctl enable --now`` (and so ``cribpi install``) blocked for as long
as the part stays missing, and a ``daemon-reload`` during that wait resets the extended start
timeout, so systemd kills the service ("start operation timed out"). Once ready it pings the
watchdog (from this same wait, so a hung wait is restarted like a hung table), tries the parts
again with backoff (half a second, doubling to half a minute), and says a new problem in
``STATUS=``. SIGTERM ends the wait with ``STOPPING=1``.
"""

from __future__ import annotations

import logging
import math
import os
import select
import time
from collections.abc import Callable

from cribpi.daemon.backoff import Backoff
from cribpi.daemon.signals import stop_on_signals
from cribpi.exc import HardwareError
from cribpi.hal import Parts
from cribpi.service.notify import Notifier

__all__ = ["open_patiently", "degraded_status"]

log = logging.getLogger("cribpi.daemon")


def degraded_status(problem: str) -> str:
    """The ``STATUS=`` line while the parts will not open (what ``systemctl status`` shows)."""
    return f"STATUS=degraded, retrying the parts: {problem} (check them with `sudo cribpi doctor`)"


def open_patiently(open_parts: Callable[[], Parts], notifier: Notifier,
                   clock: Callable[[], float] = time.monotonic) -> Parts | None:
    """The parts, once they open; None if a signal came first. Without systemd (no notify
    socket) the first failure is raised."""
    try:
        return open_parts()
    except HardwareError as exc:
        if not notifier.active:
            raise
        problem = str(exc)
    log.error("%s (the service is up without its parts, retrying them; `sudo cribpi doctor` checks them)", problem)
    notifier.send("READY=1", degraded_status(problem))
    backoff = Backoff(clock)
    backoff.failed()
    ping_every = notifier.watchdog / 2 if notifier.watchdog else math.inf
    next_ping = clock()
    with stop_on_signals() as (received, wake_fd):
        while not received:
            now = clock()
            if now >= next_ping:
                notifier.send("WATCHDOG=1")
                next_ping = now + ping_every
            if now >= backoff.due:
                try:
                    parts = open_parts()
                except HardwareError as exc:
                    backoff.failed()
                    if str(exc) != problem:
                        problem = str(exc)
                        log.error("%s (retrying)", problem)
                        notifier.send(degraded_status(problem))
                    continue
                log.warning("the parts are open: starting the table")
                return parts
            wait = max(0.0, min(backoff.due, next_ping) - clock())
            if select.select([wake_fd], [], [], wait)[0]:
                os.read(wake_fd, 64)
    notifier.send("STOPPING=1")
    return None
