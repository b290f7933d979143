"""The table on the mock backend: input-to-output latency, idle CPU, resident memory.

Targets (issue 4): an input event reaches the LED frame and the OLED image in at most 5 ms
at p99 on the mock backend; idle CPU under 1% over a minute (no polling); resident memory
at most 40 MB after a full game.

    python benchmarks/bench_table.py [--idle-seconds 60]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import threading
import time

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.game import Phase
from cribpi.game.simulate import random_game_events
from cribpi.hal import Action
from cribpi.hal.mock import open_mock


def _actions_for_game(seed: int) -> list[Action]:
    """A full random game as the actions a table would press (cards as whole-card actions)."""
    actions: list[Action] = [Action.parse("ok")]
    for event, _ in random_game_events(random.Random(seed)):
        kind = event.kind
        if kind in ("starter", "lay"):
            actions.append(Action.of_card(event.card))  # type: ignore[attr-defined]
        elif kind == "crib":
            actions.extend(Action.of_card(c) for c in event.cards)  # type: ignore[attr-defined]
        elif kind == "go":
            actions.append(Action.parse("go"))
        elif kind == "end_deal":
            actions.append(Action.parse("ok"))
    return actions


def latency(games: int) -> list[float]:
    """Milliseconds from each press through the event to frame and image at the backend."""
    samples: list[float] = []
    for seed in range(games):
        backend = open_mock()
        ui = TableUI(TableSettings(), rng=random.Random(seed))
        app = TableApp(backend, ui)
        app.start()
        for action in _presses(ui, _replayable(ui, seed)):
            start = time.perf_counter()
            app.queue(action)
            app.pump()
            samples.append((time.perf_counter() - start) * 1000)
        assert ui.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER), ui.state.phase
        app.close()
    return samples


def _presses(ui: TableUI, actions: list[Action]):  # type: ignore[no-untyped-def]
    """Yield the actions, with an extra OK first for each screen still to page through."""
    for action in actions:
        while action.kind.value == "ok" and ui.screens:
            yield action
        yield action


def _replayable(ui: TableUI, seed: int) -> list[Action]:
    """The game's actions, with the cut made to give the same dealer as the driver's game."""
    events = [e for e, _ in random_game_events(random.Random(seed))]
    cut = next(e for e in events if e.kind == "cut")
    actions = [Action.of_card(c) for c in cut.cards]  # type: ignore[attr-defined]
    return actions + _actions_for_game(seed)[1:]


def idle_cpu(seconds: float) -> float:
    """CPU seconds the loop uses while nobody presses anything, as a % of wall time."""
    backend = open_mock()
    app = TableApp(backend, TableUI(TableSettings()))
    app.start()
    stop = threading.Event()
    thread = threading.Thread(target=app.run, kwargs={"should_stop": stop.is_set}, daemon=True)
    before = time.process_time()
    thread.start()
    time.sleep(seconds)
    used = time.process_time() - before
    stop.set()
    app.queue(Action.parse("menu"))  # wake the loop so it sees the stop
    thread.join(5)
    app.close()
    return used / seconds * 100


def rss_after_full_game() -> float:
    backend = open_mock()
    ui = TableUI(TableSettings(), rng=random.Random(0))
    app = TableApp(backend, ui)
    app.start()
    for action in _presses(ui, _replayable(ui, 0)):
        app.handle(action)
    assert ui.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER), ui.state.phase
    app.close()
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    args = parser.parse_args()
    peak = rss_after_full_game()
    samples = sorted(latency(args.games))
    p = lambda q: samples[min(len(samples) - 1, int(q * len(samples)))]  # noqa: E731
    print(f"input -> LED frame + OLED image (mock backend), {len(samples)} presses:")
    print(f"  median {statistics.median(samples):.2f} ms   p90 {p(0.9):.2f} ms   p99 {p(0.99):.2f} ms   max {samples[-1]:.2f} ms")
    print(f"peak resident memory after a full game: {peak:.1f} MB")
    print(f"idle CPU over {args.idle_seconds:.0f} s: {idle_cpu(args.idle_seconds):.3f} %")


if __name__ == "__main__":
    main()
