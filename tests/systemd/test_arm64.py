"""A Pi's CPU: cribpi on an arm64 Debian bookworm (qemu-user-static through binfmt_misc, which
the fixture mounts and enables when absent), booted under its own systemd. Installed from the
checkout with every dependency an aarch64 wheel; the scoring commands, the rules and game
tests, and a short `cribpi run` on mock parts as the service. Marked ``arm64``; the times are
printed at the end of the run. Under qemu a test runs several times slower than natively.

The budget: the whole module within 10 minutes with a cached root file system (the last test
prints the figure against it; it fails only at three times the budget, a hang, not a slow day)."""

from __future__ import annotations

import json
import re
import time

import pytest

from container import TIMES, Machine

VENV = "/opt/cribpi"
#: Seconds the module may take with a cached root (boot, install, tests, run), and the bound
#: that only a hang passes (each command has its own timeout too).
BUDGET_S = 600.0
HANG_S = 3 * BUDGET_S


def test_installed_from_the_checkout_with_aarch64_wheels_only(arm64: Machine) -> None:
    assert arm64.run("uname -m").stdout.strip() == "aarch64"
    started = time.monotonic()
    # setuptools first, then the checkout built in the venv itself (no isolated build environment:
    # under qemu every extra pip run costs tens of seconds).
    pip = f"{VENV}/bin/pip install -q --no-index --find-links /wheels"
    arm64.run(f"python3 -m venv {VENV} && {pip} 'setuptools>=77' wheel && "
              f"{pip} --no-build-isolation '/root/cribpi[pi]' 'pytest>=7' 'hypothesis>=6'", timeout=900)
    TIMES["arm64 pip install"] = time.monotonic() - started
    tags = arm64.run(f"cat {VENV}/lib/python3.11/site-packages/*.dist-info/WHEEL | grep '^Tag:'").stdout.split("\n")
    tags = [t.split(":", 1)[1].strip() for t in tags if t.strip()]
    native = [t for t in tags if not t.endswith("-any")]
    assert native and all("aarch64" in t for t in native), tags  # Pillow's, at least: built for the Pi's CPU
    pillow = arm64.run(f"{VENV}/bin/python -c 'import PIL._imaging as m; print(m.__file__)'").stdout
    assert "aarch64" in pillow, pillow


def test_score_and_advise_on_arm64(arm64: Machine) -> None:
    score = arm64.run(f"{VENV}/bin/cribpi score 5H 5D 5S JC 5C").stdout
    assert score.rstrip().endswith("Total: 29"), score
    advise = json.loads(arm64.run(f"{VENV}/bin/cribpi advise 5H 5D 5S JC 4C 6D --dealer --json", timeout=300).stdout)
    best = advise[0]  # the same exact expectation as on x86-64
    assert sorted(best["keep"]) == ["4C", "5D", "5S", "6D"] and best["total_ev"] == pytest.approx(22.671036451, abs=1e-6)


def test_the_rules_and_game_tests_pass_on_arm64(arm64: Machine) -> None:
    started = time.monotonic()
    # The two folders side by side: qemu-user runs each process on one core.
    pytest = f"{VENV}/bin/python -m pytest -q -x -p no:cacheprovider -m 'not slow'"
    done = arm64.run(f"cd /root/cribpi && {{ {pytest} tests/rules > /tmp/rules.log 2>&1 & "
                     f"{pytest} tests/game > /tmp/game.log 2>&1; game=$?; wait $!; rules=$?; "
                     "tail -n 25 /tmp/rules.log /tmp/game.log; exit $((rules | game)); }", check=False, timeout=1200)
    TIMES["arm64 rules and game tests"] = time.monotonic() - started
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert len(re.findall(r"\d+ passed", done.stdout)) == 2, done.stdout[-500:]


def test_a_short_run_on_mock_parts_as_the_service(arm64: Machine) -> None:
    started = time.monotonic()
    install = arm64.run(f"{VENV}/bin/cribpi install", check=False, timeout=300)
    assert install.returncode == 0, install.stdout + install.stderr
    arm64.run("printf 'backend = \"mock\"\\n' > /etc/cribpi/cribpi.toml && systemctl restart cribpi.service",
              timeout=300)
    seen = arm64.show("cribpi.service", "ActiveState", "SubState", "StatusText")
    assert (seen["ActiveState"], seen["SubState"]) == ("active", "running"), seen
    assert re.fullmatch(r"game \d+: \w+ \d+, \w+ \d+ \(.+\)", seen["StatusText"]), seen
    arm64.run("systemctl stop cribpi.service", timeout=120)
    stopped = arm64.show("cribpi.service", "ActiveState", "Result", "ExecMainStatus")
    assert (stopped["ActiveState"], stopped["Result"], stopped["ExecMainStatus"]) == ("inactive", "success", "0")
    TIMES["arm64 install, run and stop"] = time.monotonic() - started


def test_the_arm64_run_within_its_budget(arm64: Machine) -> None:
    took = time.monotonic() - arm64.started
    cached = TIMES.get("arm64 root file system build (0 when cached)", 0.0) == 0.0
    TIMES["arm64 module so far (budget 600 s with a cached root)"] = took
    print(f"arm64: {took:.0f} s of its {BUDGET_S:.0f} s budget" + ("" if cached else " (the root was built first)"))
    if cached:
        assert took < HANG_S, f"{took:.0f} s: more than three times the budget, something hung"
