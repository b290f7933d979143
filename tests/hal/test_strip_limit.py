"""The host's layout loader refuses a strip longer than the controller's firmware drives: its
limit (cribpi.hal.layout.MAX_STRIP_LEDS) is the firmware's MAX_LEDS (firmware/settings.py,
read here from the file: the host never imports firmware/), and a layout past it is a clear
error naming the strip, its length and the limit."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cribpi.exc import ConfigError
from cribpi.hal.layout import MAX_STRIP_LEDS, load_layout, parse_layout

ROOT = Path(__file__).parents[2]


def firmware_settings():  # type: ignore[no-untyped-def]
    """firmware/settings.py as the Pico runs it (plain constants), under a name of its own."""
    spec = importlib.util.spec_from_file_location("cribpi_firmware_settings", ROOT / "firmware" / "settings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_hosts_strip_limit_is_the_firmwares():
    assert MAX_STRIP_LEDS == firmware_settings().MAX_LEDS


def long_strip(*tail: str, start: int | None = None) -> dict:  # type: ignore[type-arg]
    """Two tracks on strip 0 (242 LEDs from ``start``), then ``tail``; nothing else on it."""
    run: dict = {"strip": 0, "leds": ["1:1-121", "2:121-1", *tail]}  # type: ignore[type-arg]
    if start is not None:
        run["start"] = start
    return {"tracks": 2, "run": [run]}


def test_a_strip_of_exactly_the_limit_loads():
    ends_on_counters = long_strip(f"skip {MAX_STRIP_LEDS - 242 - 2}", "games 1:1", "games 2:1") | {"game_counters": 1}
    for data in (ends_on_counters, long_strip(start=MAX_STRIP_LEDS - 242)):
        assert parse_layout(data).strip_lengths == {0: MAX_STRIP_LEDS}


@pytest.mark.parametrize("data, entry, length", [
    (long_strip(start=MAX_STRIP_LEDS - 241), "run[0].leds[1] = '2:121-1'", MAX_STRIP_LEDS + 1),
    (long_strip(f"skip {MAX_STRIP_LEDS - 242 + 1}"), f"run[0].leds[2] = 'skip {MAX_STRIP_LEDS - 241}'",
     MAX_STRIP_LEDS + 1),
    ({"tracks": 2, "run": [{"strip": 3, "leds": ["1:1-121", "skip 300", "2:1-121"]}]},
     "run[0].leds[2] = '2:1-121'", 121 + 300 + 121),
])
def test_a_strip_longer_than_the_firmware_drives_is_refused_naming_it(data, entry, length):
    with pytest.raises(ConfigError) as caught:
        parse_layout(data, "board.toml")
    strip = data["run"][0]["strip"]
    assert str(caught.value) == (f"board.toml: {entry} is not valid: it makes strip {strip} {length} LEDs long; "
                                 f"the controller drives at most {MAX_STRIP_LEDS} LEDs a strip")


def test_a_start_past_the_limit_is_refused_saying_what_is_accepted():
    with pytest.raises(ConfigError, match=rf"run\[0\].start = {MAX_STRIP_LEDS} is not valid: an integer 0-{MAX_STRIP_LEDS - 1}"):
        parse_layout(long_strip(start=MAX_STRIP_LEDS), "board.toml")


def test_a_layout_file_with_a_long_strip_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text('tracks = 2\n[[run]]\nstrip = 1\nleds = ["1:1-121", "skip 300", "2:1-121"]\n')
    before = path.read_bytes()
    with pytest.raises(ConfigError, match=rf"long.toml: run\[0\].leds\[2\] = '2:1-121' is not valid: it makes "
                                          rf"strip 1 542 LEDs long; the controller drives at most {MAX_STRIP_LEDS}"):
        load_layout(path)
    assert path.read_bytes() == before
