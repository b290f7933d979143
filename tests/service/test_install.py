"""The systemd units, the udev rule and ``cribpi install``/``uninstall`` against a temporary root."""

from __future__ import annotations

import ipaddress
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cribpi.service.install import CONFIG, RULES, SYSUSERS, UNIT_DIR, UNITS, cribpi_executable
from service_tools import require

ROOT = Path(__file__).parents[2]
SYSTEMD = ROOT / "systemd"
SHIPPED = ROOT / "cribpi" / "service" / "files"


def cribpi(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cribpi", *map(str, args)], capture_output=True, text=True,
                          timeout=60)


def test_systemd_folder_holds_the_shipped_files():
    for name in (*UNITS, "60-cribpi.rules"):
        assert (SYSTEMD / name).read_text() == (SHIPPED / name).read_text()


@pytest.mark.parametrize("unit", ["cribpi.service", "cribpi-backup.service"])
def test_the_units_are_hardened_to_an_exposure_of_at_most_2(unit):
    tool = require("systemd-analyze")
    done = subprocess.run([tool, "security", "--offline=true", str(SYSTEMD / unit)], capture_output=True, text=True)
    level = re.search(rf"Overall exposure level for {re.escape(unit)}: (\d+\.\d)", done.stdout)
    assert level, done.stdout + done.stderr
    assert float(level.group(1)) <= 2.0, done.stdout


def test_the_main_unit_has_what_the_service_needs():
    text = (SYSTEMD / "cribpi.service").read_text()
    for line in ("Type=notify", "Restart=on-failure", "User=cribpi", "SupplementaryGroups=gpio i2c dialout audio",
                 "StateDirectory=cribpi", "RuntimeDirectory=cribpi", "WorkingDirectory=/run/cribpi",
                 "DevicePolicy=closed", "DeviceAllow=char-ttyACM rw", "DeviceAllow=char-gpiochip rw",
                 "DeviceAllow=char-ttyUSB rw", "DeviceAllow=char-ttyAMA rw",  # a [card_reader]'s port
                 "DeviceAllow=char-i2c rw", "ProtectSystem=strict"):
        assert line in text.splitlines(), line
    assert re.search(r"^WatchdogSec=\d+$", text, re.M) and re.search(r"^StartLimitBurst=\d+$", text, re.M)
    assert not re.search(r"^PrivateDevices=", text, re.M)  # it would hide /dev/ttyACM*, /dev/gpiochip*, /dev/i2c-*


def test_the_udev_rule_names_the_pico_and_keeps_modemmanager_off():
    rules = [line for line in (SYSTEMD / "60-cribpi.rules").read_text().splitlines()
             if line and not line.startswith("#")]
    tty = next(r for r in rules if 'SUBSYSTEM=="tty"' in r)
    assert 'ATTRS{idVendor}=="2e8a"' in tty and 'ATTRS{idProduct}=="0005"' in tty
    assert 'SYMLINK+="cribpi-controller"' in tty and 'ENV{ID_MM_DEVICE_IGNORE}="1"' in tty
    assert all(re.fullmatch(r'(\w+(\{\w+\})?(==|\+=|=)"[^"]*"(, )?)+', r) for r in rules), rules


def installed(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): (str(p.readlink()) if p.is_symlink() else p.read_text())
            for p in sorted(root.rglob("*")) if p.is_file() or p.is_symlink()}


