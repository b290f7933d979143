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


def said_seconds(path: Path) -> float:
    return path.stat().st_size / (22050 * 2) if path.exists() else 0.0


def quiet(path: Path, still: float = 1.0, timeout: float = 60.0) -> float:
    """The seconds of speech in ``path`` once nothing more came for ``still`` s (the call-out
    being made has been heard), within a generous ``timeout``."""
    deadline = time.monotonic() + timeout
    heard, since = said_seconds(path), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = said_seconds(path)
        if now != heard:
            heard, since = now, time.monotonic()
        elif time.monotonic() - since >= still:
            return heard
    raise AssertionError(f"the speech never stopped within {timeout:g} s ({heard:.2f} s heard)")


def hearing(path: Path, seconds: float, timeout: float = 60.0) -> float:
    """Wait until ``path`` holds more than ``seconds`` of speech (a generous ``timeout``)."""
    deadline = time.monotonic() + timeout
    while said_seconds(path) <= seconds:
        assert time.monotonic() < deadline, f"never more than {seconds:.2f} s of speech: {said_seconds(path):.2f} s"
        time.sleep(0.05)
    return said_seconds(path)


@pytest.mark.speaker
def test_the_simulator_speaks_each_score(tmp_path: Path) -> None:
    from tests.app.test_sim_tmux import Tmux

    require("tmux")
    require("espeak-ng")
    require("aplay")
    said = tmp_path / "said.raw"
    (tmp_path / ".asoundrc").write_text(
        f'pcm.!default {{\n type file\n slave.pcm "null"\n file "| cat >> {said}"\n format "raw"\n}}\n')
    command = (f"HOME={tmp_path} {sys.executable} -m cribpi sim --speak --new --seed 1 "
               f"--db {tmp_path / 'sim.db'} 2>{tmp_path / 'err.log'}")
    session = Tmux(command, 120, 40)
    try:
        session.wait_for(" · cut for deal", timeout=60)
        session.send("Enter")  # a random cut
        session.wait_for(" · starter card")
        heard = {"": quiet(said)}
        last = ""
        for key in KEYS:
            before = session.stable()
            session.send(key[0], key[1])
            session.wait_change(before)
            if key == "5c":  # "fifteen two", as it was made
                hearing(said, heard[last] + 0.5)
            heard[key] = quiet(said)  # what this card made (if anything) said in full
            last = key
        screen = session.wait_for("a pair royal is six")
        screen = session.stable()
        session.send("C-c")
    finally:
        session.kill()
    assert "Hardware" not in screen and "speaker:" not in screen, screen
    assert heard["4d"] > 2.0, heard  # seconds of speech were played
    assert heard["td"] == heard["5c"], heard  # 25: nothing to say


def test_speak_without_espeak_is_refused_naming_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ConfigError) as refused:
        check_speech()
    assert "espeak-ng is not installed (apt install espeak-ng)" in str(refused.value)
