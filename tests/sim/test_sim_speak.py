"""``cribpi sim --speak``: the simulator's table says its scores through espeak-ng (marked
``speaker``). The sound goes to ALSA's default device, made here a file (a pipe appending every
utterance) by an ``.asoundrc`` in the process's own HOME; without espeak-ng, --speak is refused
in one line naming the package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cribpi.exc import ConfigError
from cribpi.sim.speech import check_speech

def require(tool: str) -> str:
    """The program ``tool``; skipped without it, failed when CI=true (.ci/bootstrap installs it)."""
    path = shutil.which(tool)
    if path is None:
        message = f"{tool} is not installed (.ci/bootstrap installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


KEYS = ["6s", "qh", "5c", "td", "6d", "2c", "4h", "4s", "4d"]  # the starter, then the play: four scores


def said_seconds(path: Path) -> float:
    return path.stat().st_size / (22050 * 2) if path.exists() else 0.0


@pytest.mark.speaker
def test_the_simulator_speaks_each_score(tmp_path: Path) -> None:
    tmux = require("tmux")
    require("espeak-ng")
    require("aplay")
    said = tmp_path / "said.raw"
    (tmp_path / ".asoundrc").write_text(
        f'pcm.!default {{\n type file\n slave.pcm "null"\n file "| cat >> {said}"\n format "raw"\n}}\n')
    session = f"cribpi-speak-{os.getpid()}"
    command = (f"HOME={tmp_path} {sys.executable} -m cribpi sim --speak --new --seed 1 "
               f"--db {tmp_path / 'sim.db'} 2>{tmp_path / 'err.log'}")
    subprocess.run([tmux, "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command], check=True)
    try:
        time.sleep(1.5)
        subprocess.run([tmux, "send-keys", "-t", session, "Enter"], check=True)  # a random cut
        time.sleep(0.5)
        subprocess.run([tmux, "send-keys", "-t", session, "Enter", "Enter"], check=True)
        heard = [said_seconds(said)]
        for key in KEYS:
            subprocess.run([tmux, "send-keys", "-t", session, key[0], key[1]], check=True)
            time.sleep(2.5 if key in ("5c", "4d") else 0.4)  # time for a call-out to be heard
            heard.append(said_seconds(said))
        screen = subprocess.run([tmux, "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout
    finally:
        subprocess.run([tmux, "send-keys", "-t", session, "C-c"])
        time.sleep(0.5)
        subprocess.run([tmux, "kill-session", "-t", session], capture_output=True)
    assert "a pair royal is six" in screen, screen
    assert "Hardware" not in screen and "speaker:" not in screen, screen
    assert heard[-1] > 2.0, heard  # seconds of speech were played
    assert heard[KEYS.index("5c") + 1] - heard[KEYS.index("5c")] > 0.5, heard  # "fifteen two", as it was made
    assert heard[KEYS.index("td") + 1] == heard[KEYS.index("td")], heard  # 25: nothing to say


def test_speak_without_espeak_is_refused_naming_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ConfigError) as refused:
        check_speech()
    assert "espeak-ng is not installed (apt install espeak-ng)" in str(refused.value)
