"""The command registry: each command imports only its own module, and the registry's help lines
stay those the modules give their own parsers."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cribpi.cli import COMMANDS, build_parser, chosen_command

ROOT = Path(__file__).resolve().parents[2]


def loaded_after(*argv: str) -> set[str]:
    """The cribpi modules a fresh interpreter has loaded after running ``cribpi argv``."""
    code = (
        "import contextlib, io, json, sys\n"
        "from cribpi.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({list(argv)!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cribpi'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=60, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def packages(loaded: set[str]) -> set[str]:
    """The cribpi packages among ``loaded`` (``cribpi.game`` for ``cribpi.game.play``)."""
    return {".".join(m.split(".")[:2]) for m in loaded if "." in m}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_registry_help_is_the_modules_own(name: str) -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    importlib.import_module(f"cribpi.commands.{name}").add_parser(sub)
    (action,) = sub._choices_actions
    assert action.dest == name
    assert action.help == COMMANDS[name]


def test_help_imports_no_command() -> None:
    loaded = loaded_after("--help")
    assert not {m for m in loaded if m.startswith("cribpi.commands.")}
    assert "cribpi.rules" not in loaded


def test_score_imports_only_the_scorer() -> None:
    loaded = loaded_after("score", "5H", "5C", "5S", "JD", "5D")
    commands = {m for m in loaded if m.startswith("cribpi.commands.") and m.rsplit(".", 1)[1] in COMMANDS}
    assert commands == {"cribpi.commands.score"}
    # besides its command, only the commands' own output helper (the terminal's width, wrapping)
    assert {m for m in loaded if m.startswith("cribpi.commands.")} <= {"cribpi.commands.score", "cribpi.commands.wrapping"}
    assert not packages(loaded) & {"cribpi.analysis", "cribpi.game", "cribpi.hal", "cribpi.store", "cribpi.views"}


def test_advise_imports_the_analysis_but_not_the_game() -> None:
    loaded = loaded_after("advise", "5H", "5C", "5S", "JD", "9C", "KD", "--dealer")
    assert {m for m in loaded if m.startswith("cribpi.commands.")} == {"cribpi.commands.advise"}
    assert "cribpi.analysis" in loaded
    assert not packages(loaded) & {"cribpi.game", "cribpi.hal", "cribpi.store", "cribpi.views"}


def test_the_chosen_command_is_the_first_word_that_is_not_an_option() -> None:
    assert chosen_command(["score", "5H"]) == "score"
    assert chosen_command(["--version"]) is None
    assert chosen_command(["-h", "peg", "4"]) == "peg"
    assert chosen_command(["bogus", "score"]) is None
    assert chosen_command([]) is None


def test_a_command_not_chosen_still_parses_as_a_listed_choice() -> None:
    parser = build_parser("score")
    args = parser.parse_args(["score", "--crib", "5H", "5C", "5S", "JD", "5D"])
    assert args.crib is True and callable(args.run)
    with pytest.raises(SystemExit) as exc:
        parser.parse_args(["nope"])
    assert exc.value.code == 2
