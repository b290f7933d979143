"""The outbox on its own: ids that only grow (across restarts too), held results released as
confirmed or disputed, and what the broker acknowledged dropped at the next start."""

from __future__ import annotations

import json
from pathlib import Path

from cribpi.tournament.outbox import Outbox, outbox_path


def test_ids_grow_results_wait_and_sent_rows_go_at_restart(tmp_path: Path) -> None:
    path = outbox_path(tmp_path / "cribpi.db")
    assert path == tmp_path / "cribpi-outbox.db"
    box = Outbox(path)
    assert box.add("events", {"game": 1}) == 1
    assert box.add("result", {"game": 1, "status": "confirmed"}, held=True) == 2
    assert box.add("events", {"game": 1}) == 3
    assert [row for row, _, _ in box.pending(0)] == [1, 3]  # the held result waits
    assert box.held() and box.release("disputed") == 1 and not box.held()
    rows = box.pending(0)
    assert [row for row, _, _ in rows] == [1, 2, 3]
    assert json.loads(rows[1][2]) == {"id": 2, "game": 1, "status": "disputed"}
    assert [row for row, _, _ in box.pending(2)] == [3]
    box.mark_sent([1, 2])
    assert box.unsent() == 1
    box.close()
    again = Outbox(path)
    assert again.db.execute("SELECT count(*) FROM tournament_outbox").fetchone()[0] == 1
    assert again.add("events", {"game": 2}) == 4  # never an id the director has seen
    again.close()
