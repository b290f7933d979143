"""The layers of DESIGN.md, checked on the source: imports run one way only, and no module
imports itself back through another (no cycle, local imports included).

    rules -> analysis -> game -> views/record/store -> hal -> wiring -> app -> daemon -> commands

``python tests/test_layers.py`` prints the package-level import graph.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "cribpi"

#: Layer of each top-level module or package; a module may import its own layer or lower ones.
LAYERS = {
    "exc": 0, "inputs": 0, "nesting": 0, "webguard": 0, "rules": 1, "analysis": 2, "game": 3,
    "views": 4, "record": 4, "store": 4,
    "hal": 5, "config": 6, "phonesconfig": 6, "wiring": 6,
    "app": 7, "sim": 7, "phones": 7, "daemon": 8, "systemd": 8, "service": 8, "tournament": 8,
    "commands": 9, "cli": 9, "__main__": 9,
}
#: Within a layer, peers that must still not see each other.
APART = {("views", "store"), ("views", "record"), ("record", "store")}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every cribpi module ``path`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name.startswith("cribpi.")}


def top(module: str) -> str:
    return module.split(".")[1] if module.count(".") else "__init__"


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        for target in imports(path):
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]  # `from pkg import name`: the name may be a function
            if target in modules and target != name:
                edges[name].add(target)
    return edges


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" or p.parent != PACKAGE)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_no_import_runs_upward(path):
    here = top(module_name(path))
    assert here in LAYERS, f"{here} has no layer in tests/test_layers.py: give it one"
    upward = sorted(m for m in imports(path)
                    if top(m) in LAYERS and (LAYERS[top(m)] > LAYERS[here] or (here, top(m)) in APART))
    assert not upward, f"{module_name(path)} (layer {here}) imports {upward}"


def test_every_package_has_a_layer():
    tops = {top(module_name(p)) for p in PACKAGE.rglob("*.py")} - {"__init__"}
    assert tops <= set(LAYERS), sorted(tops - set(LAYERS))


def test_there_is_no_import_cycle():
    edges = graph()
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            pytest.fail("import cycle: " + " -> ".join(path[path.index(node):] + [node]))
        if node in done:
            return
        for target in sorted(edges.get(node, ())):
            if not target.startswith(node + "."):  # a package's __init__ re-exporting its own modules
                visit(target, path + [node])
        done.add(node)

    for module in sorted(edges):
        visit(module, [])


def package_graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for source, targets in graph().items():
        edges[top(source)] |= {top(t) for t in targets if top(t) != top(source) and top(t) != "__init__"}
    return edges


if __name__ == "__main__":
    for name in sorted(LAYERS, key=lambda n: (LAYERS[n], n)):
        below = sorted(package_graph().get(name, ()), key=lambda n: (LAYERS.get(n, 0), n))
        sys.stdout.write(f"{LAYERS[name]} {name:9} -> {', '.join(below) or '(nothing)'}\n")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_no_module_is_over_450_lines(path):
    if path.parent.name == "fonts" and path.name != "__init__.py":
        pytest.skip("generated font data")
    assert len(path.read_text().splitlines()) <= 450, f"{module_name(path)}: split it by job"


#: The tournament's two programs, a package each, neither importing the other: what both use (the
#: messages, the seating message, the broker) is beside them in cribpi.tournament.
SIDES = ("cribpi.tournament.table", "cribpi.tournament.director")


def side_of(module: str) -> str | None:
    return next((side for side in SIDES if module == side or module.startswith(side + ".")), None)


@pytest.mark.parametrize("path", [p for p in SOURCES if side_of(module_name(p))], ids=lambda p: module_name(p))
def test_the_table_and_the_director_do_not_import_each_other(path):
    here = side_of(module_name(path))
    across = sorted(m for m in imports(path) if side_of(m) not in (None, here))
    assert not across, f"{module_name(path)} ({here}) imports the other side's {across}: share it in cribpi.tournament"
