"""One thread that speaks, so the table's loop never waits for a word.

:meth:`SpeechWorker.say` hands it what to say and returns at once (from the loop's thread, or
any other). A new batch cuts short what is being said and drops what was waiting (the table
has moved on: the latest score is the one to hear); ``cut=False`` queues behind it instead.
:meth:`SpeechWorker.hush` stops it all (a key press: UNDO, MENU).

A speaker that fails is a problem as the other parts' are: ``problem`` says it (the table shows
it), what was to be said meanwhile is dropped (an old score said late would mislead: what
waits as it fails, and what :meth:`~SpeechWorker.say` is given until a retry is due), and the
part is tried again soon, then less often (half a second doubling to half a minute), with
:meth:`Speaker.check` until it works. ``check()`` (the daemon's guard asks every half second)
says when it came back, so the table redraws without the problem.
"""

from __future__ import annotations

import collections
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cribpi.hal.speaker.base import Speaker, Voice

__all__ = ["SpeechWorker", "FIRST_RETRY_S", "LAST_RETRY_S"]

log = logging.getLogger(__name__)

FIRST_RETRY_S = 0.5
LAST_RETRY_S = 30.0
NICE = 10  # the worker thread's priority below the table's (Linux gives each thread its own)


@dataclass
class _Utterance:
    text: str
    voice: Voice
    cancel: threading.Event = field(default_factory=threading.Event)


class SpeechWorker:
    """Says texts on its own thread through ``speaker``; ``name`` is how problems name it."""

    def __init__(self, speaker: Speaker, *, name: str = "speaker", clock: Callable[[], float] = time.monotonic,
                 first_retry: float = FIRST_RETRY_S, last_retry: float = LAST_RETRY_S,
                 on_change: Callable[[], None] | None = None, wanted: Callable[[], bool] = lambda: True) -> None:
        self.speaker = speaker
        self.name = name
        self.clock = clock
        self.first_retry, self.last_retry = first_retry, last_retry
        self.on_change = on_change  # called (from the worker's thread) as a problem opens or clears
        self.wanted = wanted  # speech is on: a speaker nobody listens to is no problem to show
        self.fault: str | None = None
        self.dropped = 0  # utterances not said because the speaker was failing
        self._delay = first_retry
        self._due = 0.0
        self._queue: collections.deque[_Utterance] = collections.deque()
        self._current: _Utterance | None = None
        self._cond = threading.Condition()
        self._closed = False
        self._came_back = False
        self._thread = threading.Thread(target=self._run, name=f"{name} worker", daemon=True)
        self._started = False

    # -- from the table -------------------------------------------------------------------

    def start(self) -> None:
        """Start the thread; it first checks the speaker (a missing one is a problem at once)."""
        if not self._started:
            self._started = True
            self._thread.start()

    def say(self, texts: Sequence[str], voice: Voice, *, cut: bool = True) -> None:
        """Say ``texts`` in order. With ``cut``, what is being said is cut short and what was
        waiting is dropped; without, they wait their turn."""
        batch = [_Utterance(text, voice) for text in texts if text.strip()]
        with self._cond:
            if cut:
                self._cut_locked()
            if self.fault is not None and self.clock() < self._due:
                # failing, and not yet due for a retry: dropped now, not when the thread takes
                # it (on a busy machine that could be after the speaker came back: said late)
                self.dropped += len(batch)
            else:
                self._queue.extend(batch)  # due: the first of them is the retry
            self._cond.notify_all()

    def hush(self) -> None:
        """Stop speaking and forget what was waiting."""
        with self._cond:
            self._cut_locked()
            self._cond.notify_all()

    def _cut_locked(self) -> None:
        for waiting in self._queue:
            waiting.cancel.set()
        self._queue.clear()
        if self._current is not None:
            self._current.cancel.set()  # first: a speak about to begin sees it
            self.speaker.stop()

    @property
    def busy(self) -> bool:
        """Something is being said or waits to be."""
        with self._cond:
            return self._current is not None or bool(self._queue)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is being said or waiting (tests, benchmarks); False on timeout."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._current is not None or self._queue:
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
        return True

    # -- the part's health, as the guard asks ----------------------------------------------

    @property
    def problem(self) -> str | None:
        if not self.wanted():
            return None
        own = getattr(self.speaker, "problem", None)
        return f"{self.name}: {own}" if own else self.fault

    def check(self) -> bool:
        """True once after the speaker came back from a fault (the table redraws)."""
        with self._cond:
            back, self._came_back = self._came_back, False
        return back

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cut_locked()
            self._cond.notify_all()
        if self._started:
            self._thread.join(timeout=2)
        self.speaker.close()

    # -- the thread -------------------------------------------------------------------------

    def _next(self) -> _Utterance | None:
        """The next utterance, or None when a retry of the failing speaker is due (or closed)."""
        with self._cond:
            while not self._closed:
                if self._queue:
                    self._current = self._queue.popleft()
                    return self._current
                if self.fault is not None:
                    wait = self._due - self.clock()
                    if wait <= 0:
                        return None
                    self._cond.wait(wait)
                else:
                    self._cond.wait()
            return None

    def _run(self) -> None:
        try:  # below the table's loop: on a busy machine the screens get the CPU first
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICE))
        except (OSError, AttributeError):
            pass  # not allowed, or not Linux: speech runs at the table's priority
        self._attempt(None)  # a speaker missing from the start is a problem at once
        while True:
            utterance = self._next()
            if self._closed:
                return
            try:
                self._attempt(utterance)
            finally:
                with self._cond:
                    self._current = None
                    self._cond.notify_all()

    def _attempt(self, utterance: _Utterance | None) -> None:
        """Say ``utterance`` (None: only check the speaker); a failure opens the problem."""
        try:
            if utterance is None:
                self.speaker.check()
            elif not utterance.cancel.is_set():
                self.speaker.speak(utterance.text, utterance.voice, utterance.cancel)
        except Exception as exc:  # noqa: BLE001 - a speaker that fails is a problem, never a crash
            self._failed(str(exc) or type(exc).__name__)
        else:
            self._worked()

    def _failed(self, why: str) -> None:
        fault = f"{self.name}: {why}"
        with self._cond:
            opened = self.fault is None
            self.fault = fault
            self._due = self.clock() + self._delay
            self._delay = min(self._delay * 2, self.last_retry)
            for waiting in self._queue:  # said before it failed: after the retry, said late
                waiting.cancel.set()
            self.dropped += len(self._queue)
            self._queue.clear()
            self._cond.notify_all()
        if opened:
            log.error("%s (retrying)", fault)
            self._changed()

    def _worked(self) -> None:
        with self._cond:
            was = self.fault
            self.fault = None
            self._delay, self._due = self.first_retry, 0.0
            self._came_back = self._came_back or was is not None
        if was is not None:
            log.warning("%s is back", self.name)
            self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:  # noqa: BLE001 - the table's redraw must not stop the speaker
                log.exception("speaker: telling the table failed")
