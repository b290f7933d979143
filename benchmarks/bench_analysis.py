"""Time the exact discard analysis on random hands: median and 90th percentile.

    python benchmarks/bench_analysis.py [--hands N] [--seed S]

The target is a full analysis of one 6-card hand in at most 25 ms median on one core, so a
Raspberry Pi Zero 2 (several times slower) still answers at once. The first call builds the
rank tables; it is timed separately and left out of the figures. No test times the analysis
(a time bound in a test fails on a busy machine, not on a lost optimisation): its speed is
watched here; its results are checked against brute force in tests/analysis.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from cribpi.analysis import analyse_discards
from cribpi.rules import ACC, DECK, FIVE_CARD, Card, Rules

CASES: tuple[tuple[str, Rules, bool], ...] = (
    ("6 cards, 2 players, dealer", ACC, True),
    ("6 cards, 2 players, pone", ACC, False),
    ("5 cards, 3 players, dealer", ACC.replace(players=3), True),
    ("5 cards, 4 players, pone", ACC.replace(players=4), False),
    ("5 cards, five-card, pone", FIVE_CARD, False),
)


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def percentile(times: Sequence[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bench(rules: Rules, dealer: bool, hands: list[list[Card]]) -> list[float]:
    times = []
    for hand in hands:
        dealt = hand[: rules.cards_dealt]
        times.append(timed(lambda: analyse_discards(dealt, dealer=dealer, rules=rules)))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=300, help="random hands per case (default 300)")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = [rng.sample(DECK, 6) for _ in range(args.hands)]
    first = timed(lambda: analyse_discards(hands[0], dealer=True))
    print(f"first call (builds the rank tables): {first * 1000:.1f} ms")
    print(f"{'case':<28} {'median':>9} {'p90':>9} {'max':>9}   ({args.hands} hands)")
    for name, rules, dealer in CASES:
        times = bench(rules, dealer, hands)
        print(
            f"{name:<28} {statistics.median(times) * 1000:>7.2f}ms {percentile(times, 0.9) * 1000:>7.2f}ms "
            f"{max(times) * 1000:>7.2f}ms"
        )


if __name__ == "__main__":
    main()
