"""The speaker's settings as the configuration's ``[speech]`` gives them (read by
:mod:`cribpi.config`, which checks each key's type and names the file in its errors)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cribpi.hal.speaker.base import SpeakerError, Voice

__all__ = ["SPEECH_SAY", "SpeechConfig", "speech_config"]

#: What the speaker says: the scores (and hands and crib) only, or alerts and game ends too.
SPEECH_SAY = ("scores", "everything")

Fail = Callable[[str, Any, str], Exception]  # (key, value, what would be accepted) -> the error to raise


@dataclass(frozen=True)
class SpeechConfig:
    """``[speech]``: how the speaker part speaks (nothing without one in ``[parts]``)."""

    enabled: bool | None = None  # None: on, but off under a tournament preset
    say: str = "everything"
    voice: Voice = Voice()
    device: str = "default"  # the ALSA device espeak-ng's sound is played on


def speech_config(table: Mapping[str, Any], fail: Fail) -> SpeechConfig:
    """``[speech]``'s keys (their types already checked) as settings; ``fail`` makes the error
    for a value that is not valid."""
    say = table.get("say", SpeechConfig.say)
    if say not in SPEECH_SAY:
        raise fail("speech.say", say, " or ".join(f'"{s}"' for s in SPEECH_SAY))
    device = table.get("device", SpeechConfig.device)
    if not device.strip() or len(device) > 100 or not device.isprintable() or device.startswith("-"):
        raise fail("speech.device", device, 'an ALSA device name ("default", "plughw:1,0", "null")')
    base = Voice()
    try:
        voice = Voice(volume=table.get("volume", base.volume), voice=table.get("voice", base.voice),
                      speed=table.get("speed", base.speed))
    except SpeakerError as exc:
        raise fail("speech.voice", table.get("voice", base.voice), str(exc)) from None
    return SpeechConfig(enabled=table.get("enabled"), say=say, voice=voice, device=device)
