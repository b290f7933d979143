"""Time the rules core: show scoring, the full hand table, and play scoring.

    python benchmarks/bench_rules.py [--hands N] [--seed S] [--no-table]

Targets (one core of a desktop machine; a Raspberry Pi is several times slower):
score_hand at least 400,000 random (hand, starter) pairs a second reading ``.total``, and
the whole 12,994,800-combination table in under 30 s, so the reference test stays cheap.
Each rate is the best of three runs, to keep other work on the machine out of the figure.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Callable, Sequence

from cribpi.rules import DECK, Card, score_hand, score_play

HAND_TARGET = 400_000  # hands per second
TABLE_TARGET = 30.0  # seconds


def best_of(runs: int, call: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def random_shows(rng: random.Random, n: int) -> list[tuple[list[Card], Card]]:
    shows = []
    for _ in range(n):
        cards = rng.sample(DECK, 5)
        shows.append((cards[:4], cards[4]))
    return shows


def random_counts(rng: random.Random, n: int) -> list[list[Card]]:
    """Counts as the play makes them: distinct cards, never past 31, one to eight cards."""
    counts: list[list[Card]] = []
    while len(counts) < n:
        count: list[Card] = []
        running = 0
        for card in rng.sample(DECK, 8):
            if running + card.value > 31:
                break
            count.append(card)
            running += card.value
        counts.append(count)
    return counts


def score_all_hands(shows: Sequence[tuple[list[Card], Card]]) -> int:
    score = score_hand
    total = 0
    for hand, starter in shows:
        total += score(hand, starter).total
    return total


def score_all_counts(counts: Sequence[list[Card]]) -> int:
    score = score_play
    return sum(score(count).total for count in counts)


def explain_all(shows: Sequence[tuple[list[Card], Card]]) -> int:
    return sum(len(score_hand(hand, starter).explain()) for hand, starter in shows)


def full_table() -> list[int]:
    """Every (4-card hand, starter) combination scored as a hand: counts by total."""
    score = score_hand
    totals = bytearray()
    for a, b, c, d in itertools.combinations(range(52), 4):
        hand = (DECK[a], DECK[b], DECK[c], DECK[d])
        starters = DECK[:a] + DECK[a + 1:b] + DECK[b + 1:c] + DECK[c + 1:d] + DECK[d + 1:]
        totals += bytes([score(hand, s).total for s in starters])
    return [totals.count(t) for t in range(30)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="random hands and counts per run")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-table", action="store_true", help="skip the full 12,994,800 enumeration")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    shows = random_shows(rng, args.hands)
    counts = random_counts(rng, args.hands)
    few = shows[: max(1, args.hands // 20)]

    rows: list[tuple[str, str, str]] = []
    rate = len(shows) / best_of(3, lambda: score_all_hands(shows))
    rows.append(("score_hand(...).total", f"{rate:>12,.0f} /s", _verdict(rate >= HAND_TARGET, f">= {HAND_TARGET:,} /s")))
    rate = len(counts) / best_of(3, lambda: score_all_counts(counts))
    rows.append(("score_play(...).total", f"{rate:>12,.0f} /s", ""))
    rate = len(few) / best_of(3, lambda: explain_all(few))
    rows.append(("score_hand(...).explain()", f"{rate:>12,.0f} /s", "(itemised, for people)"))
    if not args.no_table:
        start = time.perf_counter()
        table = full_table()
        seconds = time.perf_counter() - start
        assert sum(table) == 12_994_800
        rows.append(("full table, 12,994,800", f"{seconds:>12.1f} s ", _verdict(seconds < TABLE_TARGET, f"< {TABLE_TARGET:.0f} s")))

    width = max(len(r[0]) for r in rows)
    print(f"{'benchmark':<{width}}  {'figure':>14}  target")
    for name, figure, verdict in rows:
        print(f"{name:<{width}}  {figure:>14}  {verdict}")


def _verdict(met: bool, target: str) -> str:
    return f"{target}: {'ok' if met else 'MISSED'}"


if __name__ == "__main__":
    main()
