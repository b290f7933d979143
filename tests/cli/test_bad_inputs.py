"""Every bad input to every command: exit status 2, exactly one line on stderr that says what
was wrong, no traceback, nothing on stdout, and the journal it was given unchanged.

Most cases run in-process through :func:`cribpi.cli.main` (fast); a sample, and every file that
once hung a reader (a FIFO, ``/dev/zero``), run as real ``python -m cribpi`` processes under a
time limit. The cases are in :mod:`bad_input_cases`.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bad_input_cases import CONFIGS, LAYOUTS, RECORDS, cases

from cribpi.cli import COMMANDS, main
from cribpi.game import Game, Mode, NewGame, Peg
from cribpi.hal import is_raspberry_pi
from cribpi.inputs import path_option
from cribpi.store import Store

ROOT = Path(__file__).resolve().parents[2]
CASES = cases()
GOOD_RECORD = '[Players "Ann" "Ben"]\n[Dealer "Ann"]\n\nDeal 1: Ann deals\nStarter: 5H\n'


def test_there_are_at_least_150_cases_and_every_command_has_some() -> None:
    assert len(CASES) >= 150
    covered = {argv[0] for argv, _ in CASES}
    assert {"score", "peg", "advise", "replay", "sim", "render", "run", "stats", "export", "config"} <= covered


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The files the cases name, made once: bad configurations, layouts and records, a FIFO,
    a binary and a huge file, a folder, and a journal holding one finished game."""
    tmp = tmp_path_factory.mktemp("bad-inputs")
    made = {"folder": tmp / "folder", "file": tmp / "plain.txt", "record": tmp / "good.crib",
            "binary": tmp / "binary.bin", "huge": tmp / "huge.txt", "fifo": tmp / "fifo",
            "missing": tmp / "missing.txt", "newdir": tmp / "pictures", "journal": tmp / "state" / "cribpi" / "cribpi.db"}
    made["folder"].mkdir()
    made["file"].write_text("not a folder\n")
    made["record"].write_text(GOOD_RECORD)
    made["binary"].write_bytes(bytes(range(256)) * 4)
    made["huge"].write_text("; comment\n" * 500_000)
    os.mkfifo(made["fifo"])
    names = {key: str(path) for key, path in made.items()}
    for name, text, _ in CONFIGS:
        path = tmp / f"config-{name}.toml"
        path.write_bytes(text.encode() if text is not None else b"a = 1\n\xff")
        names[f"config:{name}"] = str(path)
    for name, text, _ in LAYOUTS:
        layout = tmp / ("missing.toml" if name == "missing" else f"layout-{name}.toml")
        if name == "fifo":
            os.mkfifo(layout)
        elif text is not None:
            layout.write_text(text)
        config = tmp / f"config-layout-{name}.toml"
        config.write_text(f'layout = "{layout.name}"\n')
        names[f"layout:{name}"] = str(config)
        names[f"layoutfile:{name}"] = str(layout)
    for name, text, _ in RECORDS:
        path = tmp / f"record-{name}.crib"
        path.write_text(text, newline="")
        names[f"record:{name}"] = str(path)
    made["journal"].parent.mkdir(parents=True)
    with Store(made["journal"]) as store:
        game = Game([NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0)])
        game_id = store.new_game(game.events[0])
        for event in (Peg(0, 90), Peg(1, 121)):
            game.apply(event)
            store.append(game_id, event, game)
    return names


def fill(argv: list[str], files: dict[str, str]) -> list[str]:
    return [re.sub(r"\{([a-z:0-9-]+)\}", lambda m: files[m.group(1)], word) for word in argv]


def journal_digest(files: dict[str, str]) -> tuple[str, str]:
    """The journal's bytes and its write-ahead log's (SQLite may leave an empty one, and its
    index, after a read: neither is a change)."""
    journal = Path(files["journal"])
    wal = journal.with_name(journal.name + "-wal")
    return (hashlib.sha256(journal.read_bytes()).hexdigest(),
            hashlib.sha256(wal.read_bytes() if wal.exists() else b"").hexdigest())


