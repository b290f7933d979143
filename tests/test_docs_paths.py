"""The docs name only what exists: every path, module and link in README.md, docs/*.md and
the hardware, firmware and systemd READMEs is in the checkout; every `cribpi COMMAND` they
show is a command, with options it has; the README's layout of the code names every part of
the package; and the Pico is flashed one way everywhere (`cribpi flash`)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import re
from pathlib import Path

import pytest

from cribpi.cli import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), ROOT / "hardware" / "README.md",
               ROOT / "firmware" / "README.md", ROOT / "systemd" / "README.md"])
#: Where a path written from the checkout's root starts.
TOP = ("cribpi/", "firmware/", "hardware/", "docs/", "tests/", "systemd/", "benchmarks/", "tools/", ".ci/")
#: Paths the docs name that are made at run time, not kept in the checkout.
MADE = (".cribpi/", ".venv/")


def code_of(text: str) -> list[str]:
    """The text of every fenced block and every inline code span."""
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.S | re.M)
    spans = re.findall(r"(`+)(.+?)\1", prose, re.S)
    return blocks + [span for _, span in spans]


def named_paths(doc: Path) -> set[str]:
    """Words of the doc's code that are paths in the checkout, and the targets of its links."""
    text = doc.read_text()
    words = {w.strip("\"'(),;:") for code in code_of(text) for w in code.split()}
    paths = {w for w in words if re.fullmatch(r"(?:\.\./)*\.?\w[\w-]*(?:/[\w.*-]+)*/?", w) and "/" in w}
    # a path is the checkout's when it starts at a folder the checkout has (else it is an
    # example of the user's, such as a director's event folder)
    paths = {p for p in paths if p.startswith("../") or any((base / p.split("/")[0]).is_dir() for base in (ROOT, doc.parent))}
    links = {target.split("#")[0] for target in re.findall(r"\]\(([^)\s]+)\)", text)}
    links = {t for t in links if t and not re.match(r"[a-z]+:", t)}
    return {p for p in paths | links if not p.startswith(MADE)}


def resolve(doc: Path, path: str) -> list[Path]:
    bases = [ROOT, doc.parent] if path.startswith(TOP) else [doc.parent, ROOT]
    for base in bases:
        found = sorted(base.glob(path.rstrip("/"))) if "*" in path else [base / path]
        found = [p for p in found if p.exists()]
        if found:
            return found
    return []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_doc_names_is_in_the_checkout(doc):
    missing = sorted(p for p in named_paths(doc) if not resolve(doc, p))
    assert not missing, f"{doc.relative_to(ROOT)} names what the checkout lacks: {missing}"


def test_the_path_check_sees_the_names_it_must():
    readme = named_paths(ROOT / "README.md")
    assert {"cribpi/daemon/", "docs/usage.md", "hardware/README.md", "benchmarks/"} <= readme
    assert not resolve(ROOT / "README.md", "cribpi/daemon.py")  # the old name: caught


def modules_named(doc: Path) -> set[str]:
    words = {w.strip("\"'(),;:") for code in code_of(doc.read_text()) for w in code.split()}
    files = (".db", ".lock", ".toml", ".service", ".timer", ".rules")  # cribpi.db.lock is a file beside the journal
    return {w for w in words if re.fullmatch(r"cribpi(?:\.\w+)+", w) and not re.search(r"\.(db|lock|toml|service|timer|rules)\b", w)
            and not w.endswith(files)}


