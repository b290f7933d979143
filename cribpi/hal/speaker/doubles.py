"""Speakers without sound: the simulator's (:class:`SimSpeaker`) and the tests' (:class:`MockSpeaker`).

They take at least as long as the real part to say a text (:func:`speaking_time`), can be cut short only while they speak, refuse to speak once
closed, and the mock fails as the real part does when told to (:meth:`MockSpeaker.fail`): a
double is never kinder than the part it stands for. Each keeps what it said, whole or cut.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from cribpi.hal.speaker.base import SpeakerError, Voice, words_per_second
from cribpi.rules.speech import number_words

__all__ = ["Said", "SimSpeaker", "MockSpeaker", "EXTRA_WORDS", "PAUSE_WORDS", "speaking_time", "spoken_words"]

#: What espeak-ng adds to a text's words: its pause at the end, and longer words than most;
#: and for each stop (a comma, a colon...) its pause.
EXTRA_WORDS = 1.5
PAUSE_WORDS = 1.25


def spoken_words(text: str) -> tuple[int, int]:
    """How many words ``text`` says (a number as its words: "121" is four, "twenty-one" two),
    and how many stops it has."""
    said = re.sub(r"\d{1,3}", lambda m: number_words(int(m.group())), text)
    return len(re.split(r"[\s-]+", said.strip())), len(re.findall(r"[,:;!?.(]", text))


def speaking_time(text: str, voice: Voice) -> float:
    """How long ``text`` takes to say at ``voice``'s speed: a little more than espeak-ng takes
    (measured on the table's call-outs at 80-450 words a minute)."""
    words, stops = spoken_words(text)
    return (words + PAUSE_WORDS * stops + EXTRA_WORDS) / words_per_second(voice)


@dataclass
class Said:
    text: str
    voice: Voice
    whole: bool | None = None  # None while it is being said
    started: float = 0.0
    ended: float = 0.0


class SimSpeaker:
    """Says nothing aloud, in real time: ``current`` is what it is saying now, ``said`` all of
    it; ``subscribe`` is called as an utterance starts and ends (from the speaking thread)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.said: list[Said] = []
        self.current: Said | None = None
        self.problem: str | None = None
        self.listeners: list[Callable[[], None]] = []
        self.speaking = threading.Event()  # set while an utterance is being said (tests wait on it)
        self._lock = threading.Lock()
        self._cancel: threading.Event | None = None
        self._closed = False

    def subscribe(self, listener: Callable[[], None]) -> None:
        self.listeners.append(listener)

    def _changed(self) -> None:
        for listener in self.listeners:
            listener()

    def check(self) -> None:
        if self._closed:
            raise SpeakerError("the speaker is closed")

    def speak(self, text: str, voice: Voice, cancel: threading.Event | None = None) -> bool:
        self.check()
        cancel = cancel or threading.Event()
        with self._lock:
            self._cancel = cancel
        said = Said(text, voice, started=self.clock())
        self.said.append(said)
        self.current = said
        self.speaking.set()
        self._changed()
        whole = False
        try:
            end = self.clock() + speaking_time(text, voice)
            cut = False
            while not cut and (left := end - self.clock()) > 0:
                cut = cancel.wait(min(left, 0.05))
                self._still_working()  # a part failing while it speaks stops it, as the real one
            whole = not cut
        finally:
            with self._lock:
                self._cancel = None
            self.speaking.clear()
            said.whole, said.ended = whole, self.clock()
            self.current = None
            self._changed()
        return whole

    def _still_working(self) -> None:
        """Raise when the part failed (never, for the simulator's)."""

    def stop(self) -> None:
        with self._lock:
            if self._cancel is not None:
                self._cancel.set()

    def close(self) -> None:
        self._closed = True
        self.stop()


class MockSpeaker(SimSpeaker):
    """The simulator's speaker with a fault to inject: after :meth:`fail`, ``check`` and
    ``speak`` raise it (as espeak-ng does without its sound card) until ``fail(None)``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(clock)
        self.fault: str | None = None
        self.attempts = 0  # every speak and check, failing or not: the worker's retries show here

    def fail(self, fault: str | None) -> None:
        """From now on ``check`` and ``speak`` raise ``fault`` (None: it works again); an
        utterance being said stops with it, as espeak-ng's does when its sound card goes."""
        self.fault = fault

    def _still_working(self) -> None:
        if self.fault is not None:
            raise SpeakerError(self.fault)

    def check(self) -> None:
        self.attempts += 1
        super().check()
        if self.fault is not None:
            raise SpeakerError(self.fault)
