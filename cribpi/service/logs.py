"""Logging to stderr with levels. Under systemd (``$JOURNAL_STREAM`` set) each line starts with
its syslog priority (``<3>`` for an error), which journald reads as the entry's level, so
``journalctl -u cribpi -p warning`` filters; in a terminal the level is written as a word."""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

__all__ = ["configure_logging"]

_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class _JournalFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return f"<{_PRIORITY.get(record.levelno, 6)}>{super().format(record)}"


class _Handler(logging.StreamHandler[TextIO]):
    """cribpi's own handler (so a second configure_logging finds it)."""


def configure_logging(level: int = logging.INFO) -> None:
    """One stderr handler on the root logger (once; a second call changes nothing)."""
    root = logging.getLogger()
    if any(isinstance(h, _Handler) for h in root.handlers):
        return
    handler = _Handler(sys.stderr)
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(_JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("cribpi %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(level)
