"""A game interrupted by a power cut (SIGKILL) resumes exactly where it was."""

from __future__ import annotations

import signal

import pytest

from daemon_proc import Daemon

pytestmark = pytest.mark.service

# The cut keyed (OK's random cut ties one time in 17, and is cut again), the starter, then cards
# of the play: four events.
OPENING = ("card 3C", "card 9D", "card 6S", "card QH", "card 5C")
OPENING_EVENTS = 4
MORE = ("card TD", "card 6D")


def test_sigkill_mid_game_then_restart_resumes_the_same_game(tmp_path):
    daemon = Daemon(tmp_path)
    daemon.wait_events(1)  # the NewGame of a fresh journal
    daemon.send(*OPENING)
    before = daemon.wait_events(1 + OPENING_EVENTS)
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


def test_a_key_script_drives_the_mock_backend_only(tmp_path):
    import subprocess
    import sys

    keys = tmp_path / "keys"
    keys.write_text("ok\n")
    done = subprocess.run([sys.executable, "-m", "cribpi", "run", "--backend", "sim", "--keys", str(keys)],
                          capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin",
                                                                           "STATE_DIRECTORY": str(tmp_path)})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"cribpi run: --keys {keys}: a key script drives the mock backend only (add --backend mock)"]


def test_a_key_script_file_is_read_once_and_a_bad_line_is_skipped(tmp_path, caplog):
    import queue

    from cribpi.hal import Action
    from cribpi.hal.mock import KeyScript

    keys = tmp_path / "keys"
    keys.write_text("ok\nfly away\n\ncard 5H\n")
    got: queue.SimpleQueue = queue.SimpleQueue()
    script = KeyScript(keys)
    script.start(got.put)
    assert [got.get(timeout=30), got.get(timeout=30)] == [Action.parse("ok"), Action.parse("card 5H")]
    script.close()
    assert "skipped 'fly away'" in caplog.text