def importable(name: str) -> bool:
    """``name`` is a module, or an attribute of one (``cribpi.config.DEFAULT_PINS``)."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            if importlib.util.find_spec(module) is None:
                continue
        except ModuleNotFoundError:
            continue
        thing = importlib.import_module(module)
        for attr in parts[cut:]:
            if not hasattr(thing, attr):
                return False
            thing = getattr(thing, attr)
        return True
    return False


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_module_a_doc_names_imports(doc):
    missing = sorted(m for m in modules_named(doc) if not importable(m))
    assert not missing, f"{doc.relative_to(ROOT)} names modules that do not exist: {missing}"


def commands_named(doc: Path) -> list[tuple[str, list[str]]]:
    """Each `cribpi COMMAND ...` of the doc's code: the command and the words after it (to the
    end of its line, a comment or a pipe)."""
    found = []
    for code in code_of(doc.read_text()):
        for line in code.splitlines():
            # cribpi where a command starts: a line's start, after sudo, &&, ;, | or a bin/ folder
            at = r"(?:^\s*|(?:sudo|&&|;|\||\$)\s+|\S*/bin/)"
            for match in re.finditer(at + r"cribpi ([a-z][\w-]*)((?:[^#|&`]*))", line):
                found.append((match[1], match[2].split()))
    return found


def options_of(command: str, words: list[str]) -> set[str]:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    options = set()
    while True:
        options |= {o for a in sub._actions for o in a.option_strings}
        inner = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        step = next((w for w in words if inner and w in inner[0].choices), None)
        if step is None:
            return options
        sub = inner[0].choices[step]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_cribpi_command_a_doc_shows_exists_with_its_options(doc):
    for command, words in commands_named(doc):
        assert command in COMMANDS, f"{doc.relative_to(ROOT)} shows `cribpi {command}`: no such command"
        options = options_of(command, words) | {"--help", "-h", "--version"}
        unknown = [w for w in words if w.startswith("--") and w.split("=")[0] not in options]
        assert not unknown, f"{doc.relative_to(ROOT)}: `cribpi {command}` has no {unknown}"


def test_the_command_check_sees_the_commands_it_must():
    shown = {command for doc in DOCS for command, _ in commands_named(doc)}
    assert {"run", "sim", "flash", "install", "doctor", "director"} <= shown
    assert ("flash", ["--layout", "FILE"]) in commands_named(ROOT / "README.md")


def test_the_readmes_layout_of_the_code_names_every_part_of_the_package():
    section = (ROOT / "README.md").read_text().split("## Layout of the code", 1)[1].split("\n## ", 1)[0]
    package = ROOT / "cribpi"
    parts = {f"cribpi/{p.name}/" for p in package.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    parts |= {f"cribpi/{p.name}" for p in package.glob("*.py") if p.name not in ("__init__.py", "__main__.py")}
    named = set(re.findall(r"`(cribpi/[\w.]+/?)`", section))
    assert parts <= named, f"the README's layout leaves out {sorted(parts - named)}"
    assert named <= parts, f"the README's layout names what is not there: {sorted(named - parts)}"


def test_the_readmes_layers_are_the_ones_tests_test_layers_checks():
    from tests.test_layers import LAYERS

    section = (ROOT / "README.md").read_text().split("## Layout of the code", 1)[1]
    chain = next(line for line in section.splitlines() if line.startswith("rules → "))
    said = [{name for name in re.split(r"[ ,/]+", step) if name} for step in chain.split(" → ")]
    there = {p.stem for p in (ROOT / "cribpi").iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    levels: dict[int, set[str]] = {}
    for name, level in LAYERS.items():
        if name in there and name not in ("exc", "inputs", "nesting", "webguard", "__init__", "__main__"):
            levels.setdefault(level, set()).add(name)
    assert said == [levels[level] for level in sorted(levels)]


def test_every_doc_flashes_the_pico_with_cribpi_flash():
    """`python -m cribpi.hal.controller.flash` needs the venv's python; on a Pi set up by
    docs/install.md only `cribpi` is on the PATH. One way, everywhere."""
    for doc in DOCS:
        assert "python -m cribpi.hal.controller.flash" not in doc.read_text(), doc.relative_to(ROOT)
    for doc in ("README.md", "firmware/README.md", "docs/install.md"):
        assert "cribpi flash --layout" in (ROOT / doc).read_text(), doc
    assert "`cribpi flash`" in (ROOT / "hardware" / "README.md").read_text()
