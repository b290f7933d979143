"""The speaker part: the table says its scores aloud.

Backends: ``espeak`` (Debian's espeak-ng played with aplay on an ALSA device,
:mod:`cribpi.hal.speaker.espeak`), ``sim`` (says nothing aloud, in real time: the simulator's)
and ``mock`` (the tests': the sim's with faults to inject). :class:`SpeechWorker` speaks on its
own thread so the table never waits. :func:`open_speaker` opens one by its backend's name;
nothing here reads the configuration.
"""

from __future__ import annotations

from cribpi.exc import HardwareError
from cribpi.hal.speaker.base import SPEED, VOICE_NAME, VOLUME, Speaker, SpeakerError, Voice
from cribpi.hal.speaker.worker import SpeechWorker

__all__ = ["Speaker", "SpeakerError", "Voice", "SpeechWorker", "open_speaker", "SPEAKER_BACKENDS",
           "VOLUME", "SPEED", "VOICE_NAME"]

SPEAKER_BACKENDS = ("espeak", "sim", "mock")


def open_speaker(backend: str, device: str = "default") -> Speaker:
    """The speaker of ``backend`` (``device``: the ALSA device espeak's sound is played on)."""
    if backend == "espeak":
        from cribpi.hal.speaker.espeak import EspeakSpeaker

        return EspeakSpeaker(device)
    if backend == "sim":
        from cribpi.hal.speaker.doubles import SimSpeaker

        return SimSpeaker()
    if backend == "mock":
        from cribpi.hal.speaker.doubles import MockSpeaker

        return MockSpeaker()
    raise HardwareError(f"no speaker backend {backend!r}: one of {', '.join(SPEAKER_BACKENDS)}")
