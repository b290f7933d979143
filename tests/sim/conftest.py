"""Helpers for the simulator's tests: a real table on the sim backend, and parts that are
missing skip here but fail under CI=true (.ci/bootstrap installs them)."""

from __future__ import annotations

import importlib
import os
import random
import shutil
from types import ModuleType

import pytest

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.config import Config
from cribpi.game import Mode
from cribpi.sim import Terminal
from cribpi.wiring import open_parts


def _missing(message: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def require(tool: str) -> str:
    """The path of the program ``tool``; skip without it, or fail when CI=true."""
    path = shutil.which(tool)
    if path is None:
        _missing(f"{tool} is not installed (.ci/bootstrap installs it)")
    assert path is not None
    return path


def require_module(name: str) -> ModuleType:
    """The Python module ``name``; skip without it, or fail when CI=true."""
    try:
        return importlib.import_module(name)
    except ImportError:
        _missing(f"the Python module {name} is not installed (pip install -e '.[test]')")
        raise


def sim_table(players: int = 2, seed: int = 1, mode: Mode = Mode.COUNT) -> Terminal:
    """A started table on the sim parts, with its (not running) terminal."""
    names = ("Ann", "Bob", "Cat", "Dan")
    table = TableUI(TableSettings(names=names, players=players, mode=mode), rng=random.Random(seed))
    app = TableApp(open_parts(Config(), "sim"), table)
    terminal = Terminal(app, app.parts)
    app.start()
    return terminal
