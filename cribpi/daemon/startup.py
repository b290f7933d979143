"""Opening the parts at start-up: as a service, a part that cannot be opened (the OLED not
answering at power-up, a loose cable) is waited for instead of failing the start, which would
make systemd give up after its start limit. Run by hand, it fails at once with its one line.

While waiting the service is still starting (``READY=1`` comes only once the table is up):
it says what it waits for in ``STATUS=``, extends systemd's start timeout
(``EXTEND_TIMEOUT_USEC=``) before each wait, and tries again with backoff; SIGTERM ends the
wait.
"""

from __future__ import annotations

import logging
import select
import time
from collections.abc import Callable

from cribpi.daemon.backoff import Backoff
from cribpi.daemon.signals import stop_on_signals
from cribpi.exc import HardwareError
from cribpi.hal import Parts
from cribpi.service.notify import Notifier

__all__ = ["open_patiently"]

log = logging.getLogger("cribpi.daemon")

#: Start time granted beyond each wait: enough to open the parts and the journal.
MARGIN_S = 30.0


def open_patiently(open_parts: Callable[[], Parts], notifier: Notifier,
                   clock: Callable[[], float] = time.monotonic) -> Parts | None:
    """The parts, once they open; None if a signal came first. Without systemd (no notify
    socket) the first failure is raised."""
    try:
        return open_parts()
    except HardwareError as exc:
        if not notifier.active:
            raise
        log.error("%s (waiting for it, retrying)", exc)
        notifier.send(f"STATUS=waiting for the parts: {exc}")
    backoff = Backoff(clock)
    backoff.failed()
    with stop_on_signals() as (received, wake_fd):
        while not received:
            wait = max(0.0, backoff.due - clock())
            notifier.send(f"EXTEND_TIMEOUT_USEC={int((wait + MARGIN_S) * 1e6)}")
            select.select([wake_fd], [], [], wait)
            if received:
                break
            try:
                parts = open_parts()
            except HardwareError:
                backoff.failed()
                continue
            log.warning("the parts are open: starting the table")
            return parts
    return None
