"""Time the rules core: show scoring, the full hand table, and play scoring, each also as a
ratio to an anchor timed in the same run on the same cards.

    python benchmarks/bench_rules.py [--hands N] [--seed S] [--no-table] [--one-by-one]

Targets (one core of a desktop machine; a Raspberry Pi is several times slower):
score_hand at least 400,000 random (hand, starter) pairs a second reading ``.total``, and
the whole 12,994,800-combination table at most 3 s (issue 29; the published Rust figure is
3.1 s), scored as the reference test scores it: one combination per shape by ``score_hand``,
weighted by the shape's count (tests/rules/hand_shapes.py). ``--one-by-one`` also times
scoring all 12,994,800 with ``score_hand`` one by one, as the test did before.
Issue 11: ``score_hand(...).total`` at most 1.6x a bare table lookup (key the five ranks, look
up, check the suits and his nobs: no checks, no result object), and ``score_play`` at least
2.5x as fast as cribbage-scorer's play scoring (``pip install -e .[bench]``) on the same counts.
Each rate is the best of several runs of CPU time, taken in turn, to keep other work on the
machine out of the figure.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from cribpi.rules import DECK, Card, Rank, Suit, rank_points_table, score_hand, score_play

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the reference test's shapes
from tests.rules.hand_shapes import hand_distribution  # noqa: E402

HAND_TARGET = 400_000  # hands per second
TABLE_TARGET = 3.0  # seconds
SHOW_TO_LOOKUP = 1.6  # at most, score_hand against the bare lookup
PLAY_OVER_SCORER = 2.5  # at least, score_play's speed over cribbage-scorer's


def best_of(runs: int, call: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return min(times)


def best_in_turn(runs: int, *calls: Callable[[], object]) -> list[float]:
    """The best CPU time of each call, the calls taken in turn so that load falls on all alike."""
    best = [float("inf")] * len(calls)
    for _ in range(runs):
        for i, call in enumerate(calls):
            start = time.process_time()
            call()
            best[i] = min(best[i], time.process_time() - start)
    return best


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


_NOBS = tuple(Card(Rank.JACK, s) for s in Suit)


def lookup_all_hands(shows: Sequence[tuple[list[Card], Card]]) -> int:
    """The anchor: a bare table lookup per hand, as plain as a scorer gets in Python."""
    table = rank_points_table()
    total = 0
    for hand, starter in shows:
        key = starter.rank_bit
        for card in hand:
            key += card.rank_bit
        points = table[key]
        suit = hand[0].suit
        for card in hand:
            if card.suit is not suit:
                break
        else:
            points += 5 if starter.suit is suit else 4
        jack = _NOBS[starter.suit]
        for card in hand:
            if card is jack:
                points += 1
                break
        total += points
    return total


def scorer_counts(counts: Sequence[list[Card]]) -> Callable[[], int] | None:
    """cribbage-scorer's play scoring over the same counts (None when it is not installed)."""
    try:
        from cribbage_scorer.cribbage_scorer import play_score_ongoing
    except ImportError:
        return None
    theirs = [[(int(c.rank), c.suit.symbol) for c in count] for count in counts]

    def run() -> int:
        return sum(play_score_ongoing(count)[1] for count in theirs)

    return run


def ratios(shows: Sequence[tuple[list[Card], Card]], counts: Sequence[list[Card]],
           runs: int = 7) -> dict[str, float | None]:
    """Issue 11's rules figures, each against its anchor in the same run."""
    assert score_all_hands(shows) == lookup_all_hands(shows)
    ours, lookup = best_in_turn(runs, lambda: score_all_hands(shows), lambda: lookup_all_hands(shows))
    out: dict[str, float | None] = {"show_us": ours / len(shows) * 1e6, "lookup_us": lookup / len(shows) * 1e6,
                                    "show_to_lookup": ours / lookup}
    scorer = scorer_counts(counts)
    play = best_of(runs, lambda: score_all_counts(counts))
    out["play_us"] = play / len(counts) * 1e6
    if scorer is None:
        out["scorer_us"] = out["play_over_scorer"] = None
    else:
        play, theirs = best_in_turn(runs, lambda: score_all_counts(counts), scorer)
        out["play_us"] = play / len(counts) * 1e6
        out["scorer_us"] = theirs / len(counts) * 1e6
        out["play_over_scorer"] = theirs / play
    return out


def explain_all(shows: Sequence[tuple[list[Card], Card]]) -> int:
    return sum(len(score_hand(hand, starter).explain()) for hand, starter in shows)


def full_table_one_by_one() -> list[int]:
    """Every (4-card hand, starter) combination scored as a hand, one call each: counts by total."""
    score = score_hand
    totals = bytearray()
    for a, b, c, d in itertools.combinations(range(52), 4):
        hand = (DECK[a], DECK[b], DECK[c], DECK[d])
        starters = DECK[:a] + DECK[a + 1:b] + DECK[b + 1:c] + DECK[c + 1:d] + DECK[d + 1:]
        totals += bytes([score(hand, s).total for s in starters])
    return [totals.count(t) for t in range(30)]


def _checked_table() -> None:
    counts, _, counted = hand_distribution()
    assert counted == sum(counts) == 12_994_800 and counts[29] == 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="random hands and counts per run")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-table", action="store_true", help="skip the full 12,994,800-combination table")
    parser.add_argument("--one-by-one", action="store_true",
                        help="also score the full table one combination at a time (about 20x slower)")
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
    some = max(1, args.hands // 4)
    figures = ratios(shows[:some], counts[:some])
    rows.append(("score_hand / bare lookup", f"{figures['show_to_lookup']:>12.2f} x ",
                 _verdict(figures["show_to_lookup"] <= SHOW_TO_LOOKUP, f"<= {SHOW_TO_LOOKUP}x")
                 + f" ({figures['show_us']:.2f} against {figures['lookup_us']:.2f} µs)"))
    if figures["play_over_scorer"] is None:
        rows.append(("score_play / cribbage-scorer", "not installed", "pip install -e .[bench]"))
    else:
        rows.append(("cribbage-scorer / score_play", f"{figures['play_over_scorer']:>12.2f} x ",
                     _verdict(figures["play_over_scorer"] >= PLAY_OVER_SCORER, f">= {PLAY_OVER_SCORER}x")
                     + f" ({figures['scorer_us']:.2f} against {figures['play_us']:.2f} µs)"))
    if not args.no_table:
        seconds = best_of(3, _checked_table)
        rows.append(("full table, 12,994,800, by shape", f"{seconds:>12.2f} s ",
                     _verdict(seconds <= TABLE_TARGET, f"<= {TABLE_TARGET:.0f} s") + " (CPU, best of 3)"))
    if args.one_by_one:
        start = time.process_time()
        table = full_table_one_by_one()
        seconds = time.process_time() - start
        assert sum(table) == 12_994_800
        rows.append(("full table, one by one", f"{seconds:>12.1f} s ", "(the check before issue 29)"))

    width = max(len(r[0]) for r in rows)
    print(f"{'benchmark':<{width}}  {'figure':>14}  target")
    for name, figure, verdict in rows:
        print(f"{name:<{width}}  {figure:>14}  {verdict}")


def _verdict(met: bool, target: str) -> str:
    return f"{target}: {'ok' if met else 'MISSED'}"


if __name__ == "__main__":
    main()
