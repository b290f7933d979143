"""``cribpi install`` / ``cribpi uninstall``: the service's files, its user and a default
configuration put in place (or taken away) as a list of steps.

Each :class:`Step` says what it does in one line (``--dry-run`` prints them and does nothing)
and is skipped when its work is done already, so installing twice changes nothing. ``root``
is the file system's root: ``/`` on the Pi, a temporary folder in the tests. The files come
from this package (``cribpi/service/files``, linked from ``systemd/`` in the source); the
unit's ExecStart names the ``cribpi`` that runs the install, so the service runs the same
version. The user is made by ``systemd-sysusers`` from a sysusers.d file, and systemd and
udev are told to reload only on a live system (``root`` is ``/``).

Uninstall takes away what install put in place, except the journal and a configuration that
was edited: games are never deleted by an uninstall.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from cribpi.exc import CribpiError

__all__ = ["Step", "install_steps", "uninstall_steps", "run_steps", "InstallError", "UNITS", "cribpi_executable",
           "check_can_install", "UNIT_DIR", "RULES", "CONFIG", "SYSUSERS", "STATE_DIR", "service_status"]

UNIT_DIR = "etc/systemd/system"
UNITS = ("cribpi.service", "cribpi-backup.service", "cribpi-backup.timer")
ENABLED = ("cribpi.service", "cribpi-backup.timer")
WANTED_BY = {"multi-user.target.wants": "cribpi.service", "timers.target.wants": "cribpi-backup.timer"}
RULES = "etc/udev/rules.d/60-cribpi.rules"
CONFIG = "etc/cribpi/cribpi.toml"
SYSUSERS = "etc/sysusers.d/cribpi.conf"
STATE_DIR = "var/lib/cribpi"
SHIPPED_EXEC = "/opt/cribpi/bin/cribpi"
SYSUSERS_TEXT = """\
# The cribpi service's own user (cribpi install). Its groups reach the GPIO chip, the I2C bus,
# the controller's serial port and the sound cards (the speaker).
u cribpi - "cribpi cribbage board" /var/lib/cribpi /usr/sbin/nologin
m cribpi gpio
m cribpi i2c
m cribpi dialout
m cribpi audio
"""


class InstallError(CribpiError):
    """A step that could not be done (not root, a command that failed)."""

    exit_code = 1


@dataclass(frozen=True)
class Step:
    """One thing install or uninstall does: ``text`` for --dry-run, ``done`` to skip it."""

    text: str
    act: Callable[[], None]
    done: Callable[[], bool] = lambda: False
    #: When set, a failure is a warning with these words and the next steps go on.
    soft: str = ""


def cribpi_executable() -> Path:
    """The ``cribpi`` script beside the running interpreter (the venv's own)."""
    return Path(sys.executable).parent / "cribpi"


def _shipped(name: str) -> str:
    return resources.files("cribpi.service").joinpath("files", name).read_text(encoding="utf-8")


def _unit_text(name: str, executable: Path) -> str:
    return _shipped(name).replace(SHIPPED_EXEC, str(executable))


def _write(path: Path, text: str, mode: int = 0o644) -> Step:
    def act() -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        path.chmod(mode)

    return Step(f"write {path}", act, lambda: path.is_file() and path.read_text(encoding="utf-8") == text)


#: How long a command may take before install says it hung (a start waits for READY=1, which the
#: unit's TimeoutStartSec=90 bounds, after the old process's stop, bounded by TimeoutStopSec=20).
COMMAND_TIMEOUT_S = 60.0
RESTART_TIMEOUT_S = 120.0


def _command(argv: Sequence[str], done: Callable[[], bool] = lambda: False, soft: str = "",
             timeout: float | None = None, hung: str = "") -> Step:
    """A command as a step; one that has not returned after ``timeout`` s (by default
    ``COMMAND_TIMEOUT_S``) is killed and the install stops saying so (``hung``: what to look at then)."""
    def act() -> None:
        limit = COMMAND_TIMEOUT_S if timeout is None else timeout
        try:
            result = subprocess.run(list(argv), capture_output=True, text=True, timeout=limit)
        except OSError as exc:  # the tool itself is missing
            raise InstallError(f"`{shlex.join(argv)}` failed: {exc.strerror or exc}") from None
        except subprocess.TimeoutExpired:
            raise InstallError(f"`{shlex.join(argv)}` hung: no answer after {limit:g} s"
                               + (f"; {hung}" if hung else "")) from None
        if result.returncode != 0:
            why = (result.stderr or result.stdout).strip().splitlines()
            raise InstallError(f"`{shlex.join(argv)}` failed: {why[-1] if why else f'exit {result.returncode}'}")

    return Step(shlex.join(argv), act, done, soft)


#: Where udevd does not run (a container, a chroot), the rule is read when udev next starts.
UDEV_LATER = "the udev rule takes effect at the next boot or when the controller is plugged in"


def _user_exists(root: Path) -> bool:
    passwd = root / "etc/passwd"
    return passwd.is_file() and any(line.startswith("cribpi:") for line in passwd.read_text().splitlines())


def install_steps(root: Path, executable: Path | None = None) -> list[Step]:
    """Everything ``cribpi install`` does, in order."""
    executable = executable or cribpi_executable()
    live = root == Path("/")
    steps = [_write(root / UNIT_DIR / name, _unit_text(name, executable)) for name in UNITS]
    steps.append(_write(root / RULES, _shipped("60-cribpi.rules")))
    config = root / CONFIG
    steps.append(Step(f"write {config} (a default configuration; an existing one is kept)",
                      lambda: _write(config, _shipped("cribpi.toml")).act(), config.exists))
    steps.append(_write(root / SYSUSERS, SYSUSERS_TEXT))
    sysusers = ["systemd-sysusers", *([] if live else [f"--root={root}"]), Path(SYSUSERS).name]
    steps.append(_command(sysusers, lambda: _user_exists(root)))
    if live:
        steps += [_command(["systemctl", "daemon-reload"]),
                  _command(["udevadm", "control", "--reload-rules"], soft=UDEV_LATER),
                  _command(["udevadm", "trigger", "--subsystem-match=tty"], soft=UDEV_LATER),
                  _command(["systemctl", "enable", *ENABLED]),
                  _command(["systemctl", "start", "cribpi-backup.timer"]),
                  # one start of the table: restart starts it on a fresh install, and runs the
                  # new version after an update
                  _command(["systemctl", "restart", "cribpi.service"], timeout=RESTART_TIMEOUT_S,
                           hung="see why with `systemctl status cribpi` and `journalctl -u cribpi`")]
    else:
        steps.append(_command(["systemctl", f"--root={root}", "enable", *ENABLED], lambda: _enabled(root)))
    return steps


def _enabled(root: Path) -> bool:
    """Both units linked from their targets (what ``systemctl enable`` does)."""
    wants = root / UNIT_DIR
    return all((wants / target / unit).is_symlink() for target, unit in WANTED_BY.items())


def uninstall_steps(root: Path) -> list[Step]:
    """Everything ``cribpi uninstall`` does: install's steps reversed, the journal kept."""
    live = root == Path("/")
    systemctl = ["systemctl", *([] if live else [f"--root={root}"])]
    steps = [_command([*systemctl, "disable", *(["--now"] if live else []), *ENABLED],
                      lambda: not (root / UNIT_DIR / "cribpi.service").exists())]
    steps += [_remove(root / UNIT_DIR / name) for name in UNITS]
    steps += [_remove(root / RULES), _remove(root / SYSUSERS)]
    default = root / CONFIG
    steps.append(Step(f"remove {default} if it is still the default (an edited one is kept)",
                      lambda: default.unlink(), lambda: not default.exists() or default.read_text() != _shipped("cribpi.toml")))
    userdel = ["userdel", *([] if live else [f"--root={root}"]), "cribpi"]
    steps.append(_command(userdel, lambda: not _user_exists(root)))
    if live:
        steps.append(_command(["systemctl", "daemon-reload"]))
    return steps


def _remove(path: Path) -> Step:
    return Step(f"remove {path}", path.unlink, lambda: not path.exists())


def run_steps(steps: Sequence[Step], *, dry_run: bool, say: Callable[[str], None]) -> int:
    """Do (or with ``dry_run`` only print) each step not done yet; returns how many were done."""
    count = 0
    for step in steps:
        if step.done():
            say(f"ok      {step.text} (already done)")
            continue
        say(f"{'would' if dry_run else 'doing':7} {step.text}")
        if not dry_run:
            try:
                step.act()
            except InstallError as exc:
                if not step.soft:
                    raise
                say(f"warning {exc}: {step.soft}; going on")
                continue
            count += 1
    return count


def service_status(run: Callable[[list[str]], str] | None = None) -> str:
    """What ``systemctl status cribpi`` would say of the service, in one line: its state and
    its own STATUS= (the game and the score, or the parts it is retrying)."""
    def systemctl(argv: list[str]) -> str:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        return done.stdout

    shown = (run or systemctl)(["systemctl", "show", "--property=ActiveState,SubState,StatusText", "cribpi.service"])
    fields = dict(line.partition("=")[::2] for line in shown.splitlines())
    state = "/".join(filter(None, (fields.get("ActiveState"), fields.get("SubState")))) or "unknown"
    status = fields.get("StatusText", "")
    line = f"the service is {state}" + (f": {status}" if status else "")
    if (state != "active/running" or status.startswith("degraded")) and "cribpi doctor" not in status:
        line += "; check the parts with `sudo cribpi doctor`, see the log with `journalctl -u cribpi`"
    return line


def check_can_install(root: Path, executable: Path, dry_run: bool) -> None:
    """Installing on the live system needs root and systemd; a --root folder or --dry-run
    needs neither. The service cannot run a cribpi from a home folder (ProtectHome=yes)."""
    if root == Path("/") and (executable.is_relative_to("/home") or executable.is_relative_to("/root")):
        raise InstallError(f"{executable} is in a home folder, which the service cannot see (ProtectHome=yes): "
                           "install cribpi in /opt/cribpi as docs/install.md shows")
    if root == Path("/") and not dry_run and os.geteuid() != 0:
        raise InstallError("cribpi install changes /etc and adds a user: run it as root (sudo), "
                           "or look first with --dry-run")
    if not dry_run:
        for tool in ("systemctl", "systemd-sysusers"):
            if shutil.which(tool) is None:
                raise InstallError(f"{tool} is not installed: cribpi's service needs systemd (apt install systemd)")
