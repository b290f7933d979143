"""``cribpi run`` with ``[parts] speaker = "espeak"`` (marked ``speaker``): the table as a
process says a score keyed into it through espeak-ng and aplay on ALSA's default device (made
a file by an ``.asoundrc`` in the process's own HOME), and a missing device is logged as the
speaker's problem while the table goes on and stops cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from speaker_rig import need_aplay, need_espeak

pytestmark = pytest.mark.speaker
ROOT = Path(__file__).resolve().parents[2]
KEYS = ["ok", "card 6S", "card QH", "card 5C"]  # a random cut, the starter, and fifteen two


def run_table(tmp_path: Path, device: str, until: object, seconds: float = 60.0) -> tuple[int, str]:  # a failure bound
    said = tmp_path / "said.raw"
    (tmp_path / ".asoundrc").write_text(
        f'pcm.!default {{\n type file\n slave.pcm "null"\n file "| cat >> {said}"\n format "raw"\n}}\n')
    (tmp_path / "cribpi.toml").write_text(
        f'backend = "mock"\ndb = "state/cribpi.db"\n[parts]\nspeaker = "espeak"\n[speech]\ndevice = "{device}"\n')
    (tmp_path / "keys").write_text("\n".join(KEYS) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("CRIBPI_DB", "NOTIFY_SOCKET", "CRIBPI_CONFIG", "CRIBPI_BACKEND")}
    env.update(HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    log = tmp_path / "log"
    with log.open("w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "cribpi", "run", "--config", str(tmp_path / "cribpi.toml"),
                                 "--keys", str(tmp_path / "keys")], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err)
        try:
            deadline = time.monotonic() + seconds
            while not until(tmp_path) and proc.poll() is None and time.monotonic() < deadline:  # type: ignore[operator]
                time.sleep(0.05)
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(30)
        finally:
            if proc.poll() is None:
                proc.kill()
    return code, log.read_text()


def test_the_table_says_a_score_keyed_into_it(tmp_path: Path) -> None:
    need_espeak()
    need_aplay()

    def heard(folder: Path) -> bool:
        said = folder / "said.raw"
        return said.exists() and said.stat().st_size > 22050 * 2 * 0.5  # half a second of speech

    code, log = run_table(tmp_path, "default", heard)
    assert code == 0, log
    assert heard(tmp_path), log
    assert "speaker:" not in log, log


def test_a_missing_sound_device_is_the_speakers_problem_and_the_table_goes_on(tmp_path: Path) -> None:
    need_espeak()
    need_aplay()
    code, log = run_table(tmp_path, "cribpi_no_such_device", lambda folder: "speaker: " in (folder / "log").read_text())
    assert code == 0, log
    assert "speaker: ALSA device 'cribpi_no_such_device'" in log and "(retrying)" in log, log
