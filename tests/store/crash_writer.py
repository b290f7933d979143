"""Journal random matches until killed, printing "GAME SEQ" once each event is committed.

Run by test_crash.py as ``python crash_writer.py JOURNAL SEED [MODE]``. Game ``g`` of the
journal always replays the match of seed ``SEED + g``, so after a kill the next writer (and
the test) know exactly which events the journal must hold. A restarted writer continues the
open game from where its journal ends, as the app does at start-up.
"""

from __future__ import annotations

import random
import sys

from cribpi.game import Game, Mode
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC
from cribpi.store import Store


def match_events(seed: int, game_id: int, mode: str) -> list:  # type: ignore[type-arg]
    return [e for e, _ in random_game_events(random.Random(seed + game_id), ACC, Mode(mode), 3)]


def main(path: str, seed: int, mode: str = "claim") -> None:
    store = Store(path, snapshot_every=7)  # often, so kills land around snapshot writes too
    while True:
        restored = store.current()
        if restored is None:
            game_id = len(store.games()) + 1
            events = match_events(seed, game_id, mode)
            game = Game(events[:1])
            if store.new_game(events[0]) != game_id:
                raise SystemExit("game ids are not sequential")
            print(game_id, 1, flush=True)
        else:
            game_id, game = restored.game_id, restored.game
            events = match_events(seed, game_id, mode)
        done = len(game.journal)
        for seq, event in enumerate(events[done:], done + 1):
            game.apply(event)  # as the app's Session: the game checks, then the journal keeps it
            store.append(game_id, event, game)
            print(game_id, seq, flush=True)  # acknowledged: committed before this line


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), *sys.argv[3:])