@pytest.mark.service
def test_install_puts_every_file_in_place_once_and_uninstall_takes_it_away(tmp_path):
    require("systemd-sysusers"), require("systemctl"), require("userdel")
    root = tmp_path / "root"
    root.mkdir()
    dry = cribpi("install", "--dry-run", "--root", root)
    assert dry.returncode == 0, dry.stderr
    assert not any(root.iterdir())  # a dry run changes nothing
    assert all(line.startswith("would ") for line in dry.stdout.splitlines())

    first = cribpi("install", "--root", root)
    assert first.returncode == 0, first.stderr
    files = installed(root)
    exe = str(cribpi_executable())
    for name in UNITS:
        unit = files[f"{UNIT_DIR}/{name}"]
        assert unit == (SHIPPED / name).read_text().replace("/opt/cribpi/bin/cribpi", exe)
    assert f"ExecStart={exe} run" in files[f"{UNIT_DIR}/cribpi.service"]
    assert files[RULES] == (SHIPPED / "60-cribpi.rules").read_text()
    assert files[CONFIG] == (SHIPPED / "cribpi.toml").read_text()
    assert "u cribpi" in files[SYSUSERS]
    assert re.search(r"^cribpi:x:\d+:\d+:.*:/var/lib/cribpi:/usr/sbin/nologin$", files["etc/passwd"], re.M)
    assert files[f"{UNIT_DIR}/multi-user.target.wants/cribpi.service"].endswith("cribpi.service")
    assert files[f"{UNIT_DIR}/timers.target.wants/cribpi-backup.timer"].endswith("cribpi-backup.timer")
    assert cribpi("config", "--check", root / CONFIG).returncode == 0

    again = cribpi("install", "--root", root)  # idempotent: every step is already done
    assert again.returncode == 0, again.stderr
    assert [line for line in again.stdout.splitlines() if line.startswith("doing")] == []
    assert installed(root) == files

    (root / "var/lib/cribpi").mkdir(parents=True)
    (root / "var/lib/cribpi/cribpi.db").write_bytes(b"games")
    gone = cribpi("uninstall", "--root", root)
    assert gone.returncode == 0, gone.stderr
    left = installed(root)
    assert not [name for name in left if "cribpi" in name and not name.startswith("var/lib/cribpi")], left
    assert left["var/lib/cribpi/cribpi.db"] == "games"  # games are never deleted
    assert "cribpi:" not in left["etc/passwd"]


@pytest.mark.service
def test_uninstall_keeps_an_edited_config(tmp_path):
    require("systemd-sysusers"), require("systemctl"), require("userdel")
    assert cribpi("install", "--root", tmp_path).returncode == 0
    (tmp_path / CONFIG).write_text('backend = "pi"\n')
    assert cribpi("uninstall", "--root", tmp_path).returncode == 0
    assert (tmp_path / CONFIG).read_text() == 'backend = "pi"\n'


