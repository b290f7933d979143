"""How fast a user's file is read or refused: a long match record replayed, and the files that
once hung or crashed a reader (a FIFO, ``/dev/zero``, a file over the 4 MB limit, a binary).

    python benchmarks/bench_inputs.py [--games N]

The target: the longest record a table writes (a best-of-N match, every card entered) reads
and replays in well under a second per game on one core, and a bad file is refused in
milliseconds, never waited on.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cribpi.exc import CribpiError
from cribpi.game.events import Mode
from cribpi.game.simulate import random_game_events
from cribpi.inputs import MAX_FILE_BYTES, read_user_text
from cribpi.record import export_record, parse_record
from cribpi.rules import ACC


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def refused(path: str) -> Callable[[], None]:
    def read() -> None:
        try:
            read_user_text(path, "game record")
        except CribpiError:
            return
        raise AssertionError(f"{path} was read")

    return read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=15, help="games in the match (odd; default 15)")
    args = parser.parse_args()
    events = [e for e, _ in random_game_events(random.Random(1), ACC, Mode.CLAIM, args.games, declare_hands=True)]
    text = export_record(events)
    seconds = min(timed(lambda: parse_record(text)) for _ in range(3))
    games = sum(1 for line in text.splitlines() if line == "Next game") + 1
    print(f"record of {games} games, {len(events)} events, {len(text) / 1024:.0f} kB: read and replayed in "
          f"{seconds * 1000:.0f} ms ({seconds / games * 1000:.0f} ms a game, {len(text) / seconds / 1e6:.2f} MB/s)")
    with tempfile.TemporaryDirectory() as tmp:
        fifo, huge, binary = Path(tmp, "fifo"), Path(tmp, "huge.crib"), Path(tmp, "binary.crib")
        os.mkfifo(fifo)
        huge.write_bytes(b";" * (MAX_FILE_BYTES + 1))
        binary.write_bytes(os.urandom(MAX_FILE_BYTES // 2))
        for name, path in (("a FIFO", fifo), ("/dev/zero", "/dev/zero"), ("a file over 4 MB", huge),
                           ("2 MB of binary", binary)):
            print(f"{name:>18} refused in {timed(refused(str(path))) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
