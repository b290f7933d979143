"""What guards the director's pages from a request meant to hurt them: every request read
whole, bounded in size, time and depth, before the app sees it, and no exception of the app
let out (:class:`RequestGuard`, shared with the phones' page: :mod:`cribpi.webguard`); the cost of a login attempt kept off the pages
(:class:`LoginGate`). Used by :mod:`cribpi.tournament.director.web`."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from cribpi.tournament.director.eventdb import check_password
from cribpi.webguard import BODY_SECONDS, MAX_BODY, MAX_DEPTH, BodyLimit, RequestGuard, too_deep

__all__ = ["RequestGuard", "BodyLimit", "LoginGate", "MAX_BODY", "MAX_DEPTH", "BODY_SECONDS", "LOGIN_PENALTY_S",
           "too_deep"]

LOGIN_PENALTY_S = 1.0


def _yielding() -> None:
    """Lower the calling thread's priority (a login checker's): a flood of passwords to hash
    gets the cores the pages leave, not the other way round. Linux only (a thread is a task
    there); elsewhere, or when not allowed, the thread keeps its priority."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):
        pass


class LoginGate:
    """What a login attempt costs, kept off the pages: the scrypt check runs on a thread of
    its own (``checks`` at a time, so at most that many cores), each client has one attempt in
    flight at a time, a client past ``free`` failures in a row waits (doubling, up to
    ``longest`` seconds) before its next is even checked, and when ``queue`` attempts are
    already waiting for a check or being checked a new one is turned away. A refused attempt
    costs no hash and is answered (429 with Retry-After) after the same pause as a wrong
    password, so that a flood of them comes no faster than its connections allow. The pause
    holds the client's one attempt, not a place in the queue: the queue is for hashing only, so
    other addresses pausing after their wrong passwords do not turn the right one away."""

    def __init__(self, *, checks: int = 1, queue: int = 32, free: int = 3, longest: float = 300.0,
                 clients: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.pool = ThreadPoolExecutor(max_workers=checks, thread_name_prefix="cribpi-login", initializer=_yielding)
        self.queue, self.free, self.longest, self.clients, self.clock = queue, free, longest, clients, clock
        self.failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # client -> (in a row, not before)
        self.busy: set[str] = set()  # clients with an attempt in flight
        self.waiting = 0  # attempts checking or waiting for the pool

    def refuse(self, client: str) -> float | None:
        """Seconds ``client`` must wait before its attempt is taken, or None: taken (call
        :meth:`checked` once its password is checked, or not, and :meth:`done` once it is
        answered)."""
        if client in self.busy:
            return LOGIN_PENALTY_S
        if self.waiting >= self.queue:
            return 1.0
        _, after = self.failures.get(client, (0, 0.0))
        wait = after - self.clock()
        if wait > 0:
            return wait
        self.busy.add(client)
        self.waiting += 1
        return None

    async def check(self, password: str, stored: str) -> bool:
        return await asyncio.get_running_loop().run_in_executor(self.pool, check_password, password, stored)

    def checked(self, client: str, ok: bool | None) -> None:
        """The attempt's place in the queue is free: ``ok`` True (the count starts again),
        False (one failure more), None (no password was checked)."""
        self.waiting -= 1
        if ok:
            self.failures.pop(client, None)
        elif ok is False:
            count = self.failures.pop(client, (0, 0.0))[0] + 1
            wait = 0.0 if count < self.free else min(self.longest, 2.0 ** (count - self.free))
            self.failures[client] = (count, self.clock() + wait)
            while len(self.failures) > self.clients:  # the oldest failures go first
                self.failures.popitem(last=False)

    def done(self, client: str) -> None:
        """The attempt is answered: ``client`` may make another."""
        self.busy.discard(client)
