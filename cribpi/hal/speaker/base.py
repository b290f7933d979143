"""The speaker's interface: say a text in a voice, cut it short from any thread, report trouble.

A :class:`Speaker` is driven by one thread (the :class:`~cribpi.hal.speaker.worker.SpeechWorker`):
``speak`` blocks until the words are said (True) or are cut short (False): by its ``cancel``
event, set before it starts or while it speaks, with :meth:`Speaker.stop` called from another
thread to stop the sound at once. A speaker that cannot say them raises
:class:`~cribpi.exc.HardwareError`. ``check`` tells whether the part works now (the worker's
retry while it is failing). ``problem``, as on the other parts, is the part's own word on
what is wrong (None when well).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from cribpi.exc import HardwareError

__all__ = ["Speaker", "Voice", "SpeakerError", "VOLUME", "SPEED", "VOICE_NAME", "words_per_second"]

#: The bounds of the settings: volume in percent, speed in words a minute (espeak-ng's own range).
VOLUME = (0, 100)
SPEED = (80, 450)
VOICE_NAME = "en"


class SpeakerError(HardwareError):
    """The speaker could not say what it was given (missing, unplugged, its program failing)."""


@dataclass(frozen=True)
class Voice:
    """How the words are said: ``volume`` 0-100 (50 is espeak-ng's own level), ``voice`` a
    voice name (``en``, ``en-us``, ``en-gb-scotland``), ``speed`` in words a minute."""

    volume: int = 50
    voice: str = VOICE_NAME
    speed: int = 160

    def __post_init__(self) -> None:
        if type(self.volume) is not int or not VOLUME[0] <= self.volume <= VOLUME[1]:
            raise SpeakerError(f"volume {self.volume!r} is not an integer {VOLUME[0]}-{VOLUME[1]}")
        if type(self.speed) is not int or not SPEED[0] <= self.speed <= SPEED[1]:
            raise SpeakerError(f"speed {self.speed!r} is not {SPEED[0]}-{SPEED[1]} words a minute")
        if not isinstance(self.voice, str) or not valid_voice_name(self.voice):
            raise SpeakerError(f"voice {self.voice!r} is not a voice name (letters, digits, - or _, like en-us)")


def valid_voice_name(name: str) -> bool:
    """A name espeak-ng could know: a few letters, digits, ``-``, ``_`` or ``+`` (a variant)."""
    return (0 < len(name) <= 40 and name[0].isascii() and name[0].isalnum()
            and all(c.isascii() and (c.isalnum() or c in "-_+") for c in name))


def words_per_second(voice: Voice) -> float:
    return voice.speed / 60.0


@runtime_checkable
class Speaker(Protocol):
    problem: str | None

    def speak(self, text: str, voice: Voice, cancel: threading.Event | None = None) -> bool:
        """Say ``text``; True once said whole, False when cut short (``cancel`` set before or
        while it speaks, or :meth:`stop`). Raises :class:`SpeakerError` when the part cannot
        say it. Called from one thread at a time."""

    def stop(self) -> None:
        """Cut short what is being said now (from any thread): its ``cancel`` is set and the
        sound stops. Nothing when silent: a later ``speak`` is not affected."""

    def check(self) -> None:
        """Raise :class:`SpeakerError` when the part cannot speak now (the worker's retry)."""

    def close(self) -> None:
        """Stop and let go of the part. Safe to call twice; ``speak`` raises after it."""