@pytest.fixture()
def table_env(files: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal is the default one; no configuration or backend comes from the machine."""
    monkeypatch.setenv("XDG_STATE_HOME", str(Path(files["journal"]).parents[1]))
    for name in ("CRIBPI_CONFIG", "CRIBPI_BACKEND", "NOTIFY_SOCKET"):
        monkeypatch.delenv(name, raising=False)


class _Keyboard(io.StringIO):
    """A standard input that says it is a terminal, so ``sim`` checks its options (a bad
    input never gets as far as reading a key)."""

    def isatty(self) -> bool:
        return True


#: No error line is longer than this (cribpi.inputs cuts what it quotes, and the line itself).
MAX_LINE = 1000


def assert_one_line(code: object, out: str, err: str, message: str) -> None:
    assert code == 2, f"exit {code}, stderr {err!r}"
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err!r}"
    assert "Traceback" not in err and out == "", (out, err)
    # nothing that moves the cursor, clears or recolours the terminal: every character printable
    assert err[:-1].isprintable(), f"a control character reached the terminal: {err!r}"
    assert len(err) <= MAX_LINE, f"a line of {len(err)} characters: {err[:200]!r}..."
    assert re.search(message, err), f"{err!r} does not say {message!r}"


@pytest.mark.usefixtures("table_env")
@pytest.mark.parametrize("argv, message", CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], message: str, files: dict[str, str],
                                          capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _Keyboard(""))
    before = journal_digest(files)
    try:
        code: object = main(fill(argv, files))
    except SystemExit as exit_:
        code = exit_.code
    captured = capsys.readouterr()
    assert_one_line(code, captured.out, captured.err, message)
    assert journal_digest(files) == before
    assert not Path(files["newdir"]).exists(), "render made its folder for a record it refused"


@pytest.mark.usefixtures("table_env")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_refuses_an_unknown_option(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--no-such-option-at-all"])
    captured = capsys.readouterr()
    assert_one_line(exit_.value.code, captured.out, captured.err, "unrecognized|required")


def test_replay_of_binary_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    class BinaryStdin:
        buffer = io.BytesIO(b"\x00\xff" * 10)

    monkeypatch.setattr(sys, "stdin", BinaryStdin())
    code = main(["replay", "-"])
    captured = capsys.readouterr()
    assert_one_line(code, captured.out, captured.err, r"standard input: byte 1 is not UTF-8")


#: Run as real processes: the files that once hung a reader, and one case in ten.
PROCESS_CASES = [c for n, c in enumerate(CASES)
                 if c[0][0] != "sim" and not any("\0" in w for w in c[0]) and (n % 10 == 0 or any(w in ("{fifo}", "/dev/zero") for w in c[0]))]


@pytest.mark.parametrize("argv, message", PROCESS_CASES, ids=[" ".join(a)[:60] for a, _ in PROCESS_CASES])
def test_bad_input_as_a_real_process(argv: list[str], message: str, files: dict[str, str]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CRIBPI_CONFIG", "CRIBPI_BACKEND", "NOTIFY_SOCKET")}
    env.update(XDG_STATE_HOME=str(Path(files["journal"]).parents[1]), PYTHONPATH=str(ROOT))
    before = journal_digest(files)
    done = subprocess.run([sys.executable, "-m", "cribpi", *fill(argv, files)], capture_output=True, text=True,
                          timeout=30, stdin=subprocess.DEVNULL, env=env, cwd=files["folder"])
    assert_one_line(done.returncode, done.stdout, done.stderr, message)
    assert journal_digest(files) == before


@pytest.mark.skipif(is_raspberry_pi(), reason="on a Pi the pi backend opens: the table would start")
def test_the_pi_backend_off_a_pi_is_one_line(files: dict[str, str]) -> None:
    """gpiozero warned once per pin library it tried (eight lines) before the error."""
    env = {k: v for k, v in os.environ.items() if k not in ("CRIBPI_CONFIG", "CRIBPI_BACKEND", "GPIOZERO_PIN_FACTORY")}
    env.update(XDG_STATE_HOME=str(Path(files["journal"]).parents[1]), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "cribpi", "run", "--backend", "pi"], capture_output=True,
                          text=True, timeout=30, stdin=subprocess.DEVNULL, env=env, cwd=files["folder"])
    assert_one_line(done.returncode, done.stdout, done.stderr, r"cribpi run: GPIO\d+ .*pin factory")


def test_a_long_path_that_is_a_file_is_named_by_its_end(tmp_path: Path) -> None:
    """A path too long to quote whole is cut in its middle: the file's own name is what tells."""
    deep = tmp_path / ("d" * 70)
    deep.mkdir()
    (deep / "plain.txt").write_text("not a folder\n")
    with pytest.raises(argparse.ArgumentTypeError, match=r"^/.*\.\.\..*/plain\.txt \(\d+ characters\) is a file; "
                                                        r"expected a folder for the pictures"):
        path_option("folder for the pictures", folder=True)(str(deep / "plain.txt"))
