"""``play()`` in-process on mock parts: a restored game is drawn at once, and SIGTERM leaves
the board paused (the pegs pulsing slowly) and the OLED blank."""

from __future__ import annotations

import os
import random
import signal
import threading

from cribpi.app import TableSettings, open_table
from cribpi.config import Config
from cribpi.daemon.table import TABLE, pause, play
from cribpi.hal import Action
from cribpi.hal.mock import open_mock
from cribpi.store import Store
from cribpi.views.board import Animation


def test_a_restored_game_is_redrawn_at_start_and_paused_at_sigterm(tmp_path):
    db = tmp_path / "cribpi.db"
    settings = TableSettings(table=TABLE)
    with Store(db) as store:  # a game left mid-way: the cut made, the starter turned, a card laid
        ui = open_table(store, settings, rng=random.Random(3))
        for text in ("ok", "card 6S", "card QH"):
            ui.handle(Action.parse(text))
        board, journal = ui.board(), ui.session.game.journal
    assert len(journal) == 4

    parts = open_mock()
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGTERM))
    timer.start()
    try:
        assert play(Config(db=db), parts, settings) == 0
    finally:
        timer.cancel()
    assert parts.boards[0].tracks == board.tracks  # the LEDs show the restored pegs before any key
    paused = parts.boards[-1]
    assert paused.animation is Animation.WAITING and paused.tracks == board.tracks
    assert not any(parts.image.tobytes())  # "Paused", dimmed, then blanked as luma lets the OLED go
    with Store(db, read_only=True) as store:
        assert store.current(TABLE).game.journal == journal  # nothing added, nothing lost


def test_pause_never_raises_on_failing_parts():
    """The stop path runs on guarded parts: a dead OLED or pegboard cannot stop the shutdown."""
    from cribpi.daemon.table import guarded_app
    from cribpi.app import TableUI

    parts = open_mock()
    app, guard = guarded_app(parts, TableUI(TableSettings()))
    parts.memory.unplug()
    parts.fail_display(OSError(121, "Remote I/O error"))
    pause(app)
    assert len(guard.problems()) == 2