@pytest.mark.service
def test_the_installed_units_verify_clean(tmp_path):
    tool = require("systemd-analyze")
    require("systemd-sysusers"), require("systemctl")
    assert cribpi("install", "--root", tmp_path).returncode == 0
    units = [str(tmp_path / UNIT_DIR / name) for name in UNITS]
    done = subprocess.run([tool, "verify", *units], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def test_installing_on_the_live_system_needs_root_or_dry_run(monkeypatch):
    from cribpi.service import install

    monkeypatch.setattr(install.os, "geteuid", lambda: 1000)
    with pytest.raises(install.InstallError, match="as root"):
        install.check_can_install(Path("/"), Path("/opt/cribpi/bin/cribpi"), dry_run=False)
    install.check_can_install(Path("/"), Path("/opt/cribpi/bin/cribpi"), dry_run=True)
    with pytest.raises(install.InstallError, match="ProtectHome"):
        install.check_can_install(Path("/"), Path("/home/pi/cribpi/.venv/bin/cribpi"), dry_run=True)


def test_backup_copies_the_journal_while_the_table_writes_and_keeps_the_last_n(tmp_path):
    from cribpi.game import NewGame
    from cribpi.rules import get_rules
    from cribpi.store import Store

    db = tmp_path / "state" / "cribpi.db"
    db.parent.mkdir()
    with Store(db) as store:  # the table's writer holds the journal all along
        store.new_game(NewGame(("Ann", "Bob"), get_rules("acc")), table="main")
        copies = []
        for _ in range(3):
            done = cribpi("backup", "--db", db, "--keep", 2)
            assert done.returncode == 0, done.stderr
            copies.append(Path(done.stdout.strip()))
    kept = sorted((db.parent / "backups").iterdir())
    assert kept == sorted(copies[1:])
    with Store(kept[-1], read_only=True) as copy:
        assert [g["players"] for g in copy.games()] == [["Ann", "Bob"]]


def test_backup_refuses_a_bad_keep_with_one_line(tmp_path):
    done = cribpi("backup", "--db", tmp_path / "cribpi.db", "--keep", 0)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "--keep: '0' is not valid" in done.stderr


def test_install_ends_by_saying_the_services_state_and_where_a_degraded_one_is_checked():
    from cribpi.service.install import service_status

    degraded = "ActiveState=active\nSubState=running\nStatusText=degraded, retrying the parts: GPIO17: no pin factory\n"
    line = service_status(lambda argv: degraded)
    assert line.startswith("the service is active/running: degraded, retrying the parts: GPIO17")
    assert "sudo cribpi doctor" in line
    said = "StatusText=degraded, retrying the parts: GPIO17 (check them with `sudo cribpi doctor`)\n"
    assert service_status(lambda argv: "ActiveState=active\nSubState=running\n" + said).count("cribpi doctor") == 1
    healthy = "ActiveState=active\nSubState=running\nStatusText=game 1: Red 0, Blue 0 (deal)\n"
    assert service_status(lambda argv: healthy) == "the service is active/running: game 1: Red 0, Blue 0 (deal)"


def test_the_start_is_bounded_and_never_extended():
    """READY=1 never waits for the parts, so the start has a short limit and nothing extends it."""
    text = (SYSTEMD / "cribpi.service").read_text()
    limit = re.search(r"^TimeoutStartSec=(\d+)$", text, re.M)
    assert limit and int(limit.group(1)) <= 90
    assert "EXTEND_TIMEOUT_USEC" not in (ROOT / "cribpi" / "daemon" / "startup.py").read_text()


def test_without_udevd_install_warns_that_the_rule_waits_for_the_next_boot_and_goes_on(tmp_path, monkeypatch):
    """A container or chroot has no udevd: `udevadm control` fails there, and enabling must still happen."""
    from cribpi.service.install import install_steps, run_steps

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "udevadm").write_text("#!/bin/sh\necho 'Failed to send reload request: No such file or directory' >&2\n"
                                     "exit 1\n")
    (bin_dir / "systemctl").write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path / 'systemctl.log'}\n")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    steps = [s for s in install_steps(Path("/"), Path("/opt/cribpi/bin/cribpi"))
             if s.text.startswith(("udevadm", "systemctl enable"))]
    assert [s.text.split()[0] for s in steps] == ["udevadm", "udevadm", "systemctl"]
    said: list[str] = []
    assert run_steps(steps, dry_run=False, say=said.append) == 1
    warnings = [line for line in said if line.startswith("warning")]
    assert len(warnings) == 2 and all("takes effect at the next boot" in w for w in warnings), said
    assert "Failed to send reload request" in warnings[0]
    assert (tmp_path / "systemctl.log").read_text() == "enable cribpi.service cribpi-backup.timer\n"


def test_install_starts_the_service_once_and_says_which_command_hung(tmp_path, monkeypatch):
    """Enabled without --now, then one restart (which starts it on a fresh install): the table is
    started once, not started and at once restarted. A command that does not return is killed
    after its limit, and install says which one hung and where to look."""
    import cribpi.service.install as install

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "systemctl.log"
    (bin_dir / "systemctl").write_text(f"#!/bin/sh\necho \"$@\" >> {log}\n"
                                       f"[ \"$1\" = restart ] && [ -n \"$HANG\" ] && exec {shutil.which('sleep')} 30\nexit 0\n")
    for tool in ("udevadm", "systemd-sysusers"):
        (bin_dir / tool).write_text("#!/bin/sh\nexit 0\n")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    steps = [s for s in install.install_steps(Path("/"), Path("/opt/cribpi/bin/cribpi")) if s.text.startswith("systemctl")]
    assert install.run_steps(steps, dry_run=False, say=lambda line: None) == len(steps)
    calls = log.read_text().splitlines()
    assert calls == ["daemon-reload", "enable cribpi.service cribpi-backup.timer", "start cribpi-backup.timer",
                     "restart cribpi.service"]
    assert sum(c.startswith(("start cribpi.service", "restart cribpi.service")) or "--now" in c for c in calls) == 1

    monkeypatch.setenv("HANG", "1")
    monkeypatch.setattr(install, "RESTART_TIMEOUT_S", 0.5)
    restart = [s for s in install.install_steps(Path("/"), Path("/opt/cribpi/bin/cribpi"))
               if s.text == "systemctl restart cribpi.service"]
    started = time.monotonic()
    with pytest.raises(install.InstallError) as hung:
        install.run_steps(restart, dry_run=False, say=lambda line: None)
    assert time.monotonic() - started < 10
    assert str(hung.value).startswith("`systemctl restart cribpi.service` hung: no answer after 0.5 s")
    assert "journalctl -u cribpi" in str(hung.value)


