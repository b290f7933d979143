"""A game interrupted by a power cut (SIGKILL) resumes exactly where it was."""

from __future__ import annotations

import signal

import pytest

from daemon_proc import Daemon

pytestmark = pytest.mark.service

# The cut (OK: a random cut), the starter, then cards of the play, each one event.
OPENING = ("ok", "card 6S", "card QH", "card 5C")
MORE = ("card TD", "card 6D")


def test_sigkill_mid_game_then_restart_resumes_the_same_game(tmp_path):
    daemon = Daemon(tmp_path)
    daemon.wait_events(1)  # the NewGame of a fresh journal
    daemon.send(*OPENING)
    before = daemon.wait_events(1 + len(OPENING))
    daemon.proc.kill()  # SIGKILL: no handler runs, as when the plug is pulled
    daemon.proc.wait(timeout=10)
    assert daemon.proc.returncode == -signal.SIGKILL

    again = Daemon(tmp_path)
    assert again.wait_events(before) == before  # the same open game, nothing lost, nothing new
    again.send(*MORE)  # and it goes on from there: both cards are taken as the next events
    assert again.wait_events(before + len(MORE)) == before + len(MORE)
    code, err = again.stop()
    assert code == 0, err
    assert f"at event {before}" in err  # the log names where the restored game stood
    assert f"the game is kept in {again.db}; run `cribpi run --backend mock --config {again.config}" in err


def test_a_damaged_journal_is_moved_aside_and_the_table_starts_afresh(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "cribpi.db").write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)  # a header, then noise
    daemon = Daemon(tmp_path)
    daemon.wait_events(1)  # a fresh game in a fresh journal
    code, err = daemon.stop()
    assert code == 0, err
    assert "journal damaged: moved aside to cribpi.db.damaged-" in err
    assert len(list(state.glob("cribpi.db.damaged-*"))) == 1
