"""Helpers for the service tests: a part that is missing skips here, but fails under CI=true."""

from __future__ import annotations

import os
import shutil

import pytest


def require(tool: str) -> str:
    """The path of ``tool``; skip when it is missing, fail when CI=true (CI must have it)."""
    path = shutil.which(tool)
    if path is None:
        message = f"{tool} is not installed (.ci/bootstrap installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path
