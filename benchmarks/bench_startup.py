"""Start-up of the commands a player waits for, as whole processes, each as a ratio to
``python -c pass`` run by the same interpreter in the same run.

    python benchmarks/bench_startup.py [--runs N]

Targets (issue 11): ``cribpi score 5H 5C 5S JD 5D`` at most 3x ``python -c pass``,
``cribpi advise 5H 5C 5S JD 9C KD --dealer`` at most 3.5x, and ``import cribpi.rules`` at
most 15 ms (CPU time inside a fresh interpreter). Bytecode is written and warmed once first, as
an installed package has it; each figure is the median of ``--runs`` processes, interleaved
so that load from other work on the machine falls on every row alike. Beside the wall time
(what a player waits) each process's CPU time (user + system) is given, which other work on
a busy machine disturbs far less; the targets are judged on the CPU-time ratio.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

ANCHOR = ("-c", "pass")
COMMANDS: tuple[tuple[str, tuple[str, ...], float | None], ...] = (
    ("python -c pass", ANCHOR, None),
    ("cribpi --help", ("-m", "cribpi", "--help"), None),
    ("cribpi score 5H 5C 5S JD 5D", ("-m", "cribpi", "score", "5H", "5C", "5S", "JD", "5D"), 3.0),
    ("cribpi peg 4 2 3 5 6", ("-m", "cribpi", "peg", "4", "2", "3", "5", "6"), None),
    ("cribpi advise 5H 5C 5S JD 9C KD --dealer",
     ("-m", "cribpi", "advise", "5H", "5C", "5S", "JD", "9C", "KD", "--dealer"), 3.5),
)
IMPORT_TARGET_MS = 15.0
TIME_IMPORT = ("-c", "import time; t = time.process_time(); import cribpi.rules; "
                     "print((time.process_time() - t) * 1000)")


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def run_once(args: tuple[str, ...], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(runs: int) -> tuple[dict[str, tuple[float, float]], float]:
    """Median (wall, CPU) seconds of each command, and the median ``import cribpi.rules`` in ms."""
    env = environment()
    for _, argv, _ in COMMANDS:  # write and warm the bytecode
        run_once(argv, env)
    walls: dict[str, list[float]] = {name: [] for name, _, _ in COMMANDS}
    cpus: dict[str, list[float]] = {name: [] for name, _, _ in COMMANDS}
    imports: list[float] = []
    for _ in range(runs):
        for name, argv, _ in COMMANDS:
            wall, cpu = run_once(argv, env)
            walls[name].append(wall)
            cpus[name].append(cpu)
        done = subprocess.run([sys.executable, *TIME_IMPORT], env=env, capture_output=True, text=True, check=True)
        imports.append(float(done.stdout))
    medians = {name: (statistics.median(walls[name]), statistics.median(cpus[name])) for name in walls}
    return medians, statistics.median(imports)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="processes per command (default 21)")
    args = parser.parse_args()
    medians, import_ms = measure(args.runs)
    anchor_wall, anchor_cpu = medians[COMMANDS[0][0]]
    width = max(len(name) for name, _, _ in COMMANDS)
    print(f"{'whole process (median)':<{width}}  {'wall':>8} {'ratio':>6}  {'CPU':>8} {'ratio':>6}  target")
    for name, _, target in COMMANDS:
        wall, cpu = medians[name]
        ratio = cpu / anchor_cpu
        verdict = "" if target is None else f"<= {target}x: {'ok' if ratio <= target else 'MISSED'}"
        print(f"{name:<{width}}  {wall * 1000:>6.1f}ms {wall / anchor_wall:>5.2f}x  "
              f"{cpu * 1000:>6.1f}ms {ratio:>5.2f}x  {verdict}")
    print(f"{'import cribpi.rules (in process)':<{width}}  {'':>8} {'':>6}  {import_ms:>6.1f}ms {'':>6}  "
          f"<= {IMPORT_TARGET_MS:.0f} ms: {'ok' if import_ms <= IMPORT_TARGET_MS else 'MISSED'}")


if __name__ == "__main__":
    main()
