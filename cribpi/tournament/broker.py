"""Connecting to the room's broker with paho-mqtt 2.x (VERSION2 callbacks), shared by the
table's publisher, the director and the load generator, so each reads a broker URL, its
credentials and TLS CA the same way."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from cribpi.exc import ConfigError

__all__ = ["Broker", "parse_broker", "new_client"]

_URL = re.compile(r"(mqtts?)://([^/\s:]+)(?::(\d{1,5}))?/?")


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca: Path | None = None


def parse_broker(url: str, *, username: str | None = None, password: str | None = None,
                 password_file: Path | None = None, ca: Path | None = None) -> Broker:
    """``mqtt://host[:1883]`` or ``mqtts://host[:8883]``; a password file holds the password on
    its first line (so it stays out of the configuration and the process list)."""
    match = _URL.fullmatch(url.strip())
    if match is None:
        raise ConfigError(f"broker {url!r} is not valid: mqtt://host[:port] or mqtts://host[:port]")
    scheme, host, port = match.groups()
    tls = scheme == "mqtts"
    number = int(port) if port else (8883 if tls else 1883)
    if not 0 < number < 65536:
        raise ConfigError(f"broker {url!r}: port {number} is not valid: 1-65535")
    if password_file is not None:
        try:
            password = password_file.read_text(encoding="utf-8").splitlines()[0].strip()
        except (OSError, IndexError) as exc:
            raise ConfigError(f"password file {password_file}: cannot read a password from it ({exc})") from None
    return Broker(host, number, tls, username, password, ca)


def new_client(broker: Broker, client_id: str = "", *, max_delay: int = 5, clean_session: bool = True) -> mqtt.Client:
    """A client for ``broker`` that reconnects by itself (1 s, doubling up to ``max_delay``);
    ``clean_session=False`` keeps its subscriptions and queued messages at the broker."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session)
    if broker.username is not None:
        client.username_pw_set(broker.username, broker.password)
    if broker.tls:
        client.tls_set(ca_certs=str(broker.ca) if broker.ca else None)
    client.reconnect_delay_set(1, max_delay)
    return client
