"""What ``cribpi stats``, ``cribpi replay`` and ``cribpi score`` print fits the terminal's
width, wrapped at spaces with the continuation indented, and 80 columns when the output is not
a terminal (a pipe, a file), whatever ``COLUMNS`` says. ``stats`` printed 81 columns; a replay's
rows and a hand's explanation ran to about 200."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from cribpi.cli import main
from cribpi.commands.stats import stats_lines
from cribpi.commands.wrapping import output_columns, wrap
from cribpi.game import Mode, NewGame, Peg
from cribpi.store import PlayerStats, Store, stats

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "game" / "records" / "002_hoyle_pone_counts_out.crib"
HAND = ("5H", "5C", "5S", "JD", "5D")  # 29: the longest explanation there is
NAMES = ("Christopher1", "Maximiliana2")  # twelve characters, the most `cribpi sim --names` takes


def run_in(columns: int | None, *args: str, env: dict[str, str] | None = None) -> str:
    """``cribpi ARGS`` with its output on a terminal ``columns`` wide (None: a pipe)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
    command = [sys.executable, "-m", "cribpi", *args]
    if columns is None:
        return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=True,
                              timeout=60).stdout
    env.pop("COLUMNS", None)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.ONLCR  # the lines as printed, without the terminal's \r
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    with subprocess.Popen(command, stdout=slave, stderr=subprocess.PIPE, env=env, cwd=ROOT) as process:
        os.close(slave)
        out = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            out += chunk
        assert process.wait(60) == 0, process.stderr.read() if process.stderr else ""
    os.close(master)
    return out.decode("utf-8")


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def words(text: str) -> str:
    return " ".join(text.split())


def test_wrap_breaks_at_spaces_only_and_indents_what_follows():
    assert wrap("one two three four", 9, first="- ", rest="  ") == ["- one two", "  three", "  four"]
    assert wrap("a /a/path/longer/than/the/line ends", 10) == ["a", "    /a/path/longer/than/the/line", "    ends"]


def test_a_pipe_is_80_columns_whatever_columns_says(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    with open(os.devnull, "w") as devnull:
        assert output_columns(devnull) == 80
    out = run_in(None, "score", *HAND, env={"COLUMNS": "200"})
    assert widest(out) <= 80 and "and one for his nobs is twenty-nine" in words(out)


# -- score ---------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", [50, 80, 120])
def test_score_explains_within_the_terminal(columns):
    out = run_in(columns, "score", *HAND)
    lines = out.splitlines()
    assert widest(out) <= columns
    said = [line for line in lines if "fifteen two" in line]
    assert said and said[0].startswith("  fifteen two")
    explained = lines[lines.index(said[0]):-1]  # up to "Total: 29"
    assert len(explained) > 1 and all(line.startswith("    ") for line in explained[1:])  # continued, indented
    assert words(" ".join(explained)).endswith("and one for his nobs is twenty-nine")
    assert lines[-1] == "Total: 29"


# -- replay --------------------------------------------------------------------------------


def test_replay_fits_80_columns_when_piped(capsys):
    assert main(["replay", str(RECORD)]) == 0
    out = capsys.readouterr().out
    assert widest(out) <= 80
    assert "Ben +24 hand: fifteen two," in words(out) and "twenty-four Ann 102, Ben 121" in words(out)
    assert all(line.startswith(("line ", "-- ", " " * 28)) for line in out.splitlines()[1:-1])  # continued, indented


@pytest.mark.parametrize("columns", [60, 100, 200])
def test_replay_fits_the_terminal(columns):
    out = run_in(columns, "replay", str(RECORD))
    assert widest(out) <= columns
    piped = run_in(None, "replay", str(RECORD))
    assert words(out) == words(piped)  # the same words, broken elsewhere
    if columns == 200:
        assert len(out.splitlines()) < len(piped.splitlines())  # a wide terminal: a row a line


# -- stats ---------------------------------------------------------------------------------


def _journal(db: Path) -> None:
    from cribpi.game import Game

    with Store(db) as store:
        for winner in (0, 1, 0):
            event = NewGame(NAMES, mode=Mode.BOARD, first_dealer=0)
            game = Game([event])
            game_id = store.new_game(event)
            for peg in (Peg(1 - winner, 95), Peg(winner, 121)):
                game.apply(peg)
                store.append(game_id, peg, game)


def test_stats_fits_80_columns_with_the_longest_names(tmp_path, capsys):
    db = tmp_path / "j.db"
    _journal(db)
    assert main(["stats", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(map(len, lines)) <= 80, lines
    assert lines[0].split()[:3] == ["Player", "Games", "Won"] and lines[1].split()[:3] == [NAMES[0], "3", "2"]


def test_stats_in_a_narrow_terminal_says_each_player_in_words(tmp_path):
    db = tmp_path / "j.db"
    _journal(db)
    out = run_in(50, "stats", "--db", str(db))
    assert widest(out) <= 50
    assert out.splitlines()[0] == NAMES[0] and "games 3, won 2, matches 3, won 2" in words(out)
    with Store(db, read_only=True) as store:
        players: list[PlayerStats] = list(stats(store).values())
    assert stats_lines(players, 80)[0].startswith("Player")  # the table where it fits


def test_the_setup_scripts_messages_fit_80_columns():
    """What ``bash .ci/play`` (and .ci/bootstrap) say while setting up is the first screen a new
    user sees: each ``say`` line, with its ``cribpi: `` prefix and the extras it names (``test``),
    fits 80 columns. "installing cribpi and Pillow with pip (about 10 seconds the first time)..."
    was 82 and wrapped."""
    import re

    long = []
    for script in sorted((ROOT / ".ci").iterdir()):
        for message in re.findall(r'\bsay "([^"]*)"', script.read_text()):
            shown = "cribpi: " + message.replace("${extras[*]}", "test").replace("${missing[*]}", "espeak-ng")
            if len(shown) > 80:
                long.append((script.name, len(shown), shown))
    assert not long
