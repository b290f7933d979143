"""The whole suite's scheduling and its cost report.

Side by side (``pytest -n 2 --dist loadgroup``, as ``.ci/test`` runs it), a module's tests stay
on one worker, so a module's real part (a broker, a browser, a booted Pico) starts once, as it
does in one process. Parts that are one per machine are a group each and run one test at a time:
the Debian machines of tests/systemd (one ``systemd-nspawn`` machine name, and each boots a whole
systemd), and the emulated Picos. Those groups are handed out first, being the longest.

At the end of every run the time of each test folder is printed beside pytest's slowest tests
(``--durations``), so the cost of the suite is visible in every run, and how many tests of each
marker ran and skipped, so a real part that stopped running (or is skipped) is seen at once."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).parent
# Folders whose tests share one machine-wide part, in the order they are handed out.
MACHINE_WIDE = {"systemd": "machine", "firmware/pico": "pico"}
_spent: dict[str, float] = defaultdict(float)
_counted: dict[str, int] = defaultdict(int)
# Tests of each marker that ran (passed or failed) and that skipped: a real part skipped in CI shows.
_by_marker: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
_markers: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    names = (line.split(":", 1)[0].split("(", 1)[0].strip() for line in config.getini("markers"))
    _markers[:] = list(dict.fromkeys(names))  # a marker declared twice counted once


def folder_of(path: Path) -> str:
    """The test folder a test file is in, relative to tests/ ("." for tests/ itself)."""
    return str(path.parent.relative_to(TESTS)) if path.is_relative_to(TESTS) else str(path.parent)


def group_of(path: Path) -> str:
    folder = folder_of(path)
    return MACHINE_WIDE.get(folder, str(path.relative_to(TESTS)) if path.is_relative_to(TESTS) else str(path))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    order = list(MACHINE_WIDE.values())
    first = {name: rank for rank, name in enumerate(order)}
    # A stable sort: the machine-wide groups first (with --no-loadscope-reorder xdist keeps it).
    items.sort(key=lambda item: first.get(group_of(item.path), len(order)))


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: unknown without it
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``--dist loadgroup``: a work unit a group (:func:`group_of`), found from the test's
    path. xdist's own loadgroup reads ``xdist_group`` marks by renaming the test's node id,
    which pytest 9 no longer lets it do: every test was its own unit, and two tests/systemd
    modules booted their machine (one name, cribpi-test) at once on the two workers."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(TESTS.parent / nodeid.split("::", 1)[0])

    return ByGroup(config, log)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = Path(report.fspath)
    folder = folder_of(TESTS.parent / path if not path.is_absolute() else path)
    _spent[folder] += report.duration
    if report.when == "call" or (report.when == "setup" and report.skipped):
        _counted[folder] += 1
        outcome = "skipped" if report.skipped else "ran"
        for marker in _markers:
            if marker in report.keywords:
                _by_marker[marker][outcome] += 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _spent:
        return
    terminalreporter.section("time by test folder (setup + call + teardown, all workers)")
    width = max(len(folder) for folder in _spent)
    for folder, seconds in sorted(_spent.items(), key=lambda kv: -kv[1]):
        terminalreporter.write_line(f"{folder:<{width}}  {seconds:8.1f} s  {_counted[folder]:5d} tests")
    terminalreporter.write_line(f"{'all':<{width}}  {sum(_spent.values()):8.1f} s  {sum(_counted.values()):5d} tests")
    terminalreporter.section("tests by marker (ran = passed or failed)")
    for marker in _markers:
        if marker in _by_marker:
            tally = _by_marker[marker]
            terminalreporter.write_line(f"{marker:<12} {tally['ran']:5d} ran  {tally['skipped']:4d} skipped")
