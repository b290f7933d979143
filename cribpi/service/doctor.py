"""``cribpi doctor``: what a maker gets wrong, checked one line at a time, each failure with its
fix. The checks look at the machine through :class:`Probes`, so each is tested with doubles
(a folder standing in for /dev, a controller that answers or not) and runs for real on a Pi.

Checking the service's configuration, the checks take the service's view (its unit,
:mod:`cribpi.service.unit`): its journal in its state directory and its user's groups, whoever
runs the doctor (``sudo`` included). Off a Raspberry Pi the Pi's own checks (I2C, the OLED,
GPIO, the groups) are left out, saying so, and that ``cribpi sim`` needs none of them.
"""

from __future__ import annotations

import fcntl
import grp
import logging
import os
import pwd
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cribpi.config import Config
from cribpi.exc import CribpiError
from cribpi.service.unit import ServiceUnit

__all__ = ["Check", "Probes", "checks", "report", "GROUPS", "MIN_FREE_MB"]

GROUPS = ("gpio", "i2c", "dialout")
MIN_FREE_MB = 50
I2C_SLAVE = 0x0703  # linux/i2c-dev.h: address the next reads and writes to this device
ENABLE_I2C = ("enable I2C at 400 kHz: `sudo raspi-config nonint do_i2c 0`, and "
              "dtparam=i2c_arm_baudrate=400000 in /boot/firmware/config.txt, then reboot")


@dataclass(frozen=True)
class Check:
    """One line of the report: ``ok``, what was checked, what was found, and the fix if not ok."""

    ok: bool
    what: str
    found: str = ""
    fix: str = ""

    def line(self) -> str:
        mark = "✓" if self.ok else "✗"
        text = f"{mark} {self.what}" + (f": {self.found}" if self.found else "")
        return text + (f" (fix: {self.fix})" if not self.ok and self.fix else "")


def i2c_answers(device: Path, address: int) -> bool:
    """True when a chip acknowledges ``address`` on the bus ``device`` (a one-byte read, as
    ``i2cdetect -r`` does; an SSD1306 or SH1106 answers with its status byte)."""
    fd = os.open(device, os.O_RDWR)
    try:
        fcntl.ioctl(fd, I2C_SLAVE, address)
        os.read(fd, 1)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def controller_version(port: str | None, wait_s: float = 3.0) -> str:
    """The firmware version the controller gives in its HELLO; HardwareError if it does not."""
    from cribpi.exc import HardwareError
    from cribpi.hal.controller import Link

    logging.getLogger("cribpi.hal.controller").setLevel(logging.CRITICAL)  # the check's line says it all
    link = Link(port)
    try:
        deadline = time.monotonic() + wait_s
        while link.hello is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if link.hello is None:
            raise HardwareError(link.problem or "no answer")
        return f"firmware {link.hello.firmware}, protocol {link.hello.protocol}"
    finally:
        link.close()


