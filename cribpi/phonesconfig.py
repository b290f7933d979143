"""``[phones]``: the table's page for the players' phones (:mod:`cribpi.phones`).

>>> phones_config({"enabled": True, "port": 8131}, lambda key, value, want: ValueError(key)).port
8131
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["PhonesConfig", "phones_config", "PHONES_KEYS", "DEFAULT_PORT"]

DEFAULT_PORT = 8130
PHONES_KEYS = {"enabled": bool, "port": int, "host": str}


@dataclass(frozen=True)
class PhonesConfig:
    enabled: bool = False
    port: int = DEFAULT_PORT
    host: str = "0.0.0.0"  # every address of the Pi's; "127.0.0.1": this machine only


def phones_config(table: Mapping[str, Any], fail: Callable[[str, Any, str], Exception]) -> PhonesConfig:
    """The section's keys (their types checked by the caller); ``fail(key, value, wanted)``
    makes the error for a bad one."""
    port = table.get("port", DEFAULT_PORT)
    if not 1 <= port <= 65535:
        raise fail("phones.port", port, "a port 1-65535 (8130 by default)")
    host = table.get("host", "0.0.0.0")
    if not host or len(host) > 253 or any(c.isspace() for c in host):
        raise fail("phones.host", host, "an address to listen on: 0.0.0.0 (every network), 127.0.0.1 or the Pi's own")
    return PhonesConfig(enabled=table.get("enabled", False), port=port, host=host)
