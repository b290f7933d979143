"""``cribpi sim --speak``: the simulator's table speaks through espeak-ng on this machine's
default sound device (on a desktop, ALSA's default goes to PulseAudio or PipeWire)."""

from __future__ import annotations

import dataclasses
import shutil

from cribpi.config import Config
from cribpi.exc import ConfigError
from cribpi.hal import Parts
from cribpi.hal.speaker import open_speaker
from cribpi.hal.speaker.espeak import INSTALL_HINT, PLAYER, PLAYER_HINT, PROGRAM

__all__ = ["speaking", "check_speech"]


def check_speech() -> None:
    """Refuse ``--speak`` at once, saying what to install, when espeak-ng or aplay is missing."""
    for program, hint in ((PROGRAM, INSTALL_HINT), (PLAYER, PLAYER_HINT)):
        if shutil.which(program) is None:
            raise ConfigError(f"--speak: {program} is not installed ({hint}); without --speak the table is silent")


def speaking(config: Config, parts: Parts) -> Config:
    """``parts`` with espeak-ng as their speaker, and ``config`` with speech on (asked for, it
    speaks under any preset)."""
    parts.speaker = open_speaker("espeak", config.speech.device)
    parts.backends = (*parts.backends, ("speaker", "espeak"))
    return dataclasses.replace(config, speech=dataclasses.replace(config.speech, enabled=True))
