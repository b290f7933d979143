"""Complete random two-player games per second through ``cribpi.game.apply``.

Target (issue 3): at least 200 games/s on one core. The events are generated first, so the
figure is the engine's alone; a second figure includes the random driver. Issue 11: count mode
at least twice as fast as the engine was when the issue was filed (270 games/s on a quiet
machine). ``--against COMMIT`` times that engine too, checked out of git into a temporary
folder and run in turn with this one in separate processes, and prints the ratio. Rates are
the best of several runs in CPU time, so other work on the machine disturbs them less.

    python benchmarks/bench_game.py [--games N] [--against COMMIT]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cribpi.game import Mode, apply
from cribpi.game.engine import INITIAL
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC, MugginsScope

#: The commit issue 11 was filed against (count mode: 270 games/s on a quiet machine).
ISSUE_11 = "eaf44e1"
ROOT = Path(__file__).resolve().parents[1]

#: Count-mode games/s of the engine found on ``sys.path``, using only what every version has.
COUNT_MODE = """
import random, sys, time
from cribpi.game import Mode, apply
from cribpi.game.engine import INITIAL
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC
rng = random.Random(1)
games = [[e for e, _ in random_game_events(rng, ACC, Mode.COUNT)] for _ in range(int(sys.argv[1]))]
best = float("inf")
for _ in range(3):
    start = time.process_time()
    for events in games:
        state = INITIAL
        for event in events:
            state, _ = apply(state, event)
    best = min(best, time.process_time() - start)
print(len(games) / best)
"""


def _games(n: int, seed: int, mode: Mode) -> list[list]:
    rng = random.Random(seed)
    rules = ACC.replace(muggins=MugginsScope.ACC) if mode is Mode.CLAIM else ACC
    return [[e for e, _ in random_game_events(rng, rules, mode)] for _ in range(n)]


def _apply_all(games: list[list]) -> float:
    start = time.process_time()
    for events in games:
        state = INITIAL
        for event in events:
            state, _ = apply(state, event)
    return time.process_time() - start


def count_rate(root: Path, games: int) -> float:
    done = subprocess.run([sys.executable, "-c", COUNT_MODE, str(games)], cwd=root, env={"PYTHONPATH": str(root)},
                          capture_output=True, text=True, check=True)
    return float(done.stdout)


def against(commit: str, games: int, rounds: int = 3) -> tuple[float, float]:
    """Best count-mode games/s of this engine and of ``commit``'s, run in turn."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "archive", commit, "cribpi"], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        ours = theirs = 0.0
        for _ in range(rounds):
            theirs = max(theirs, count_rate(Path(folder), games))
            ours = max(ours, count_rate(ROOT, games))
    return ours, theirs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--against", metavar="COMMIT", nargs="?", const=ISSUE_11,
                        help=f"also time the engine of COMMIT (default {ISSUE_11}, when issue 11 was filed)")
    args = parser.parse_args()
    print(f"{'mode':<8}{'games':>7}{'events/game':>13}{'games/s (apply)':>18}{'µs/event':>10}")
    for mode in (Mode.COUNT, Mode.CLAIM, Mode.BOARD):
        games = _games(args.games, 1, mode)
        runs = [_apply_all(games) for _ in range(3)]
        best = min(runs)
        events = sum(map(len, games))
        print(f"{mode.value:<8}{len(games):>7}{events / len(games):>13.1f}"
              f"{len(games) / best:>18.0f}{best / events * 1e6:>10.1f}")
    start = time.process_time()
    _games(100, 2, Mode.COUNT)
    print(f"with the random driver (count mode): {100 / (time.process_time() - start):.0f} games/s")
    if args.against:
        ours, theirs = against(args.against, args.games)
        ratio = ours / theirs
        print(f"count mode, in turn with {args.against}'s engine: {ours:.0f} against {theirs:.0f} games/s, "
              f"{ratio:.2f}x (issue 11: >= 2x: {'ok' if ratio >= 2 else 'MISSED'})")
    print(f"(median of runs spread: {statistics.pstdev(runs) / best:.1%})")


if __name__ == "__main__":
    main()
