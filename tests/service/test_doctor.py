"""``cribpi doctor``: each check passes and fails on doubles of the machine (a folder for /dev,
a controller that answers or not, the groups, the free disk) and on real journals."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cribpi.config import Config, OledConfig, PartsConfig
from cribpi.exc import ConfigError, HardwareError
from cribpi.game import NewGame
from cribpi.rules import get_rules
from cribpi.service.doctor import GROUPS, Probes, checks, report
from cribpi.store import Store

ROOT = Path(__file__).parents[2]


@pytest.fixture
def machine(tmp_path):
    """A Pi as it should be: /dev with the I2C bus and the GPIO chip, every group, room on disk."""
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "i2c-1").touch()
    (dev / "gpiochip0").touch()
    calls: list[str | None] = []

    def controller(port):
        calls.append(port)
        return "firmware 2.0.0, protocol 2.0"

    probes = Probes(dev=dev, i2c_answers=lambda bus, address: address == 0x3C, controller=controller,
                    groups=lambda: set(GROUPS), free_bytes=lambda path: 2_000_000_000,
                    model=lambda: "Raspberry Pi 4 Model B Rev 1.4", euid=lambda: 1000, caller=lambda: "ann",
                    group_exists=lambda name: True, user_exists=lambda name: True)
    probes.calls = calls
    return probes


def config(tmp_path, **changes) -> Config:
    wanted = dict(db=tmp_path / "state" / "cribpi.db", backend="pi", controller_port="/dev/cribpi-controller",
                  parts=PartsConfig(inputs=("pi", "controller"), pegboard="controller"))
    return Config(**{**wanted, **changes})


def lines(cfg, probes) -> dict[str, tuple[bool, str]]:
    return {c.what: (c.ok, c.line()) for c in checks(lambda: cfg, probes)}


def test_a_healthy_pi_passes_every_check(tmp_path, machine):
    got = lines(config(tmp_path), machine)
    assert all(ok for ok, _ in got.values()), got
    assert list(got) == ["configuration", "I2C bus 1", "OLED at 0x3c", "GPIO chip", "controller (/dev/cribpi-controller)",
                         "groups", "journal writable", "free disk"]
    assert got["controller (/dev/cribpi-controller)"][1].endswith("firmware 2.0.0, protocol 2.0")
    assert all(line.startswith("✓ ") for _, line in got.values())


def test_i2c_not_enabled(tmp_path, machine):
    (machine.dev / "i2c-1").unlink()
    ok, line = lines(config(tmp_path), machine)["I2C bus 1"]
    assert not ok and line.startswith("✗ ") and "raspi-config nonint do_i2c 0" in line and "400000" in line


def test_the_oled_does_not_answer_at_its_address(tmp_path, machine):
    ok, line = lines(config(tmp_path, oled=OledConfig(address=0x3D)), machine)["OLED at 0x3d"]
    assert not ok and "no answer" in line and "i2cdetect -y 1" in line


def test_the_i2c_bus_cannot_be_opened(tmp_path, machine):
    def refused(bus, address):
        raise PermissionError(13, "Permission denied")

    machine.i2c_answers = refused
    ok, line = lines(config(tmp_path), machine)["OLED at 0x3c"]
    assert not ok and "Permission denied" in line and "i2c group" in line


def test_no_gpio_chip(tmp_path, machine):
    (machine.dev / "gpiochip0").unlink()
    ok, line = lines(config(tmp_path), machine)["GPIO chip"]
    assert not ok and "gpiochip" in line


def test_the_controller_is_not_found(tmp_path, machine):
    def missing(port):
        raise HardwareError("controller not found: retrying")

    machine.controller = missing
    ok, line = lines(config(tmp_path), machine)["controller (/dev/cribpi-controller)"]
    assert not ok and "not found" in line and "flash" in line


def test_the_controller_fix_is_a_command_that_works_as_printed_from_an_installed_cribpi(tmp_path, machine,
                                                                                     monkeypatch):
    """The fix names `cribpi flash` as the guide runs it; parsed by cribpi's own parser, with
    the layout file put where it says, it needs no --firmware: an installed cribpi (no checkout
    beside its package) finds the firmware its wheel put in <venv>/share/cribpi/firmware."""
    import shlex

    import cribpi.hal.controller.flash as flash
    from cribpi.cli import build_parser
    from cribpi.service.doctor import flash_fix

    def missing(port):
        raise HardwareError("controller not found: retrying")

    machine.controller = missing
    fix = next(c for c in checks(lambda: config(tmp_path), machine) if c.what.startswith("controller")).fix
    commands = re.findall(r"`([^`]+)`", fix)
    assert "sudo systemctl stop cribpi" in commands
    (printed,) = [c for c in commands if c.startswith("cribpi flash")]
    home = tmp_path / "home"
    layout = home / "cribpi" / "hardware" / "layouts" / "four-track-serpentine.toml"
    layout.parent.mkdir(parents=True)
    layout.write_text((ROOT / "hardware" / "layouts" / "four-track-serpentine.toml").read_text())
    argv = shlex.split(printed.replace("$HOME", str(home)).replace("BOARD", "four-track-serpentine"))
    assert argv[:2] == ["cribpi", "flash"]
    args = build_parser("flash").parse_args(argv[1:])
    assert args.layout == layout and args.firmware is None and args.port is None
    # installed: no firmware/ beside the package, the wheel's copy in the venv's data folder
    venv = tmp_path / "venv"
    shared = venv / "share" / "cribpi" / "firmware"
    shared.mkdir(parents=True)
    for source in (ROOT / "firmware").glob("*.py"):
        (shared / source.name).write_text(source.read_text())
    monkeypatch.setattr(flash, "FIRMWARE", tmp_path / "site-packages" / "firmware")
    monkeypatch.setattr(flash.sysconfig, "get_path", lambda name, scheme=None: str(venv))
    assert flash.default_firmware() == shared
    monkeypatch.setattr(flash.sysconfig, "get_path", lambda name, scheme=None: str(tmp_path / "elsewhere"))
    monkeypatch.setattr(flash.sys, "prefix", str(tmp_path / "elsewhere"))
    with pytest.raises(HardwareError, match="not installed with this cribpi.*--firmware"):
        flash.default_firmware()
    # mpremote missing: the fix says what to install, into the venv cribpi runs from
    without = flash_fix(mpremote=False)
    pip = next(c for c in re.findall(r"`([^`]+)`", without) if "pip install" in c)
    assert shlex.split(pip)[-2:] == ["install", "mpremote>=1.22"]
    assert shlex.split(pip)[-3].endswith("/pip") and Path(shlex.split(pip)[-3]).parent == Path(sys.executable).parent
    monkeypatch.setattr(flash.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(HardwareError, match=r"needs mpremote.*pip install 'mpremote>=1.22'"):
        flash.check_mpremote()


def test_the_wheel_carries_the_firmware_cribpi_flash_copies():
    """pyproject.toml puts firmware/*.py into the environment's share/cribpi/firmware, where
    default_firmware looks (the built wheel is checked by the guide's walk-through)."""
    import tomllib

    from cribpi.hal.controller.flash import SHARED

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    assert data[str(SHARED)] == ["firmware/*.py"]
    assert (ROOT / "firmware" / "main.py").is_file()


def test_a_configuration_without_a_controller_does_not_look_for_one(tmp_path, machine):
    got = lines(Config(db=tmp_path / "cribpi.db", backend="pi"), machine)
    assert got["controller"] == (True, "✓ controller: not used by this configuration")
    assert machine.calls == []


def test_missing_groups(tmp_path, machine):
    machine.groups = lambda: {"pi", "gpio"}
    ok, line = lines(config(tmp_path), machine)["groups"]
    assert not ok and "ann is not in i2c, dialout" in line and "`sudo usermod -aG i2c,dialout ann`" in line


def test_root_needs_no_groups_and_is_never_told_to_usermod_itself(tmp_path, machine):
    machine.groups, machine.euid = (lambda: {"root"}), (lambda: 0)
    ok, line = lines(config(tmp_path), machine)["groups"]
    assert ok and "usermod" not in line and "$USER" not in line


def test_a_group_that_does_not_exist_is_not_prescribed(tmp_path, machine):
    machine.groups = lambda: {"ann", "dialout"}
    machine.group_exists = lambda name: name == "dialout"
    ok, line = lines(config(tmp_path), machine)["groups"]
    assert not ok and "no such group on this machine" in line and "usermod" not in line


SHIPPED_UNIT = (Path(__file__).parents[2] / "cribpi" / "service" / "files" / "cribpi.service").read_text()


@pytest.fixture
def service(tmp_path, monkeypatch):
    """The service installed with its configuration in tmp_path; doctor run as `sudo` by ann would run it."""
    from cribpi.service import unit as unit_module

    conf = tmp_path / "etc-cribpi" / "cribpi.toml"
    conf.parent.mkdir()
    conf.write_text('backend = "mock"\n')
    installed = tmp_path / "cribpi.service"
    installed.write_text(SHIPPED_UNIT.replace("CRIBPI_CONFIG=/etc/cribpi/cribpi.toml", f"CRIBPI_CONFIG={conf}"))
    monkeypatch.setattr(unit_module, "INSTALLED", str(installed))  # absolute: replaces the root it is joined to
    for name, value in {"HOME": "/root", "SUDO_USER": "ann", "CRIBPI_DB": "/root/games.db"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    return conf


def test_under_sudo_the_services_configuration_is_checked_as_the_service_sees_it(service, machine):
    from cribpi.service.unit import service_for

    unit = service_for(service)
    assert unit is not None and unit.user == "cribpi" and unit.groups == ("gpio", "i2c", "dialout", "audio")
    machine.euid, machine.groups = (lambda: 0), (lambda: {"root"})
    got = {c.what: c for c in checks(lambda: unit.load(service), machine, service=unit)}
    assert got["journal writable"].found.startswith("/var/lib/cribpi/cribpi.db")
    assert "groups" not in got  # root's own groups say nothing of the service's
    assert got["service user cribpi"].ok and "gpio i2c dialout" in got["service user cribpi"].found
    machine.group_exists = lambda name: name != "i2c"
    line = next(c for c in checks(lambda: unit.load(service), machine, service=unit) if c.what.startswith("service"))
    assert not line.ok and "i2c" in line.found and "cannot start" in line.found
    assert service_for(service.parent / "other.toml") is None  # another file: the caller's own view


def test_doctor_and_config_check_under_sudo_name_the_services_journal(service, capsys):
    from cribpi.cli import main

    assert main(["config", "--check", str(service)]) == 0
    out = capsys.readouterr().out
    assert "journal /var/lib/cribpi/cribpi.db (the service's)" in out and "/root" not in out
    main(["doctor", "--config", str(service)])
    out = capsys.readouterr().out
    assert "journal writable: /var/lib/cribpi/cribpi.db" in out and "/root" not in out, out


def test_off_a_pi_the_pi_checks_are_left_out_and_the_simulator_needs_none(tmp_path, machine):
    machine.model = lambda: None
    machine.euid, machine.caller = (lambda: 0), (lambda: "root")
    machine.groups, machine.group_exists = (lambda: {"root"}), (lambda name: False)
    got = lines(Config(db=tmp_path / "cribpi.db", backend="mock"), machine)
    assert list(got) == ["configuration", "machine", "controller", "journal writable", "free disk"]
    ok, line = got["machine"]
    assert ok and "not a Raspberry Pi" in line and "cribpi sim" in line and "raspi-config" not in line
    said: list[str] = []
    assert report(checks(lambda: Config(db=tmp_path / "cribpi.db", backend="pi"), machine), said.append) is False
    text = "\n".join(said)
    assert "raspi-config" not in text and "usermod" not in text and "$USER" not in text
    assert "uses the Pi's own parts" in text and "cribpi sim" in text


def test_off_a_pi_under_sudo_no_groups_line_is_printed_unless_the_service_cannot_start(service, machine):
    """The machine line says the groups checks are left out: so no groups line follows it, but
    for a unit whose user or groups do not exist (systemd would not start it)."""
    from cribpi.service.unit import service_for

    unit = service_for(service)
    machine.model, machine.euid, machine.groups = (lambda: None), (lambda: 0), (lambda: {"root"})
    got = {c.what: c for c in checks(lambda: unit.load(service), machine, service=unit)}
    assert "left out" in got["machine"].found and "groups" in got["machine"].found
    assert not [what for what in got if "group" in what or what.startswith("service user")], list(got)
    assert not [c.found for c in got.values() if "SupplementaryGroups" in c.found]
    machine.group_exists = lambda name: name != "gpio"
    got = {c.what: c for c in checks(lambda: unit.load(service), machine, service=unit)}
    line = got["service user cribpi"]
    assert not line.ok and "gpio" in line.found and "cannot start" in line.found
    assert "usermod" not in line.line() and "raspi-config" not in line.line()


def test_a_sound_journal_and_a_damaged_one(tmp_path, machine):
    cfg = config(tmp_path)
    cfg.db.parent.mkdir()
    with Store(cfg.db) as store:
        store.new_game(NewGame(("Ann", "Bob"), get_rules("acc")), table="main")
    assert lines(cfg, machine)["journal sound"] == (True, "✓ journal sound: integrity_check, WAL and 1 events' checksums ok")
    import sqlite3  # an event changed behind the journal's back: integrity_check sees nothing wrong
    with sqlite3.connect(cfg.db) as conn:
        conn.execute("UPDATE events SET data = replace(data, 'Bob', 'Rob')")
    ok, line = lines(cfg, machine)["journal sound"]
    assert not ok and "checksum" in line and "backup" in line
    cfg.db.write_bytes(b"this is not SQLite" * 300)
    for suffix in ("-wal", "-shm"):
        Path(f"{cfg.db}{suffix}").unlink(missing_ok=True)
    ok, line = lines(cfg, machine)["journal sound"]
    assert not ok and "not a cribpi game journal" in line and "backup" in line


def test_a_journal_folder_that_cannot_be_written(tmp_path, machine):
    cfg = config(tmp_path, db=Path("/proc/cribpi/cribpi.db"))
    ok, line = lines(cfg, machine)["journal writable"]
    assert not ok and "/proc/cribpi/cribpi.db cannot be written" in line


def test_a_full_disk(tmp_path, machine):
    machine.free_bytes = lambda path: 10_000_000
    ok, line = lines(config(tmp_path), machine)["free disk"]
    assert not ok and "10 MB" in line and "free at least 50 MB" in line


def test_a_broken_configuration_is_the_only_line(tmp_path, machine):
    def broken():
        raise ConfigError("cribpi.toml: oled.driver = 'ssd9999' is not valid: ssd1306 or sh1106")

    said: list[str] = []
    assert not report(checks(broken, machine), said.append)
    assert len(said) == 1 and said[0].startswith("✗ configuration: ") and "oled.driver" in said[0]


def test_the_command_exits_1_on_a_failed_check(tmp_path):
    bad = tmp_path / "cribpi.toml"
    bad.write_text("[oled]\ndriver = 'ssd9999'\n")
    done = subprocess.run([sys.executable, "-m", "cribpi", "doctor", "--config", str(bad)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0].startswith("✗ configuration:") and "driver" in done.stdout


def test_a_backups_folder_root_made_is_named_with_the_command_that_gives_it_back(tmp_path, machine):
    import os
    import pwd

    from cribpi.service.unit import ServiceUnit

    me = pwd.getpwuid(os.geteuid()).pw_name
    state = tmp_path / "state"
    (state / "backups").mkdir(parents=True)
    cfg = config(tmp_path, db=state / "cribpi.db")
    unit = ServiceUnit("a unit", None, "cribpi-nobody-has-this", ("gpio",), state)
    got = {c.what: c for c in checks(lambda: cfg, machine, service=unit)}
    assert not got["backups folder"].ok and f"belongs to {me}" in got["backups folder"].found
    assert got["backups folder"].fix == f"`sudo chown -R cribpi-nobody-has-this: {state / 'backups'}`"
    mine = ServiceUnit("a unit", None, me, ("gpio",), state)
    assert {c.what: c.ok for c in checks(lambda: cfg, machine, service=mine)}["backups folder"]
