"""One headless Chromium (through playwright) for a module's page tests: the tournament's pages
and the phones' page. Import the fixture into a conftest.py (or a test module) to use it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.sim.conftest import require, require_module

__all__ = ["CHROMIUM_ARGS", "chromium_once"]

CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="module")
def chromium_once() -> Iterator[Any]:
    """One headless Chromium for a module's tests (starting one costs about half a second);
    test_browser's ``browser`` fixture closes each test's pages after it."""
    chromium = require("chromium")
    sync_api = require_module("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()
