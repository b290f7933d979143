"""``cribpi sim --speak``: the simulator's table says its scores through espeak-ng (marked
``speaker``). The sound goes to ALSA's default device, made here a file (a pipe appending every
utterance) by an ``.asoundrc`` in the process's own HOME; without espeak-ng, --speak is refused
in one line naming the package."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from cribpi.exc import ConfigError
from cribpi.sim.speech import check_speech
from tests.service.service_tools import require


KEYS = ["6s", "qh", "5c", "td", "6d", "2c", "4h", "4s", "4d"]  # the starter, then the play: four scores
#: How many times the sound device has been opened and closed once each key's call-outs are
#: said: the speaker's check as it starts (a moment of silence), then one a call-out; 25 says
#: nothing, the last card the pair royal and the show's two hands.
PLAYED = {"": 1, "6s": 1, "qh": 1, "5c": 2, "td": 2, "6d": 3, "2c": 3, "4h": 3, "4s": 4, "4d": 7}


def said_seconds(path: Path) -> float:
    return path.stat().st_size / (22050 * 2) if path.exists() else 0.0


def played(marks: Path) -> tuple[int, int]:
    """(begun, ended): sounds the device has begun to write, and those written to their end."""
    lines = marks.read_text().split() if marks.exists() else []
    return lines.count("begun"), lines.count("ended")


def heard(marks: Path, said: Path, count: int, timeout: float = 60.0) -> float:
    """The seconds of speech in ``said`` once ``count`` sounds have been played to their end
    and none is being played (a generous ``timeout`` only bounds a failure)."""
    deadline = time.monotonic() + timeout
    while (now := played(marks))[1] < count or now[0] != now[1]:
        assert time.monotonic() < deadline, f"{count} sounds never played to their end: (begun, ended) {now}"
        time.sleep(0.05)
    assert now == (count, count), f"more sounds than {count}: (begun, ended) {now}"
    return said_seconds(said)


@pytest.mark.speaker
def test_the_simulator_speaks_each_score(tmp_path: Path) -> None:
    from tests.app.test_sim_tmux import Tmux

    require("tmux")
    require("espeak-ng")
    require("aplay")
    said, marks = tmp_path / "said.raw", tmp_path / "marks"
    # ALSA's file plugin pipes each opening of the device to a shell of its own: it marks the
    # sound begun, appends the samples, and marks it ended once aplay has closed the device.
    (tmp_path / ".asoundrc").write_text(
        f'pcm.!default {{\n type file\n slave.pcm "null"\n'
        f' file "| echo begun >> {marks}; cat >> {said}; echo ended >> {marks}"\n format "raw"\n}}\n')
    command = (f"HOME={tmp_path} {sys.executable} -m cribpi sim --speak --new --seed 1 "
               f"--db {tmp_path / 'sim.db'} 2>{tmp_path / 'err.log'}")
    session = Tmux(command, 120, 40)
    try:
        session.wait_for(" · cut for deal", timeout=60)
        session.send("Enter")  # a random cut
        session.wait_for(" · starter card")
        seconds = {"": heard(marks, said, PLAYED[""])}
        for key in KEYS:
            before = session.stable()
            session.send(key[0], key[1])
            session.wait_change(before)
            seconds[key] = heard(marks, said, PLAYED[key])  # what this card made (if anything) said in full
        screen = session.wait_for("a pair royal is six")
        screen = session.stable()
        session.send("C-c")
        deadline = time.monotonic() + 30
        while session.alive():  # the sim has ended: nothing more can be said
            assert time.monotonic() < deadline, "the sim never ended after Ctrl-C"
            time.sleep(0.05)
    finally:
        session.kill()
    assert "Hardware" not in screen and "speaker:" not in screen, screen
    assert played(marks) == (PLAYED["4d"], PLAYED["4d"])  # nothing was said late, after the last call-out
    assert seconds["5c"] - seconds["qh"] > 0.5, seconds  # "fifteen two", as it was made
    assert seconds["4d"] > 2.0, seconds  # seconds of speech were played
    assert seconds["td"] == seconds["5c"], seconds  # 25: nothing to say


def test_speak_without_espeak_is_refused_naming_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ConfigError) as refused:
        check_speech()
    assert "espeak-ng is not installed (apt install espeak-ng)" in str(refused.value)
