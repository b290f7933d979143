"""The firmware's modules importable under CPython, with the stand-ins for the Pico's own
modules (stubs/: machine, rp2, micropython, neopixel) ahead of anything else of those names.
Every test here is marked ``firmware`` (``pytest -m firmware`` runs them alone)."""

import sys

import pytest

from tests.firmware.rig import FIRMWARE, STUBS

for folder in (str(FIRMWARE), str(STUBS)):
    if folder not in sys.path:
        sys.path.insert(0, folder)


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/firmware/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.firmware)
