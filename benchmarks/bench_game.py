"""Complete random two-player games per second through ``cribpi.game.apply``.

Target (issue 3): at least 200 games/s on one core. The events are generated first, so the
figure is the engine's alone; a second figure includes the random driver.

    python benchmarks/bench_game.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cribpi.game import Mode, apply
from cribpi.game.engine import INITIAL
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC, MugginsScope


def _games(n: int, seed: int, mode: Mode) -> list[list]:
    rng = random.Random(seed)
    rules = ACC.replace(muggins=MugginsScope.ACC) if mode is Mode.CLAIM else ACC
    return [[e for e, _ in random_game_events(rng, rules, mode)] for _ in range(n)]


def _apply_all(games: list[list]) -> float:
    start = time.perf_counter()
    for events in games:
        state = INITIAL
        for event in events:
            state, _ = apply(state, event)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    print(f"{'mode':<8}{'games':>7}{'events/game':>13}{'games/s (apply)':>18}{'µs/event':>10}")
    for mode in (Mode.COUNT, Mode.CLAIM, Mode.BOARD):
        games = _games(args.games, 1, mode)
        runs = [_apply_all(games) for _ in range(3)]
        best = min(runs)
        events = sum(map(len, games))
        print(f"{mode.value:<8}{len(games):>7}{events / len(games):>13.1f}"
              f"{len(games) / best:>18.0f}{best / events * 1e6:>10.1f}")
    start = time.perf_counter()
    _games(100, 2, Mode.COUNT)
    print(f"with the random driver (count mode): {100 / (time.perf_counter() - start):.0f} games/s")
    print(f"(median of runs spread: {statistics.pstdev(runs) / best:.1%})")


if __name__ == "__main__":
    main()
