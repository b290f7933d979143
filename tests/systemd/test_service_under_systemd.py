"""The service under a real systemd 252 (Debian bookworm in systemd-nspawn), installed as
docs/install.md says, then put through what a maker's Pi goes through: parts missing, a
daemon-reload during the start, a hung loop, kill -9, a power cut, a backup, doctor under
sudo, the sandbox seen from inside, re-installing and removing it.

The tests run in this file's order on one machine (conftest.py), booted for this module and
powered off at its end. The figures of each stage are printed at the end of the run.

This host's cgroups may be v1: systemd then does not enforce DeviceAllow= inside the container
(its device controller is not delegated there), so the device policy is checked statically
(tests/service/test_install.py), not here.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest

from container import TIMES, Machine

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs" / "install.md"
#: Lines of the guide that exist only on a Raspberry Pi, or need what the offline container lacks.
SKIPPED = {
    "sudo apt update": "the container is offline: the packages were installed when its root was built",
    'echo "dtparam=i2c_arm=on,i2c_arm_baudrate=400000" | sudo tee -a /boot/firmware/config.txt':
        "Raspberry Pi OS only (its firmware reads /boot/firmware/config.txt)",
    'git -C "$HOME/cribpi" pull': "~/cribpi is a copy of the checkout, not a clone with a remote",
    "sudo cribpi uninstall": "run by the last test, after the service has been put through its paces",
}
#: Packages only Raspberry Pi OS's archive has, left out of the guide's `apt install`.
PI_ONLY = ("python3-lgpio",)
#: The service driven by a key script (backend mock) and a watchdog short enough for a test.
DROP_IN = """\
[Service]
ExecStart=
ExecStart=/opt/cribpi/bin/cribpi run --keys /var/lib/cribpi/keys
WatchdogSec=4
"""
OPENING = ("card 3C", "card 9D", "card 6S", "card QH", "card 5C")  # the cut, the starter, the play: 4 events
OPENING_EVENTS = 4
EVENTS_SQL = ("SELECT count(*) FROM events JOIN games ON games.id = events.game_id "
              "WHERE games.status = 'open' AND games.table_name = 'main'")


def guide(first: int = 1, last: int = 99) -> list[str]:
    """The commands of every ```sh block of docs/install.md's sections ``first`` to ``last``
    (the unnumbered last section, Removing it, counts as 99), in order, as written."""
    commands = []
    for section in re.split(r"^## ", DOC.read_text(), flags=re.M)[1:]:
        number = re.match(r"(\d+)\.", section)
        if first <= (int(number.group(1)) if number else 99) <= last:
            for block in re.findall(r"```sh\n(.*?)```", section, re.S):
                commands += [line.strip() for line in block.splitlines()
                             if line.strip() and not line.strip().startswith("#")]
    return commands


def walk(box: Machine, commands: list[str]) -> list[tuple[str, subprocess.CompletedProcess[str], float]]:
    """Each command as the guide's user types it (sudo and all), but those in SKIPPED; the
    Pi-only packages taken out of `apt install`."""
    ran = []
    for command in commands:
        if command in SKIPPED:
            print(f"skipped `{command}`: {SKIPPED[command]}")
            continue
        line = command
        for package in PI_ONLY:
            if command.startswith("sudo apt install") and package in command:
                line = line.replace(f" {package}", "")
                print(f"skipped {package} in `{command}`: Raspberry Pi OS only")
        started = time.monotonic()
        done = box.run(line, user="maker", check=False, timeout=300)
        ran.append((command, done, time.monotonic() - started))
    return ran


def status(box: Machine) -> dict[str, str]:
    return box.show("cribpi.service", "ActiveState", "SubState", "StatusText", "Result", "NRestarts", "MainPID",
                    "ExecMainStatus")


def wait_until(box: Machine, what: str, test, timeout: float = 30.0) -> dict[str, str]:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    seen = status(box)
    while time.monotonic() < deadline:
        seen = status(box)
        if test(seen):
            return seen
        time.sleep(0.2)
    raise AssertionError(f"the service never got {what}: {seen}\n{box.run('journalctl -u cribpi -n 40 --no-pager', check=False).stdout}")


def events(box: Machine) -> int:
    got = box.run(f'sqlite3 -readonly /var/lib/cribpi/cribpi.db "{EVENTS_SQL}"', check=False)
    return int(got.stdout.strip() or 0) if got.returncode == 0 else 0


def wait_events(box: Machine, count: int, timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (now := events(box)) >= count:
            return now
        time.sleep(0.2)
    raise AssertionError(f"the journal never reached {count} events (has {events(box)})")


def keys(box: Machine, *lines: str) -> None:
    text = "\\n".join(lines)
    box.run(f"timeout 20 sh -c 'printf \"{text}\\n\" > /var/lib/cribpi/keys'")


def test_the_guide_walked_on_bookworm_with_parts_missing(machine: Machine) -> None:
    """docs/install.md's sections 2 to 6 as the maker types them (as the `maker` user, with
    sudo), on a machine that is not a Pi: the default configuration's parts are missing.
    `cribpi install` returns within 60 s, and the service is active, degraded, naming the
    parts' problem; doctor under sudo checks the service's journal."""
    # pip's registry in the offline container is the wheelhouse fetched on the host.
    machine.run("printf '[global]\\nno-index = true\\nfind-links = /wheels\\n' > /etc/pip.conf")
    ran = walk(machine, guide(1, 6))
    assert len(ran) >= 9
    for command, done, took in ran:
        if command == "sudo cribpi install":
            TIMES.setdefault("cribpi install, parts missing", took)
            assert took < 60, f"`{command}` took {took:.0f} s"
            assert "the udev rule takes effect at the next boot" in done.stdout, done.stdout  # no udevd here
            assert "the service is active/running: degraded" in done.stdout, done.stdout
        if command.startswith("sudo cribpi doctor"):
            assert done.returncode == 1, done.stdout + done.stderr  # the parts are missing: a check fails
            assert "journal writable: /var/lib/cribpi/cribpi.db (the service's journal)" in done.stdout, done.stdout
            assert "not a Raspberry Pi" in done.stdout and "raspi-config" not in done.stdout
            assert "usermod" not in done.stdout and "/root/" not in done.stdout
            continue
        assert done.returncode == 0, f"`{command}`:\n{done.stdout}\n{done.stderr}"
    seen = status(machine)
    assert (seen["ActiveState"], seen["SubState"]) == ("active", "running"), seen
    assert seen["StatusText"].startswith("degraded, retrying the parts: "), seen
    assert "cribpi doctor" in seen["StatusText"]


#: Restarts the service (without waiting) and reloads systemd again and again until it is active,
#: each reload between two looks at ActiveState: a reload that had the same state before and
#: after landed in it (a round ends once the service has left active and come back). Prints
#: one "BEFORE AFTER" line per reload.
RELOADS = r"""
landed=
for round in 1 2 3 4 5 6 7 8; do
  [ $round -gt 3 ] && [ -n "$landed" ] && break  # three restarts, more until one reload landed while activating
  systemctl restart --no-block cribpi.service
  end=$((SECONDS + 30))
  moved=
  while [ $SECONDS -lt $end ]; do
    a=$(systemctl show -p ActiveState --value cribpi.service)
    systemctl daemon-reload
    b=$(systemctl show -p ActiveState --value cribpi.service)
    echo "$a $b"
    [ "$a" = activating ] && [ "$b" = activating ] && landed=1
    [ "$a" != active ] || [ "$b" != active ] && moved=1
    [ -n "$moved" ] && [ "$a" = active ] && [ "$b" = active ] && break
  done
done
"""


def test_a_daemon_reload_at_any_moment_leaves_it_running(machine: Machine) -> None:
    """Reloads in a loop through three restarts (the parts missing: the start is short; up to
    eight, on a loaded machine, until a reload has begun and ended within one start), while
    ActiveState is polled: at least one lands while the service is activating (and, when the
    stop is slow enough to be caught, deactivating), and the service ends active, never killed
    for a start timeout, never at its start limit."""
    machine.run("systemctl reset-failed cribpi.service")  # the start limit counts this test's starts only
    before = int(status(machine)["NRestarts"])
    lines = machine.run(RELOADS, timeout=200).stdout.split("\n")
    pairs = [tuple(line.split()) for line in lines if line.strip()]
    landed = {state: sum(a == b == state for a, b in pairs) for state in ("deactivating", "activating", "active")}
    print(f"{len(pairs)} daemon-reloads during three restarts; landed while: {landed}")
    assert landed["activating"] >= 1, pairs
    seen = wait_until(machine, "active again", lambda s: s["SubState"] == "running")
    time.sleep(1.0)
    seen = status(machine)
    assert (seen["ActiveState"], seen["Result"]) == ("active", "success"), seen
    assert int(seen["NRestarts"]) == before  # never killed, so never restarted
    log = machine.run("journalctl -u cribpi --no-pager", check=False).stdout
    assert "timed out" not in log, log[-2000:]
    assert "start-limit" not in log and "Start request repeated too quickly" not in log, log[-2000:]


def test_with_the_mock_parts_it_is_ready_with_its_status(machine: Machine) -> None:
    machine.run("mkdir -p /etc/systemd/system/cribpi.service.d && cat > /etc/systemd/system/cribpi.service.d/test.conf "
                f"<<'EOF'\n{DROP_IN}EOF")
    machine.run("mkfifo -m 0600 /var/lib/cribpi/keys && chown cribpi: /var/lib/cribpi/keys")
    machine.run("printf 'backend = \"mock\"\\n' > /etc/cribpi/cribpi.toml")
    machine.run("systemctl daemon-reload && systemctl restart cribpi.service")  # returns once READY=1 came
    seen = status(machine)
    assert (seen["ActiveState"], seen["SubState"]) == ("active", "running"), seen
    assert re.fullmatch(r"game \d+: \w+ \d+, \w+ \d+ \(.+\)", seen["StatusText"]), seen
    start = wait_events(machine, 1)
    keys(machine, *OPENING)
    assert wait_events(machine, start + OPENING_EVENTS) == start + OPENING_EVENTS


#: A card reader that answers: a pty held open by a small unit of its own, its far end at
#: /run/cribpi-cards (as udev would give a reader a stable name), readable by the service's user.
READER = """\
import os, signal
master, slave = os.openpty()
name = os.ttyname(slave)
os.chmod(name, 0o666)
os.symlink(name, "/run/cribpi-cards.new")
os.rename("/run/cribpi-cards.new", "/run/cribpi-cards")
signal.pause()
"""
CARDS = "/run/cribpi-cards"
#: Mock inputs, LEDs and display with the card reader: not all mock (an all-mock table is the
#: mock backend, which has no card reader), the LEDs the simulator's (drawn nowhere here).
CARDS_CONFIG = f'[parts]\ninputs = ["mock"]\npegboard = "sim"\ndisplays = ["mock"]\n[card_reader]\nport = "{CARDS}"\n'
#: The service as installed (no key script: --keys drives an all-mock table only), and the pty
#: standing for the reader allowed where cgroups enforce DeviceAllow= (the unit names ttyACM).
CARDS_DROP_IN = "/etc/systemd/system/cribpi.service.d/zz-cards.conf"


def test_with_a_part_missing_it_plays_on_and_the_part_joins_when_it_appears(machine: Machine) -> None:
    """Mock parts and a card reader on a port that does not exist: active, STATUS names the
    reader missing while the game runs; then the reader appears and the degraded note leaves
    STATUS, without a restart."""
    machine.run("systemctl reset-failed cribpi.service")  # this test's two restarts are not failures
    machine.run(f"cat > /etc/cribpi/cribpi.toml <<'EOF'\n{CARDS_CONFIG}EOF")
    machine.run(f"printf '[Service]\\nExecStart=\\nExecStart=/opt/cribpi/bin/cribpi run\\nDeviceAllow=char-pts rw\\n'"
                f" > {CARDS_DROP_IN}")
    machine.run(f"rm -f {CARDS} && systemctl daemon-reload && systemctl restart cribpi.service")
    seen = status(machine)
    pid = seen["MainPID"]
    assert (seen["ActiveState"], seen["SubState"]) == ("active", "running"), seen
    missing = re.fullmatch(rf"degraded, retrying the parts: card reader {CARDS}: missing \(.+\), retrying "
                           r"\(check them with `sudo cribpi doctor`\); (game \d+: \w+ \d+, \w+ \d+ \(.+\))", seen["StatusText"])
    assert missing, seen
    started = time.monotonic()
    # a pty is a device the unit does not name: the drop-in allows it where cgroups enforce DeviceAllow=
    machine.run(f"systemd-run --unit=cribpi-test-cards --quiet python3 -c '{READER}'")
    try:
        machine.run(f"timeout 10 sh -c 'until [ -e {CARDS} ]; do sleep 0.1; done'")
        seen = wait_until(machine, "the card reader joined", lambda s: not s["StatusText"].startswith("degraded"), 60)
        TIMES["card reader plugged to joined (the retry's backoff)"] = time.monotonic() - started
        assert re.fullmatch(r"game \d+: \w+ \d+, \w+ \d+ \(.+\)", seen["StatusText"]), seen
        assert seen["MainPID"] == pid and seen["ActiveState"] == "active", seen  # joined, not restarted
        log = machine.run(f"journalctl --no-pager _PID={pid}", check=False).stdout
        assert f"card reader {CARDS}: missing" in log and "the table runs without it" in log, log[-2000:]
        assert f"card reader {CARDS} opened: it joins the table" in log, log[-2000:]
    finally:
        machine.run("systemctl stop cribpi-test-cards", check=False)
        machine.run(f"rm -f {CARDS} {CARDS_DROP_IN}; printf 'backend = \"mock\"\\n' > /etc/cribpi/cribpi.toml && "
                    "systemctl daemon-reload && systemctl restart cribpi.service")
    assert status(machine)["StatusText"].startswith("game "), status(machine)


def test_the_rest_of_the_guide_logs_updating_backups(machine: Machine) -> None:
    """Sections 7 to 9 with a game in the journal: the logs, an update (pip and install again,
    the game kept), a backup made by hand and listed."""
    kept = events(machine)
    ran = walk(machine, guide(7, 9))
    assert [c for c, _, _ in ran if c.startswith(("sudo cribpi", "sudo systemctl"))] == [
        "sudo cribpi install", "sudo systemctl start cribpi-backup.service"]
    for command, done, _ in ran:
        assert done.returncode == 0, f"`{command}`:\n{done.stdout}\n{done.stderr}"
    listed = ran[-1][1].stdout.split()
    assert len(listed) == 1 and listed[0].startswith("cribpi-") and listed[0].endswith(".db"), ran[-1]
    assert status(machine)["SubState"] == "running" and events(machine) == kept


def test_sigstop_makes_the_watchdog_restart_it_and_the_game_comes_back(machine: Machine) -> None:
    before, kept = status(machine), events(machine)
    machine.run(f"kill -STOP {before['MainPID']}")
    started = time.monotonic()
    seen = wait_until(machine, "restarted by the watchdog",
                      lambda s: s["MainPID"] not in ("0", before["MainPID"]) and s["SubState"] == "running", 40)
    TIMES["SIGSTOP to running again (WatchdogSec=4)"] = time.monotonic() - started
    assert int(seen["NRestarts"]) == int(before["NRestarts"]) + 1
    log = machine.run("journalctl -u cribpi --no-pager -n 30", check=False).stdout
    assert "Watchdog timeout" in log, log
    assert events(machine) == kept and seen["StatusText"].split(":")[0] == before["StatusText"].split(":")[0]


def test_kill_9_restarts_it_with_the_game(machine: Machine) -> None:
    before, kept = status(machine), events(machine)
    machine.run(f"kill -KILL {before['MainPID']}")
    seen = wait_until(machine, "restarted after kill -9",
                      lambda s: s["MainPID"] not in ("0", before["MainPID"]) and s["SubState"] == "running")
    assert events(machine) == kept and seen["StatusText"].split(":")[0] == before["StatusText"].split(":")[0]
    keys(machine, "card TD")  # and it goes on from there
    assert wait_events(machine, kept + 1) == kept + 1


def test_the_sandbox_writes_its_state_directory_and_nothing_shared(machine: Machine) -> None:
    """Seen from inside the service's own mount namespace: as its user it writes its state
    directory, its runtime directory and its private /tmp; even as root (the mounts, not the
    permissions, are what is checked) nothing shared can be written."""
    pid = status(machine)["MainPID"]
    mounts = f"nsenter -t {pid} -m"
    for folder in ("/var/lib/cribpi", "/tmp", "/run/cribpi"):
        machine.run(f"{mounts} -S $(id -u cribpi) -G $(id -g cribpi) -- sh -c 'echo x > {folder}/.probe && rm {folder}/.probe'")
    for folder in ("/dev/shm", "/run/lock", "/etc", "/opt/cribpi", "/home", "/var/log", "/var/lib"):
        done = machine.run(f"{mounts} -- sh -c 'echo x > {folder}/.probe'", check=False)
        assert done.returncode != 0, f"the service's sandbox can write {folder}"
        assert re.search(r"Read-only file system|Permission denied", done.stderr), done.stderr
    leaked = machine.run("ls -A /dev/shm /run/lock /etc /var/log", check=False).stdout
    assert ".probe" not in leaked


def test_the_device_policy_where_cgroups_enforce_it(machine: Machine) -> None:
    """DevicePolicy=closed with DeviceAllow= for the controller, GPIO and I2C: enforced by
    systemd through the cgroup device controller, which a container on cgroups v1 does not
    get. There the unit's policy is checked statically only (tests/service/test_install.py)."""
    kind = machine.run("stat -fc %T /sys/fs/cgroup").stdout.strip()
    if kind != "cgroup2fs":
        pytest.skip(f"cgroups v1 here ({kind} on /sys/fs/cgroup): DeviceAllow= is not enforced inside the "
                    "container; tests/service/test_install.py checks the unit's device policy")
    # cgroups v2: a process moved into the service's cgroup may not open a device it does not allow.
    machine.run("mknod -m 0666 /run/cribpi/kmsg c 1 11")
    done = machine.run("sh -c 'echo $$ > /sys/fs/cgroup/system.slice/cribpi.service/cgroup.procs && "
                       "exec head -c1 /run/cribpi/kmsg'", check=False, timeout=10)
    machine.run("rm -f /run/cribpi/kmsg")
    assert done.returncode != 0 and "Operation not permitted" in done.stderr, done


def test_doctor_as_root_and_as_the_service_user_checks_the_services_journal(machine: Machine) -> None:
    for user, command in (("maker", "sudo cribpi doctor --config /etc/cribpi/cribpi.toml"),
                          ("root", "cribpi doctor"),
                          ("cribpi", "/opt/cribpi/bin/cribpi doctor --config /etc/cribpi/cribpi.toml")):
        done = machine.run(command if user != "cribpi" else f"runuser -u cribpi -- {command}", check=False,
                           user="root" if user == "cribpi" else user)
        assert "journal writable: /var/lib/cribpi/cribpi.db (the service's journal)" in done.stdout, (user, done.stdout)
        assert "journal sound: integrity_check" in done.stdout and "/root/" not in done.stdout, done.stdout
        assert "usermod" not in done.stdout and "raspi-config" not in done.stdout
        assert done.returncode == 0, (user, done.stdout)
    checked = machine.run("cribpi config --check /etc/cribpi/cribpi.toml", user="maker").stdout
    assert "journal /var/lib/cribpi/cribpi.db (the service's)" in checked


def test_the_backup_service_writes_a_backup(machine: Machine) -> None:
    before = set(machine.run("ls /var/lib/cribpi/backups", check=False).stdout.split())
    time.sleep(1.1)  # the copies are named by the second
    done = machine.run("systemctl start cribpi-backup.service", check=False)
    log = machine.run("journalctl -u cribpi-backup --no-pager -n 30", check=False).stdout
    assert done.returncode == 0, log + machine.run("ls -laR /var/lib/cribpi", check=False).stdout
    after = set(machine.run("ls /var/lib/cribpi/backups").stdout.split())
    new = after - before
    assert len(new) == 1, (before, after)
    name = new.pop()
    check = machine.run(f'sqlite3 -readonly /var/lib/cribpi/backups/{name} "PRAGMA integrity_check; {EVENTS_SQL}"')
    assert check.stdout.split() == ["ok", str(events(machine))]


def test_a_power_cut_keeps_the_game(machine: Machine) -> None:
    kept = events(machine)
    keys(machine, "card 6D")
    kept = wait_events(machine, kept + 1)
    machine.cut()
    TIMES["boot after the power cut"] = machine.boot()
    seen = wait_until(machine, "started at boot", lambda s: s["SubState"] == "running", 60)
    assert seen["ActiveState"] == "active" and seen["StatusText"].startswith("game "), seen
    assert events(machine) == kept
    integrity = machine.run("sqlite3 -readonly /var/lib/cribpi/cribpi.db 'PRAGMA integrity_check'").stdout.strip()
    assert integrity == "ok"


def test_stop_is_clean(machine: Machine) -> None:
    machine.run("systemctl stop cribpi.service")
    seen = status(machine)
    assert (seen["ActiveState"], seen["Result"], seen["ExecMainStatus"]) == ("inactive", "success", "0"), seen
    log = machine.run("journalctl -u cribpi --no-pager -n 5", check=False).stdout
    assert "the game is kept in /var/lib/cribpi/cribpi.db" in log, log
    machine.run("systemctl start cribpi.service")


def test_installing_again_is_harmless(machine: Machine) -> None:
    files = "md5sum /etc/systemd/system/cribpi.service /etc/cribpi/cribpi.toml /etc/udev/rules.d/60-cribpi.rules"
    before, kept = machine.run(files).stdout, events(machine)
    done = machine.run("sudo cribpi install", user="maker", check=False, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert machine.run(files).stdout == before and events(machine) == kept
    assert "the service is active/running: game " in done.stdout, done.stdout


def test_uninstall_keeps_the_games(machine: Machine) -> None:
    machine.run("rm -rf /etc/systemd/system/cribpi.service.d && systemctl daemon-reload")
    done = machine.run("sudo cribpi uninstall", user="maker", check=False, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert machine.run("systemctl is-active cribpi.service", check=False).stdout.strip() in ("inactive", "unknown")
    assert machine.run("test -f /var/lib/cribpi/cribpi.db && ls /var/lib/cribpi/backups").stdout.split()