def _user_groups() -> set[str]:
    return {grp.getgrgid(gid).gr_name for gid in os.getgroups()} | {grp.getgrgid(os.getgid()).gr_name}


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _caller() -> str:
    """Who runs the doctor: the user behind ``sudo``, else the process's own user."""
    sudo_user = os.environ.get("SUDO_USER")
    if sudo_user and sudo_user != "root":
        return sudo_user
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def _model(files: tuple[str, ...] = ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model")) -> str | None:
    """The device tree's name for this machine ("Raspberry Pi 4 Model B Rev 1.4"), None without one."""
    for name in files:
        try:
            return Path(name).read_text(errors="replace").strip("\0\n ")
        except OSError:
            continue
    return None


@dataclass
class Probes:
    """How the checks see the machine; every field can be replaced by a test double."""

    dev: Path = Path("/dev")
    i2c_answers: Callable[[Path, int], bool] = i2c_answers
    controller: Callable[[str | None], str] = controller_version
    groups: Callable[[], set[str]] = _user_groups
    free_bytes: Callable[[Path], int] = field(default=lambda path: shutil.disk_usage(path).free)
    model: Callable[[], str | None] = _model
    euid: Callable[[], int] = os.geteuid
    caller: Callable[[], str] = _caller
    group_exists: Callable[[str], bool] = _group_exists
    user_exists: Callable[[str], bool] = _user_exists


def checks(load: Callable[[], Config], probes: Probes | None = None,
           service: ServiceUnit | None = None) -> Iterator[Check]:
    """Every check, in the order a maker fixes them: config, I2C and OLED, GPIO, controller,
    groups, journal, disk. ``load`` reads the configuration (its error is the first failure);
    ``service``: the configuration is the service's, checked as the service sees it."""
    probes = probes or Probes()
    try:
        config = load()
    except CribpiError as exc:
        yield Check(False, "configuration", str(exc), "correct what it names; `cribpi config --check FILE` checks it again")
        return
    whose = f" (the service's, as {service.source} runs it)" if service else ""
    yield Check(True, "configuration", str(config.path or "none: every default") + whose)
    model = probes.model()
    if model is None or "Raspberry Pi" not in model:
        yield _not_a_pi(config, model)
    else:
        yield from _i2c(config, probes)
        yield _gpio(probes)
    yield _controller(config, probes)
    if model is not None and "Raspberry Pi" in model:
        yield _service_groups(service, probes) if service else _groups(probes)
    elif service and not (check := _service_groups(service, probes, pi=False)).ok:
        yield check  # the groups' checks are left out off a Pi; a unit systemd cannot start is not
    yield from _journal(config.db, probes, service)


def _uses_pi_parts(config: Config) -> bool:
    backends = {config.backend, *config.parts.inputs, config.parts.pegboard,
                *(display.backend for display in config.parts.displays)}
    return "pi" in backends


def _not_a_pi(config: Config, model: str | None) -> Check:
    """Off a Pi: the Pi's checks do not apply; a configuration that wants the Pi's parts cannot work."""
    what = f"not a Raspberry Pi ({model})" if model else "not a Raspberry Pi (no device-tree model)"
    skipped = "the I2C, OLED, GPIO and groups checks apply to a Pi only and are left out"
    if _uses_pi_parts(config):
        return Check(False, "machine", f"{what}, but this configuration uses the Pi's own parts (backend \"pi\")",
                     "run it on a Raspberry Pi; here `cribpi sim` plays a table in the terminal and needs none "
                     "of the Pi's set-up, and backend = \"mock\" runs the service without parts")
    return Check(True, "machine", f"{what}: {skipped}; `cribpi sim` needs none of them")


def _i2c(config: Config, probes: Probes) -> Iterator[Check]:
    bus = probes.dev / f"i2c-{config.oled.port}"
    if not bus.exists():
        yield Check(False, f"I2C bus {config.oled.port}", f"{bus} is missing", ENABLE_I2C)
        return
    yield Check(True, f"I2C bus {config.oled.port}", str(bus))
    address = config.oled.address
    try:
        answers = probes.i2c_answers(bus, address)
    except OSError as exc:
        yield Check(False, f"OLED at {address:#04x}", f"cannot open {bus}: {exc.strerror or exc}",
                    "join the i2c group (see groups below)")
        return
    yield Check(answers, f"OLED at {address:#04x}", "answers" if answers else "no answer",
                "check SDA (GPIO2), SCL (GPIO3), 3V3 and GND; `i2cdetect -y "
                f"{config.oled.port}` shows the address to set as [oled] address")


def _gpio(probes: Probes) -> Check:
    chips = sorted(probes.dev.glob("gpiochip*"))
    if not chips:
        return Check(False, "GPIO chip", f"no {probes.dev}/gpiochip*", "this is not a Raspberry Pi, or its kernel is too old")
    readable = [c for c in chips if os.access(c, os.R_OK | os.W_OK)]
    if not readable:
        return Check(False, "GPIO chip", f"{chips[0]} is not readable", "join the gpio group (see groups below)")
    return Check(True, "GPIO chip", str(readable[0]))


def _controller(config: Config, probes: Probes) -> Check:
    if "controller" not in (*config.parts.inputs, config.parts.pegboard, config.backend):
        return Check(True, "controller", "not used by this configuration")
    where = config.controller_port or "found by USB id"
    try:
        version = probes.controller(config.controller_port)
    except (CribpiError, OSError) as exc:
        return Check(False, f"controller ({where})", str(exc), flash_fix())
    return Check(True, f"controller ({where})", version)


#: The command that flashes the Pico, as docs/install.md step 4 runs it (BOARD: the board's layout).
FLASH = 'cribpi flash --layout "$HOME/cribpi/hardware/layouts/BOARD.toml"'


def flash_fix(mpremote: bool | None = None) -> str:
    """What to do when the controller does not answer: stop the service (it holds the port),
    then flash, with mpremote installed first where it is missing (``mpremote``: None looks)."""
    import importlib.util

    from cribpi.hal.controller.flash import MPREMOTE, pip_install

    if mpremote is None:
        mpremote = importlib.util.find_spec("mpremote") is not None
    first = "" if mpremote else f"`{pip_install(MPREMOTE)}` (flashing needs mpremote), then "
    return ("plug the Pico in, stop the service, which holds the port (`sudo systemctl stop cribpi`), and flash it: "
            f"{first}`{FLASH}` with your board's layout file (BOARD: four-track-serpentine, say; docs/install.md step 4)")


def _groups(probes: Probes) -> Check:
    """The caller's groups, for running the table by hand (root needs none)."""
    if probes.euid() == 0:
        return Check(True, "groups", "root reaches the parts without them (the service has its own)")
    missing = [g for g in GROUPS if g not in probes.groups()]
    if not missing:
        return Check(True, "groups", ", ".join(GROUPS))
    absent = [g for g in missing if not probes.group_exists(g)]
    joinable = [g for g in missing if g not in absent]
    found = f"{probes.caller()} is not in {', '.join(missing)}"
    if absent:
        found += f" ({', '.join(absent)}: no such group on this machine)"
    if not joinable:
        return Check(False, "groups", found, "the groups come with Raspberry Pi OS: check this on the Pi")
    return Check(False, "groups", found, f"`sudo usermod -aG {','.join(joinable)} {probes.caller()}`, then log in "
                 "again (the service has them already)")


def _service_groups(service: ServiceUnit, probes: Probes, pi: bool = True) -> Check:
    """The service's user and its SupplementaryGroups= exist (systemd refuses to start it otherwise)."""
    what = f"service user {service.user or 'root'}"
    if service.user and not probes.user_exists(service.user):
        return Check(False, what, "no such user", "`sudo cribpi install` makes it")
    absent = [g for g in service.groups if not probes.group_exists(g)]
    if absent:
        return Check(False, what, f"the unit's groups {', '.join(absent)} do not exist: the service cannot start",
                     "`sudo cribpi install` makes them" if pi else "`sudo systemd-sysusers cribpi.conf` makes them")
    return Check(True, what, f"groups {' '.join(service.groups)} (SupplementaryGroups in {service.source})"
                 if service.groups else "no extra groups")


def _journal(db: Path, probes: Probes, service: ServiceUnit | None = None) -> Iterator[Check]:
    folder = next((p for p in (db.parent, *db.parents) if p.exists()), Path("/"))
    whose = " (the service's journal)" if service else ""
    if service and service.state_dir and db.is_relative_to(service.state_dir) and not service.state_dir.exists():
        yield Check(True, "journal writable", f"{db}{whose}: systemd makes {service.state_dir} when the service starts")
    elif not _can_write(folder) or (db.exists() and not os.access(db, os.W_OK)):
        fix = ("run the doctor as root (sudo) or as the service's user" if service
               else "run as the service's user, or set db in the configuration to a folder you own")
        yield Check(False, "journal writable", f"{db} cannot be written", fix)
    else:
        yield Check(True, "journal writable", f"{db}{whose}")
    if db.exists():
        yield _sound(db)
    if service and service.user and service.state_dir:
        yield from _backups_owned(service.state_dir / "backups", service.user)
    free = probes.free_bytes(folder)
    yield Check(free >= MIN_FREE_MB * 1_000_000, "free disk", f"{free // 1_000_000} MB on {folder}",
                f"free at least {MIN_FREE_MB} MB there: a full disk stops scores being saved")


def _backups_owned(folder: Path, user: str) -> Iterator[Check]:
    """The daily backup runs as the service's user: a backups folder root made (a backup taken
    with `sudo cribpi backup`) stops it for good."""
    try:
        owner_id = folder.stat().st_uid
    except OSError:
        return
    try:
        owner = pwd.getpwuid(owner_id).pw_name
    except KeyError:
        owner = str(owner_id)
    if owner != user:
        yield Check(False, "backups folder", f"{folder} belongs to {owner}: the daily backup, run as {user}, "
                    "cannot write there", f"`sudo chown -R {user}: {folder}`")
    else:
        yield Check(True, "backups folder", f"{folder}, the service's")


def _can_write(folder: Path) -> bool:
    """Really write there (a permission bit says nothing to root, nor of a read-only mount)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _sound(db: Path) -> Check:
    """The journal opened as a reader (``integrity_check``, the WAL's commits) and every event
    read back against its checksum: all that run and sim check at open, and more."""
    from cribpi.exc import StoreError
    from cribpi.store import Store

    try:
        with Store(db, read_only=True) as store:
            events = sum(len(store.events(row["id"])) for row in store.games())
    except (StoreError, sqlite3.Error) as exc:
        return Check(False, "journal sound", str(exc),
                     "restore the newest backup (docs/install.md, Backups), or move the file aside to start afresh")
    return Check(True, "journal sound", f"integrity_check, WAL and {events} events' checksums ok")


def report(results: Iterator[Check], say: Callable[[str], None]) -> bool:
    """Print each check's line; True when every check passed."""
    ok = True
    for check in results:
        say(check.line())
        ok = ok and check.ok
    return ok
