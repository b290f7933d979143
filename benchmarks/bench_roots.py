"""The Debian roots of tests/systemd (amd64, and arm64 under qemu-user-static): how long a build
of both takes, as the tests build them (the two at once, tests/systemd/container.py).

    sudo python benchmarks/bench_roots.py CACHE_DIR [--arch amd64 --arch arm64]

CACHE_DIR must be empty or missing (it is the tests' CRIBPI_TEST_CACHE for this run: never
point it at a cache in use). Three figures, each printed as it is measured:
  cold         nothing cached: the .debs fetched from the Debian mirror, the wheels with pip
               (pip's own cache is this machine's), the roots built (a fresh machine);
  debs cached  the roots and wheelhouses removed, the .debs kept (what a recipe change costs);
  warm         everything kept: a second run on the same machine builds nothing (0 s).
Each with the CPU seconds the build's processes used ("cpu"): wall times on a shared machine
move with its load, that figure does not.
Root only (mmdebstrap, chroot); the arm64 root needs qemu-user-static and binfmt-support.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "systemd"))


def build_all(container: object, arches: list[str]) -> dict[str, float]:
    """Each arch's root built on its own thread (as the tests' prefetch does); the seconds each
    took, the wall time of the whole ("both"), and the CPU seconds its processes used ("cpu":
    the figure a shared machine's load does not change)."""
    took: dict[str, float] = {}
    failed: list[BaseException] = []

    def one(arch: str) -> None:
        try:
            took[arch] = container.rootfs(arch)[1]  # type: ignore[attr-defined]
        except BaseException as err:  # pytest.fail: the build's own message
            failed.append(err)

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    threads = [threading.Thread(target=one, args=(arch,)) for arch in arches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed:
        raise SystemExit(f"a build failed: {failed[0]}")
    took["both" if len(arches) > 1 else arches[0]] = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    took["cpu"] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return took


def show(stage: str, took: dict[str, float]) -> None:
    print(f"{stage:12} " + ", ".join(f"{name} {secs:6.1f} s" for name, secs in took.items()), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cache", type=Path, help="an empty or missing folder (the tests' CRIBPI_TEST_CACHE)")
    parser.add_argument("--arch", action="append", choices=("amd64", "arm64"),
                        help="a root to build (both unless given)")
    args = parser.parse_args()
    arches = args.arch or ["amd64", "arm64"]
    cache: Path = args.cache.resolve()
    if cache.exists() and any(cache.iterdir()):
        raise SystemExit(f"{cache}: not empty; give an empty or missing folder (a cache in use is never touched)")
    if os.geteuid() != 0:
        raise SystemExit("building a root needs root (mmdebstrap, chroot): run it with sudo")
    os.environ["CRIBPI_TEST_CACHE"] = str(cache)
    import container  # noqa: PLC0415  (reads CRIBPI_TEST_CACHE when imported)

    container.CACHE = cache
    for arch in arches:
        container.check_host(arch)
    show("cold", build_all(container, arches))
    for arch in arches:  # the roots and the wheelhouses go; the .debs stay
        shutil.rmtree(cache / f"bookworm-{arch}-{container.RECIPE}")
        shutil.rmtree(cache / f"wheels-{arch}-{container.RECIPE}")
    show("debs cached", build_all(container, arches))
    show("warm", build_all(container, arches))
    sizes = {arch: sum(f.stat().st_size for f in (cache / f"debs-{arch}").iterdir()) / 1e6 for arch in arches}
    print("debs fetched " + ", ".join(f"{arch} {mb:.0f} MB" for arch, mb in sizes.items()))


if __name__ == "__main__":
    main()
