"""Helpers for the speaker tests: every backend opened the same way, and the real espeak-ng
required (skipped saying why on a developer machine without it; under CI=true, failed)."""

from __future__ import annotations

import inspect
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from cribpi.hal.speaker import Speaker
from cribpi.hal.speaker.doubles import MockSpeaker, SimSpeaker
from cribpi.hal.speaker.espeak import PLAYER, PROGRAM, AlsaSink, EspeakSpeaker, Format, WavSink


def require(ok: object, why: str) -> None:
    """Skip a test whose program is missing on a developer machine; in CI (CI=true) fail."""
    if not ok:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{why} (CI must have it: see .ci/bootstrap)")
        pytest.skip(why)


def need_espeak() -> None:
    require(shutil.which(PROGRAM), f"{PROGRAM} is not installed (apt install espeak-ng)")


def need_aplay() -> None:
    require(shutil.which(PLAYER), f"{PLAYER} is not installed (apt install alsa-utils)")


NO_DEVICE = "cribpi_no_such_device"


def wait_for(what: object, timeout: float = 30.0) -> None:
    """Poll till ``what`` holds; a generous deadline (both cores may be busy), named on failure."""
    end = time.monotonic() + timeout
    while not (what() if callable(what) else what):
        assert time.monotonic() < end, f"timed out after {timeout:g} s waiting for {described(what)}"
        time.sleep(0.005)


def described(what: object) -> str:
    try:
        return " ".join(inspect.getsource(what).split())  # type: ignore[arg-type]
    except (OSError, TypeError):
        return repr(what)


@dataclass
class SpeakerRig:
    speaker: Speaker
    fail: Callable[[], None] | None  # makes the part fail from now on (None: it cannot be made to)


def mock_rig(tmp: Path) -> SpeakerRig:
    speaker = MockSpeaker()
    return SpeakerRig(speaker, lambda: speaker.fail("unplugged (USB)"))


def sim_rig(tmp: Path) -> SpeakerRig:
    return SpeakerRig(SimSpeaker(), None)


def paced_sink(path: Path) -> Callable[[Format], WavSink]:
    """Samples into a WAV file as fast as a sound card plays them."""
    return lambda fmt: WavSink(fmt, path, paced=True)


def espeak_rig(tmp: Path) -> SpeakerRig:
    """The real espeak-ng process, its sound into a WAV file at a sound card's pace; failing, it
    plays on an ALSA device that is not there (aplay's own error)."""
    need_espeak()
    need_aplay()
    speaker = EspeakSpeaker(sink=paced_sink(tmp / "said.wav"))

    def fail() -> None:
        speaker.sink_factory = lambda fmt: AlsaSink(fmt, NO_DEVICE)

    return SpeakerRig(speaker, fail)
