"""The speaker's contract, run over every backend: the mock, the simulator's, and the real
espeak-ng process (its sound into a WAV file at a sound card's pace; marked ``speaker``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cribpi.hal.speaker import Speaker, SpeakerError, Voice
from cribpi.hal.speaker.doubles import speaking_time
from speaker_rig import SpeakerRig, espeak_rig, mock_rig, sim_rig

FAST = Voice(speed=450)
COUNT = "fifteen two, fifteen four, and a pair is six"

RIGS = [
    pytest.param(mock_rig, id="mock"),
    pytest.param(sim_rig, id="sim"),
    pytest.param(espeak_rig, id="espeak", marks=pytest.mark.speaker),
]


@pytest.fixture(params=RIGS)
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> SpeakerRig:
    make: Callable[[Path], SpeakerRig] = request.param
    opened = make(tmp_path)
    request.addfinalizer(opened.speaker.close)
    return opened


def timed(call: Callable[[], bool]) -> tuple[bool, float]:
    start = time.monotonic()
    result = call()
    return result, time.monotonic() - start


def stop_after(speaker: Speaker, seconds: float) -> threading.Event:
    """Stop ``speaker`` from another thread ``seconds`` from now, and again every 50 ms till the
    returned event is set (the speech returned): a stop that came before a busy machine let the
    speech begin is a stop while silent, which rightly leaves the speech alone."""
    done = threading.Event()

    def stopping() -> None:
        if not done.wait(seconds):
            speaker.stop()
            while not done.wait(0.05):
                speaker.stop()

    threading.Thread(target=stopping, daemon=True).start()
    return done


def test_is_a_speaker(rig: SpeakerRig) -> None:
    assert isinstance(rig.speaker, Speaker)
    assert rig.speaker.problem is None
    rig.speaker.check()  # a working part passes its check


def test_says_a_text_whole_taking_as_long_as_speech(rig: SpeakerRig) -> None:
    said, took = timed(lambda: rig.speaker.speak(COUNT, FAST))
    assert said is True
    assert 0.8 <= took <= max(3.0, speaking_time(COUNT, FAST) * 1.5), took  # 9 words at 450 a minute: about a second


def test_stop_from_another_thread_cuts_it_short(rig: SpeakerRig) -> None:
    slow = Voice(speed=120)
    stopped = stop_after(rig.speaker, 0.3)
    try:
        said, took = timed(lambda: rig.speaker.speak(COUNT, slow))
    finally:
        stopped.set()
    assert said is False
    assert 0.25 <= took < 2.0, took  # stopped soon, not at the end (4 seconds at this speed; room for a busy machine)


def test_cancel_set_before_it_starts_says_nothing(rig: SpeakerRig) -> None:
    cancel = threading.Event()
    cancel.set()
    said, took = timed(lambda: rig.speaker.speak(COUNT, Voice(speed=120), cancel))
    assert said is False and took < 2.0, took  # at once, not the 4 s it takes to say (room for a busy machine)


def test_cancel_set_while_it_speaks_cuts_it_short(rig: SpeakerRig) -> None:
    cancel = threading.Event()
    threading.Timer(0.3, lambda: (cancel.set(), rig.speaker.stop())).start()
    said, took = timed(lambda: rig.speaker.speak(COUNT, Voice(speed=120), cancel))
    assert said is False and took < 2.0, took  # cut soon after 0.3 s, not at the end (4 s at this speed)


def test_stop_while_silent_leaves_the_next_utterance_alone(rig: SpeakerRig) -> None:
    rig.speaker.stop()
    said, took = timed(lambda: rig.speaker.speak("fifteen two", FAST))
    assert said is True and took >= 0.2


def test_closed_speaker_refuses_to_speak(rig: SpeakerRig) -> None:
    rig.speaker.close()
    rig.speaker.close()  # twice is fine
    with pytest.raises(SpeakerError):
        rig.speaker.speak("fifteen two", FAST)
    with pytest.raises(SpeakerError):
        rig.speaker.check()


def test_failing_part_raises_from_speak_and_check(rig: SpeakerRig) -> None:
    if rig.fail is None:
        pytest.skip("the simulator's speaker has no fault to inject")
    rig.fail()
    with pytest.raises(SpeakerError) as raised:
        rig.speaker.speak("fifteen two", FAST)
    assert str(raised.value)
    with pytest.raises(SpeakerError):
        rig.speaker.check()


def test_voice_settings_are_checked() -> None:
    for bad in ({"volume": 101}, {"volume": -1}, {"speed": 79}, {"speed": 451}, {"voice": ""},
                {"voice": "en us"}, {"voice": "-x"}, {"volume": True}):
        with pytest.raises(SpeakerError):
            Voice(**bad)  # type: ignore[arg-type]
    assert Voice(volume=0, speed=80, voice="en-gb-x-rp").voice == "en-gb-x-rp"
