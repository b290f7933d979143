"""docs/install.md: every command it shows is run here, in order, in a scratch folder standing
in for ``/`` (the paths it names are moved there), or is printed by ``cribpi install
--dry-run`` / ``cribpi uninstall --dry-run``, which the service tests run against a root."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from service_tools import require

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs" / "install.md"
#: Packages only Raspberry Pi OS's archive has (checked on a Pi, where .ci/bootstrap installs them).
PI_ONLY = {"python3-lgpio"}
#: Paths of the Pi that the walk-through moves into its scratch root.
MOVED = ("/opt/cribpi", "/boot/firmware", "/etc/modules-load.d", "/usr/local/bin", "/var/lib/cribpi", "/etc/cribpi")


def doc_commands() -> list[str]:
    """The commands of every ```sh block, ``sudo`` taken off (the tests run as they are)."""
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(), re.S)
    lines = [line.strip() for block in blocks for line in block.splitlines()]
    return [re.sub(r"(^|\| )sudo ", r"\1", line) for line in lines if line and not line.startswith("#")]


def dry_run_commands() -> set[str]:
    said = set()
    for command in ("install", "uninstall"):
        done = subprocess.run([sys.executable, "-m", "cribpi", command, "--dry-run"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        said |= {re.sub(r"^(would|ok)\s+| \(already done\)$", "", line) for line in done.stdout.splitlines()}
    return said


def sandboxed(command: str, scratch: Path) -> tuple[str, set[int]]:
    """The command as the walk-through runs it, and the exit codes that count as run."""
    if command == "apt update":
        return "apt-get --print-uris update", {0}
    if command.startswith("apt install -y "):
        packages = [p for p in command.split()[3:] if p not in PI_ONLY]
        return f"apt-get install --simulate {' '.join(packages)}", {0}
    if command.startswith("journalctl "):
        return f"{command} --no-pager", {0, 1}  # no journal at all in a container: still run
    if command.startswith("cribpi doctor"):
        return _moved(command, scratch), {0, 1}  # this machine is no Pi: checks fail, the command runs
    if command == "systemctl start cribpi-backup.service":  # what it runs (the container test starts it for real)
        return _moved("cribpi backup --db /var/lib/cribpi/cribpi.db --keep 14", scratch), {0}
    if command in ("cribpi install", "cribpi uninstall"):
        return f"{command} --root {scratch / 'root'}", {0}
    return _moved(command, scratch), {0}


def _moved(command: str, scratch: Path) -> str:
    for path in MOVED:
        target = scratch / "root" / path.lstrip("/")
        if path == "/etc/cribpi":
            target = scratch / "root" / "etc" / "cribpi"
        command = command.replace(path, str(target))
    return command


def test_every_command_of_the_guide_is_run_by_the_walk_through_or_by_install_dry_run():
    commands = doc_commands()
    assert len(commands) >= 15
    printed = dry_run_commands()
    assert "systemctl enable cribpi.service cribpi-backup.timer" in printed
    assert "systemctl restart cribpi.service" in printed and "--now" not in printed
    for command in commands:
        runs = command.split()[0] in ("apt", "echo", "python3", "/opt/cribpi/bin/pip", "ln", "git", "ls",
                                      "journalctl", "cribpi")
        runs = runs or command == "systemctl start cribpi-backup.service"
        assert runs or command in printed, f"docs/install.md shows `{command}`, which nothing runs"


@pytest.mark.slow
@pytest.mark.service
def test_the_guide_walked_through_in_a_scratch_root(tmp_path):
    """The whole guide in order: packages (simulated), I2C, the venv with pip, install, doctor,
    logs, an update, a backup, uninstall."""
    require("apt-get"), require("systemd-sysusers"), require("systemctl"), require("git")
    home = tmp_path / "home"
    home.mkdir()
    subprocess.run(["git", "clone", "-q", str(ROOT), str(home / "cribpi")], check=True)
    for path in MOVED:
        (tmp_path / "root" / path.lstrip("/")).mkdir(parents=True, exist_ok=True)
    bin_dir = Path(sys.executable).parent  # `cribpi` as the checkout's venv has it
    env = {**os.environ, "HOME": str(home), "PATH": f"{bin_dir}:{os.environ['PATH']}", "CRIBPI_DB": ""}
    for command in doc_commands():
        if command == "systemctl start cribpi-backup.service":  # a journal with a game in it, where the service keeps it
            _journal(tmp_path / "root" / "var/lib/cribpi/cribpi.db")
        line, accepted = sandboxed(command, tmp_path)
        done = subprocess.run(["bash", "-c", line], env=env, capture_output=True, text=True, timeout=600,
                              cwd=tmp_path)
        assert done.returncode in accepted, f"`{line}`: {done.stdout}{done.stderr}"
    config = (tmp_path / "root/boot/firmware/config.txt").read_text()
    assert "dtparam=i2c_arm=on,i2c_arm_baudrate=400000" in config
    assert (tmp_path / "root/usr/local/bin/cribpi").resolve() == (tmp_path / "root/opt/cribpi/bin/cribpi")
    # the installed package flashes with no --firmware: the wheel put the firmware in the venv
    venv = tmp_path / "root/opt/cribpi"
    found = subprocess.run([str(venv / "bin/python"), "-c", "from cribpi.hal.controller.flash import default_firmware;"
                            " print(default_firmware())"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert Path(found.stdout.strip()) == venv / "share/cribpi/firmware", found.stdout + found.stderr
    assert {p.name for p in (venv / "share/cribpi/firmware").glob("*.py")} == {p.name for p in (ROOT / "firmware").glob("*.py")}
    assert len(list((tmp_path / "root/var/lib/cribpi/backups").iterdir())) == 1
    assert not (tmp_path / "root/etc/systemd/system/cribpi.service").exists()  # uninstalled at the end
    assert (tmp_path / "root/var/lib/cribpi/cribpi.db").exists()  # but the games stay


def _journal(db: Path) -> None:
    from cribpi.game import NewGame
    from cribpi.rules import get_rules
    from cribpi.store import Store

    if not db.exists():
        with Store(db) as store:
            store.new_game(NewGame(("Ann", "Bob"), get_rules("acc")), table="main")
    shutil.rmtree(db.parent / "backups", ignore_errors=True)


def test_the_guide_names_every_group_the_service_user_is_put_in():
    from cribpi.service.install import SYSUSERS_TEXT

    groups = re.findall(r"^m cribpi (\S+)$", SYSUSERS_TEXT, re.M)
    assert "audio" in groups
    step5 = DOC.read_text().split("## 5.")[1].split("## 6.")[0]
    said = re.search(r"the `cribpi` user \(in the ([^)]*?) groups", " ".join(step5.split()))
    assert said, step5[:600]
    assert set(re.split(r", | and ", said.group(1))) == set(groups), said.group(1)


def test_the_readme_never_shows_cribpi_backup_without_saying_not_as_root():
    readme = " ".join((ROOT / "README.md").read_text().split())
    for found in re.finditer(r"`(sudo )?cribpi backup`", readme):
        around = readme[max(0, found.start() - 200):found.end() + 200]
        assert re.search(r"not `sudo cribpi backup`|not as root", around), around
