"""Flashing: the files mpremote is asked to copy (every firmware file and the layout generated
for the board), then the version check against the firmware that comes up."""

import pytest

from cribpi.exc import HardwareError
from cribpi.hal.controller import flash as flashing
from cribpi.hal.layout import load_layout
from tests.firmware import rig

FOUR = rig.ROOT / "hardware" / "layouts" / "four-track-serpentine.toml"


def test_flash_copies_the_firmware_and_the_boards_layout_then_checks_the_version(tmp_path, monkeypatch):
    pico = rig.Pico(tmp_path)
    calls = []

    def mpremote(port, *args):
        copied = {a.rsplit("/", 1)[-1]: open(a).read() for a in args if a.endswith(".py")}
        calls.append((port, args, copied))

    monkeypatch.setattr(flashing, "_mpremote", mpremote)
    monkeypatch.setattr(flashing, "_to_repl", lambda port: calls.append(("REPL", port)))  # test_pico_flash runs it
    try:
        version = flashing.flash(pico.port, load_layout(FOUR), rig.FIRMWARE)
    finally:
        pico.close()
    assert version == "2.2.0"
    assert calls[0] == ("REPL", pico.port)
    (port, args, copied), = calls[1:]
    assert port == pico.port and args[-1] == "reset" and args.count("cp") == len(copied)
    assert set(copied) == {p.name for p in rig.FIRMWARE.glob("*.py")}
    assert copied["layout.py"] == flashing.layout_module(load_layout(FOUR))
    lengths = load_layout(FOUR).strip_lengths
    assert f"STRIPS = ({lengths[0]}, {lengths[1]},)" in copied["layout.py"] and sum(lengths.values()) == 504


def test_flash_refuses_a_folder_without_the_firmware(tmp_path):
    with pytest.raises(HardwareError, match="no main.py: point --firmware at cribpi's firmware/ folder"):
        flashing.flash("/dev/null", load_layout(FOUR), tmp_path)


def test_a_bad_layout_is_one_line_and_exit_2(capsys):
    assert flashing.main(["--port", "/dev/null", "--layout", "no-such.toml"]) == 2
    assert capsys.readouterr().err == "cribpi flash: no-such.toml: no such layout file\n"


def test_cribpi_flash_defaults_to_the_checkouts_firmware():
    assert flashing.FIRMWARE == rig.FIRMWARE.resolve() and (flashing.FIRMWARE / "main.py").is_file()


def test_flash_without_mpremote_says_how_to_install_it(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mpremote" else real(name, *a))
    with pytest.raises(HardwareError, match=r"flashing needs mpremote: .*cribpi\[controller\]"):
        flashing._mpremote("/dev/ttyACM0", "reset")
