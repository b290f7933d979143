"""cribpi.rules as a library: its doctests pass and it stands on the standard library alone."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import cribpi.rules

PACKAGE_DIR = Path(cribpi.rules.__file__).resolve().parent
MODULES = sorted(
    ["cribpi.rules"] + [f"cribpi.rules.{m.name}" for m in pkgutil.iter_modules([str(PACKAGE_DIR)])]
)
ALLOWED_OWN = ("cribpi.rules", "cribpi.exc")


def test_there_are_modules_to_check() -> None:
    assert {"cribpi.rules.cards", "cribpi.rules.show", "cribpi.rules.play", "cribpi.rules.presets"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_the_core_modules_have_doctests() -> None:
    finder = doctest.DocTestFinder()
    for name in ("cribpi.rules.cards", "cribpi.rules.show", "cribpi.rules.play", "cribpi.rules.presets"):
        tests = finder.find(importlib.import_module(name))
        assert sum(len(t.examples) for t in tests) > 0, f"{name} has no doctest examples"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # a relative import stays inside cribpi.rules
                names.add("cribpi.rules")
            elif node.module:
                names.add(node.module)
    return names


def is_allowed(name: str) -> bool:
    top = name.split(".")[0]
    if top == "cribpi":
        return any(name == own or name.startswith(own + ".") for own in ALLOWED_OWN)
    return top in sys.stdlib_module_names or top == "__future__"


@pytest.mark.parametrize("path", sorted(PACKAGE_DIR.glob("*.py")), ids=lambda p: p.name)
def test_rules_imports_only_the_standard_library_and_itself(path: Path) -> None:
    bad = sorted(name for name in imported_modules(path) if not is_allowed(name))
    assert not bad, f"{path.name} imports {', '.join(bad)}: cribpi.rules must stay pure (stdlib, cribpi.rules, cribpi.exc)"


def test_the_import_check_catches_outsiders() -> None:
    assert not is_allowed("numpy")
    assert not is_allowed("cribpi.game")
    assert not is_allowed("cribpi.hal.pi")
    assert is_allowed("itertools") and is_allowed("cribpi.exc") and is_allowed("cribpi.rules.cards")


def test_importing_the_rules_stays_cheap() -> None:
    """``import cribpi.rules`` neither unpacks the show table nor imports typing (3 ms on its
    own; the rules name typing's types only for the type checker), dataclasses or inspect
    (11 ms of the 17 that the import took: the rules' values are :mod:`cribpi.rules.values`)."""
    heavy = {"typing", "dataclasses", "inspect", "cribpi.rules._show_table"}
    code = f"import sys; before = set(sys.modules); import cribpi.rules; print(sorted({heavy!r} & (set(sys.modules) - before)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"
