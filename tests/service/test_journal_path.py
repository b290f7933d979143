"""Whose journal: the service's state directory, a checkout's own under ``bash .ci/play``, the
user's otherwise; named in ``cribpi run --help`` and in the message when the table stops."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cribpi.config import default_db_path

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("env, expected", [
    ({"CRIBPI_DB": "/srv/games/table.db", "STATE_DIRECTORY": "/var/lib/cribpi"}, "/srv/games/table.db"),
    ({"STATE_DIRECTORY": "/var/lib/cribpi:/var/lib/other"}, "/var/lib/cribpi/cribpi.db"),
    ({"XDG_STATE_HOME": "/home/ann/.state"}, "/home/ann/.state/cribpi/cribpi.db"),
])
def test_the_default_journal(monkeypatch, env, expected):
    for name in ("CRIBPI_DB", "STATE_DIRECTORY", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert default_db_path() == Path(expected)


@pytest.mark.service
def test_ci_play_keeps_the_checkouts_games_in_the_checkout_and_says_where():
    done = subprocess.run(["bash", str(ROOT / ".ci/play"), "run", "--help"], capture_output=True, text=True,
                          timeout=300, env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"})
    assert done.returncode == 0, done.stderr
    assert str(ROOT / ".cribpi" / "cribpi.db") in " ".join(done.stdout.split())
    ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", ".cribpi/cribpi.db"], capture_output=True)
    assert ignored.returncode == 0  # never committed by accident
