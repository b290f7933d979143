"""Fixtures for the store tests: a fresh journal file per test, and a small disk to fill."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cribpi.store import Store


@pytest.fixture
def db_path(tmp_path):  # type: ignore[no-untyped-def]
    return tmp_path / "journal.db"


@pytest.fixture
def store(db_path) -> Iterator[Store]:  # type: ignore[no-untyped-def]
    with Store(db_path) as s:
        yield s


def _missing(message: str) -> None:
    """Skip on a developer's machine; fail under CI=true, where the part must be there."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Callable[[int], Path]]:  # type: ignore[no-untyped-def]
    """``small_disk(kib)``: a real file system that size (a tmpfs mounted for the test, so
    ENOSPC comes from the kernel, as on a full SD card). Needs root (CI runs as root)."""
    mounted: list[Path] = []

    def mount(kib: int) -> Path:
        where = tmp_path / f"disk{len(mounted)}"
        where.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kib}k", "tmpfs", str(where)],
                              capture_output=True, text=True)
        if done.returncode:
            _missing(f"cannot mount a small tmpfs to fill ({done.stderr.strip()}): run as root")
        mounted.append(where)
        return where

    yield mount
    for where in mounted:
        subprocess.run(["umount", "-l", str(where)], check=False)

