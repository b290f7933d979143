"""The speaker in the configuration: ``[parts] speaker`` and ``[speech]``, each bad value named,
and the wiring opening the speaker of the backend chosen (or none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribpi.config import load_config
from cribpi.exc import ConfigError
from cribpi.hal.speaker import Voice
from cribpi.hal.speaker.doubles import MockSpeaker, SimSpeaker
from cribpi.hal.speaker.espeak import EspeakSpeaker
from cribpi.wiring import open_parts


def config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cribpi.toml"
    path.write_text(text)
    return path


def test_no_speaker_by_default(tmp_path: Path) -> None:
    config = load_config(config_file(tmp_path, ""))
    assert config.parts.speaker is None
    assert config.speech.enabled is None and config.speech.say == "everything" and config.speech.voice == Voice()
    with open_parts(config, "sim") as parts:
        assert parts.speaker is None


def test_speech_settings_are_read(tmp_path: Path) -> None:
    config = load_config(config_file(tmp_path, '[parts]\nspeaker = "espeak"\n[speech]\nenabled = true\nsay = "scores"\n'
                                                'volume = 80\nvoice = "en-us"\nspeed = 140\ndevice = "plughw:1,0"\n'))
    assert config.parts.speaker == "espeak"
    assert (config.speech.enabled, config.speech.say, config.speech.device) == (True, "scores", "plughw:1,0")
    assert config.speech.voice == Voice(volume=80, voice="en-us", speed=140)


@pytest.mark.parametrize(("text", "named"), [
    ('[parts]\nspeaker = "pi"', "parts.speaker = 'pi'"),
    ('[speech]\nsay = "all"', "speech.say = 'all'"),
    ("[speech]\nvolume = 101", "speech.volume"),
    ("[speech]\nspeed = 20", "speech.speed"),
    ('[speech]\nvoice = "en us"', "speech.voice = 'en us'"),
    ('[speech]\ndevice = "-D"', "speech.device = '-D'"),
    ('[speech]\nenabled = "yes"', "speech.enabled = 'yes'"),
    ('[speech]\nloud = true', "speech.loud"),
])
def test_a_bad_value_is_named(tmp_path: Path, text: str, named: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(config_file(tmp_path, text))
    assert named in str(raised.value)


@pytest.mark.parametrize(("configured", "forced", "kind"), [
    ("espeak", None, EspeakSpeaker), ("sim", None, SimSpeaker), ("mock", None, MockSpeaker),
    ("espeak", "sim", SimSpeaker), ("espeak", "mock", MockSpeaker),
])
def test_the_wiring_opens_the_speaker_chosen(tmp_path: Path, configured: str, forced: str | None,
                                             kind: type) -> None:
    config = load_config(config_file(tmp_path, f'backend = "sim"\n[parts]\nspeaker = "{configured}"\n'))
    with open_parts(config, forced) as parts:
        assert type(parts.speaker) is kind
        assert ("speaker", forced or configured) in parts.backends or ("all", "mock") in parts.backends
