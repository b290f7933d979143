"""A daemon a failed test left running is stopped when the test ends; the power-cut tests ask
for FUSE (``fuse``)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from daemon_proc import reap  # noqa: E402  (tests/service is not a package)
from service_tools import pty_port  # noqa: E402, F401  (a fixture: a pluggable serial port)


@pytest.fixture(autouse=True)
def _reap_daemons() -> Iterator[None]:
    yield
    reap()


@pytest.fixture
def fuse() -> None:
    """FUSE for the crash file system (crashfs.py): skipped without it, failed when CI=true."""
    why = None
    if not Path("/dev/fuse").exists():
        why = "no /dev/fuse here"
    elif shutil.which("fusermount3") is None and os.geteuid() != 0:
        why = "fusermount3 is not installed (apt install fuse3)"
    else:
        try:
            import mfusepy  # noqa: F401
        except (ImportError, OSError) as exc:
            why = f"mfusepy (and libfuse 3) are needed: {exc} (.ci/bootstrap installs them)"
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
