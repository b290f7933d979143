"""The comparison the phone tests make, checked on the board alone: a scripted game keyed on
the shared keypad gives a journal, LED frames and OLED images, and the same game keyed through
the simulator's action queue into the table's running loop (timers, animations) gives the
same ones; a game keyed differently does not (the comparison can fail)."""

from __future__ import annotations

import pytest

from cribpi.game import Mode, Phase
from tests.phones.table_script import (
    DEALS, DealScript, LoopTable, board_actions, board_table, call, play_deals, play_on_board, sim_key,
)


@pytest.mark.parametrize("players, mode", [(2, Mode.COUNT), (3, Mode.CLAIM), (4, Mode.COUNT)])
def test_the_loop_keyed_through_the_queue_gives_what_the_board_alone_gives(tmp_path, players, mode):
    with board_table(tmp_path / "board", players, mode) as board:
        play_on_board(board, DEALS[players])
    with LoopTable(tmp_path / "queued", players, mode) as queued:
        play_deals(queued, DEALS[players], lambda step: [sim_key(queued, a) for a in board_actions(step, queued.ui)],
                   ask=call)
    assert board.ui.state.phase is Phase.STARTER and board.ui.state.deal is not None  # two whole deals
    assert queued.journal() == board.journal() and len(board.journal()) > 25
    assert [s.events for s in queued.recorder.snapshots] == [s.events for s in board.recorder.snapshots]
    assert [s.frame for s in queued.recorder.snapshots] == [s.frame for s in board.recorder.snapshots]
    assert [s.image for s in queued.recorder.snapshots] == [s.image for s in board.recorder.snapshots]
    assert queued.presses == board.presses


def test_another_game_differs(tmp_path):
    other = (DealScript("5S", (("9C", "TC", "8C", "7C"), ("TD", "9D", "8D", "7D")), ("2C", "3C", "4H", "6S")),)
    with board_table(tmp_path / "a", 2, Mode.COUNT) as a:
        play_on_board(a, DEALS[2][:1])
    with board_table(tmp_path / "b", 2, Mode.COUNT) as b:
        play_on_board(b, other)
    assert a.journal() != b.journal()
    first = next(i for i, (x, y) in enumerate(zip(a.recorder.snapshots, b.recorder.snapshots)) if x.events != y.events)
    assert a.recorder.snapshots[first].image != b.recorder.snapshots[first].image
