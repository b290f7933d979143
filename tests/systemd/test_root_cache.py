"""The cache of the Debian roots (container.rootfs) without mmdebstrap: its build replaced by
one that writes a file slowly, so what is checked is the locking, the marker and the rename,
in a temporary CACHE. Cheap; not marked systemd (no container, no root needed)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

import container


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """CACHE in tmp_path; a build that takes 0.3 s, wrote into a temporary folder before the rename.
    The list it returns grows by one folder each time a build runs."""
    builds: list[Path] = []
    monkeypatch.setattr(container, "CACHE", tmp_path)
    monkeypatch.setattr(container, "wheelhouse", lambda arch="amd64": tmp_path / "wheels")

    def mmdebstrap(argv: list[str], **kwargs: object) -> object:
        target = Path(argv[-2])
        arch = next(a.split("=", 1)[1] for a in argv if a.startswith("--arch="))
        # the .debs come from, and go back to, the cache (a second build fetches nothing)
        assert f"--customize-hook=sync-out /var/cache/apt/archives {tmp_path / f'debs-{arch}'}" in argv
        assert f"--setup-hook=sync-in {tmp_path / f'debs-{arch}'} /var/cache/apt/archives/" in argv
        builds.append(target)
        time.sleep(0.3)
        for folder in ("etc/sudoers.d", "var/cache/apt/archives"):
            (target / folder).mkdir(parents=True)
        return type("Done", (), {"returncode": 0, "stdout": "", "stderr": ""})()

    monkeypatch.setattr(container, "_run", mmdebstrap)
    monkeypatch.setattr(container.subprocess, "run", lambda *a, **k: None)  # useradd in the chroot
    return builds


def test_two_workers_asking_at_once_build_it_once(cache: list[Path]) -> None:
    got: list[tuple[Path, float]] = []
    workers = [threading.Thread(target=lambda: got.append(container.rootfs("arm64"))) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(cache) == 1
    assert got[0][0] == got[1][0] and (got[0][0] / ".cribpi-ready").exists()
    assert container.rootfs("arm64")[1] == 0.0 and len(cache) == 1  # kept: the next run builds nothing


def test_a_half_built_root_from_a_killed_run_is_never_used(cache: list[Path], tmp_path: Path) -> None:
    root = tmp_path / f"bookworm-amd64-{container.RECIPE}"
    (root / "etc").mkdir(parents=True)  # in place, but without its marker
    stale = tmp_path / ".building-amd64-killed"
    stale.mkdir()
    got, took = container.rootfs("amd64")
    assert got == root and took > 0 and len(cache) == 1 and cache[0] != root  # built again, aside, then renamed
    assert (root / ".cribpi-ready").exists() and (root / "etc/hostname").exists()
    assert not stale.exists()