@pytest.mark.parametrize("unit", UNITS)
def test_no_directive_is_written_twice_in_a_section(unit):
    """A line repeated (DeviceAllow=char-alsa rw twice, say) is noise a reader takes for a typo,
    or a sign that an edit meant to change one value and added it again."""
    seen: set[tuple[str, str]] = set()
    section = ""
    for line in (SYSTEMD / unit).read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif line and not line.startswith(("#", ";")):
            assert (section, line) not in seen, f"{unit}: {section} has `{line}` twice"
            seen.add((section, line))


def test_the_sandbox_makes_the_shared_writable_places_read_only():
    """ProtectSystem=strict leaves /run (so /run/lock) and /dev (so /dev/shm, /dev/mqueue) writable;
    the container test (tests/systemd) shows it from inside the service's namespace."""
    text = (SYSTEMD / "cribpi.service").read_text()
    read_only = {path.lstrip("-") for line in re.findall(r"^ReadOnlyPaths=(.*)$", text, re.M) for path in line.split()}
    for shared in ("/dev/shm", "/dev/mqueue", "/run/lock"):
        assert any(shared == p or shared.startswith(p + "/") for p in read_only), (shared, read_only)
    assert "RuntimeDirectory=cribpi" in text.splitlines()  # /run/cribpi is made writable again by systemd


def test_the_hardening_keeps_its_score():
    tool = require("systemd-analyze")
    done = subprocess.run([tool, "security", "--offline=true", str(SYSTEMD / "cribpi.service")], capture_output=True,
                          text=True)
    level = re.search(r"Overall exposure level for cribpi.service: (\d+\.\d)", done.stdout)
    assert level and float(level.group(1)) <= 1.4, done.stdout


#: systemd.resource-control(5)'s names for address sets in IPAddressAllow=
IP_SETS = {"any": ("0.0.0.0/0", "::/0"), "localhost": ("127.0.0.0/8", "::1/128"),
           "link-local": ("169.254.0.0/16", "fe80::/64"), "multicast": ("224.0.0.0/4", "ff00::/8")}


def _allowed(line: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(net) for token in line.split() for net in IP_SETS.get(token, (token,))]


def test_the_table_talks_to_its_own_network_only():
    """Phones on a home or club LAN reach the phones' page, a room broker on it is reached; the
    internet is not (IPAddressDeny=any, the allow list the LAN's ranges)."""
    text = (SYSTEMD / "cribpi.service").read_text()
    assert re.findall(r"^IPAddressDeny=(.*)$", text, re.M) == ["any"]
    allowed = [net for line in re.findall(r"^IPAddressAllow=(.*)$", text, re.M) for net in _allowed(line)]

    def reached(address: str) -> bool:
        ip = ipaddress.ip_address(address)
        return any(ip.version == net.version and ip in net for net in allowed)

    lan = ["192.168.100.200", "192.168.1.37", "10.0.0.12", "172.16.5.9", "172.31.255.254", "127.0.0.1", "::1",
           "169.254.10.20", "fe80::1c2a:3bff:fe4d:5e6f", "224.0.0.251", "ff02::fb", "fd12:3456:789a::7"]
    outside = ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.64.0.1", "192.169.0.1", "2001:4860:4860::8888"]
    assert [a for a in lan if not reached(a)] == []
    assert [a for a in outside if reached(a)] == []
