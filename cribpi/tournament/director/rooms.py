"""``cribpi director init --rooms hall:24,annex:16``: one event across several rooms.

Each room has its own network and its own mosquitto (its tables connect to it, as in a
one-room event); each room's broker is bridged to the director's, and the director follows
the director's broker only. The bridges are mosquitto's own (``connection`` in the room's
``mosquitto.conf``), nothing of ours:

- out, from the room to the director's broker: ``cribpi/<event>/tables/<table>/#`` of that
  room's tables, one line a table (mosquitto's topic patterns cannot say "this room's tables"
  with a wildcard);
- in, from the director's broker: ``cribpi/<event>/director`` (the session), and
  ``acks/<table>`` and ``seats/<table>`` of that room's tables only.

``cleansession false`` keeps the bridge's session on both brokers: while a link is down the
room's broker queues what its tables send (QoS 1, bounded by the room's limits) and the
director's broker what it sends them, each delivered when the link is back. The tables keep
everything in their outboxes until the director says it has it (the ``acks`` topic), so a room
broker that dies with messages queued loses nothing a table was told had arrived.

The bridge logs in to the director's broker as its own user (``room-<name>``), which the
director's ACL lets write only its room's tables' topics and read only what those tables may
read. Its notifications (``notification_topic``, the bridge's will) say on
``cribpi/<event>/rooms/<name>`` whether the link is up (``1``) or not (``0``): the director
shows which rooms are out of reach, and since when (:mod:`.roomlink`).

Table ids are unique across the event: the rooms' tables are numbered on, room after room
(hall t1-t24, annex t25-t40), and ``rooms.json`` in the event's folder says which room has
which (``cribpi loadgen --room``), as the event's database does (the seating names the room).
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cribpi.exc import ConfigError
from cribpi.tournament.director.room import (
    BROKER_DIR, BROKER_FILES, CREDENTIALS, DIRECTOR, MAX_TABLES, _conf_path, _fsync_file, _hand_to_broker,
    ROOMS_FILE, broker_conf, check_bind, check_event_options, check_user, fsync_dir, private_file, read_rooms,
    table_acl, table_ids, write_passwd,
)
from cribpi.tournament.messages import NAME

__all__ = ["RoomSpec", "Event", "parse_rooms", "write_rooms", "bridge_user", "rooms_of", "read_rooms", "ROOMS_FILE",
           "ROOMS_DIR", "init_rooms", "link_topic", "BRIDGE_KEEPALIVE", "parse_address"]

ROOMS_DIR = "rooms"  # each room's folder: rooms/<name>/ (its broker/ and its tables' credentials.json)
ROOM_NAME = re.compile(r"[a-z][a-z0-9-]{0,15}")
BRIDGE_KEEPALIVE = 10  # s: a link that dies silently (a cable pulled) is noticed by both sides within 15 s
MAX_ROOMS = 16


@dataclass(frozen=True)
class RoomSpec:
    name: str
    tables: int
    port: int = 1883  # the room's broker's port (on the room's own Pi: the same in every room)


@dataclass
class Event:
    """What ``init --rooms`` made: the director's broker and each room's."""

    folder: Path
    port: int  # the director's broker's
    credentials: dict[str, str]  # every user: the director, each bridge, each table
    rooms: dict[str, list[str]]  # room -> its tables
    confs: dict[str, Path] = field(default_factory=dict)  # "" (the director's) or a room -> its mosquitto.conf
    broker_user: str | None = None

    @property
    def conf(self) -> Path:
        return self.confs[""]


def bridge_user(room: str) -> str:
    """The bridge's user on the director's broker (no table's id: a table is ``t<n>``)."""
    return f"room-{room}"


def link_topic(event: str, room: str) -> str:
    """Where a room's bridge says whether its link to the director's broker is up (``1``) or not (``0``)."""
    return f"cribpi/{event}/rooms/{room}"


def parse_rooms(text: str) -> list[RoomSpec]:
    """``hall:24,annex:16`` (or ``hall:24:1884``, a port of its own): each room's name and tables."""
    rooms: list[RoomSpec] = []
    for part in text.split(","):
        bits = part.strip().split(":")
        if len(bits) not in (2, 3) or not ROOM_NAME.fullmatch(bits[0]) or not all(b.isdigit() for b in bits[1:]):
            raise ConfigError(f"--rooms {text[:80]!r} is not valid: NAME:TABLES[:PORT] separated by commas"
                              " (hall:24,annex:16); a name of 1-16 lower-case letters, digits or -, starting with a letter")
        name, tables, port = bits[0], int(bits[1]), int(bits[2]) if len(bits) == 3 else 1883
        if not 1 <= tables <= MAX_TABLES or not 1 <= port <= 65535:
            raise ConfigError(f"--rooms {part.strip()!r} is not valid: 1-{MAX_TABLES} tables, a port 1-65535")
        if any(r.name == name for r in rooms):
            raise ConfigError(f"--rooms: room {name!r} is named twice; each room once")
        rooms.append(RoomSpec(name, tables, port))
    if len(rooms) > MAX_ROOMS or sum(r.tables for r in rooms) > MAX_TABLES:
        raise ConfigError(f"--rooms: at most {MAX_ROOMS} rooms and {MAX_TABLES} tables in all")
    return rooms


def parse_address(text: str) -> tuple[str, int]:
    """``--bridge-to HOST[:PORT]``: the director's broker as the rooms reach it (an IPv4 address
    or a host name: an IPv6 address is not taken, its form in a bridge's ``address`` untested)."""
    host, _, port = text.partition(":")
    port = port or "1883"
    try:
        if port.isdigit() and 1 <= int(port) <= 65535 and ":" not in check_bind(host):
            return check_bind(host), int(port)
    except ConfigError:
        pass
    raise ConfigError(f"--bridge-to {text[:60]!r} is not valid: HOST[:PORT], the director's broker as the rooms"
                      " reach it, an IPv4 address or a host name (192.168.10.1:1883)")


def _director_acl(event: str, rooms: dict[str, list[str]]) -> str:
    lines = [f"# the director's broker for event {event}: the director and one bridge a room, nothing else.",
             "# Each bridge writes only its room's tables' topics (and its link's state) and reads only",
             "# what its room's tables may read: the director's announcement, their acks and seats.",
             f"user {DIRECTOR}", f"topic read cribpi/{event}/#", f"topic write cribpi/{event}/director",
             f"topic write cribpi/{event}/acks/#", f"topic write cribpi/{event}/seats/#", ""]
    for room, tables in rooms.items():
        lines += [f"user {bridge_user(room)}", f"topic write {link_topic(event, room)}",
                  f"topic read cribpi/{event}/director"]
        for table in tables:
            lines += [f"topic write cribpi/{event}/tables/{table}/#", f"topic read cribpi/{event}/acks/{table}",
                      f"topic read cribpi/{event}/seats/{table}"]
        lines.append("")
    return "\n".join(lines)


def _room_acl(event: str) -> str:
    """A room's broker: its tables as in a one-room event (the bridge's own side of the room's
    broker is not held to the ACL by mosquitto: it is the broker's own connection)."""
    return ("# each table writes only under its own id and reads the director's announcement and its\n"
            "# own acknowledgements and seating (they come over the bridge from the director's broker)\n"
            + table_acl(event))


def _bridge(event: str, room: str, tables: list[str], password: str, to: tuple[str, int],
            ca: str | None) -> str:
    """The room's bridge to the director's broker (mosquitto.conf(5), CONFIGURING BRIDGES; every
    directive is in mosquitto 2.0.11, Debian bookworm's)."""
    host = to[0]
    lines = [
        "", f"# the bridge to the director's broker (room {room}: {len(tables)} tables)",
        f"connection {bridge_user(room)}", f"address {host}:{to[1]}",
        f"remote_username {bridge_user(room)}", f"remote_password {password}",
        f"remote_clientid {bridge_user(room)}", f"local_clientid bridge-{room}",
        "bridge_protocol_version mqttv311",
        "# a bridge to a mosquitto: loop detection, retained messages kept as published",
        "try_private true",
        "# the sessions on both brokers outlive the link: QoS 1 messages queue (bounded by the limits above)",
        "cleansession false", "start_type automatic",
        "# tried again 1 s after a drop, backing off (with jitter) to 5 s: a link back is used within 5 s;",
        "# a link that dies silently (a cable pulled) is noticed within 1.5 keepalives",
        "restart_timeout 1 5", f"keepalive_interval {BRIDGE_KEEPALIVE}",
        "# 1 (up) or 0 (down, the bridge's will on the director's broker), retained: the director's pages",
        "notifications true", f"notification_topic {link_topic(event, room)}",
        "bridge_max_packet_size 16384",
        "# the link crosses someone else's network (a club's LAN, a VPN): TLS to the director's broker",
        "# (init --bridge-ca CA.pem, and the director's broker with --tls-cert/--tls-key)",
    ]
    tls = [f"bridge_cafile {ca}" if ca else "bridge_cafile /path/to/director-ca.pem", "bridge_tls_version tlsv1.2",
           "bridge_insecure false"]
    lines += tls if ca else [f"#{line}" for line in tls]
    lines += [f"topic cribpi/{event}/director in 1"]
    for table in tables:
        lines += [f"topic cribpi/{event}/tables/{table}/# out 1", f"topic cribpi/{event}/acks/{table} in 1",
                  f"topic cribpi/{event}/seats/{table} in 1"]
    return "\n".join(lines) + "\n"


def write_rooms(folder: Path, event: str, rooms: list[RoomSpec], *, to: tuple[str, int], port: int = 1883,
                bind: str = "0.0.0.0", room_bind: str = "0.0.0.0", run_as: str | None = None,
                tls: tuple[Path, Path] | None = None, bridge_ca: Path | None = None) -> Event:
    """The director's broker in ``folder/broker/`` (the director and one bridge user a room) and
    each room's in ``folder/rooms/<name>/broker/``, bridged to it at ``to`` (host, port)."""
    if not NAME.fullmatch(event):
        raise ConfigError(f"event {event!r} is not valid: 1-32 letters, digits, - or _")
    bind, room_bind = check_bind(bind), check_bind(room_bind)
    if run_as is not None:
        check_user(run_as)
    certs = (_conf_path(tls[0], "--tls-cert"), _conf_path(tls[1], "--tls-key")) if tls else None
    made = [p for p in (folder, *folder.parents) if not p.exists()]
    numbered, tables_of = iter(table_ids(sum(r.tables for r in rooms))), {}
    for room in rooms:
        tables_of[room.name] = [next(numbered) for _ in range(room.tables)]
    creds = {DIRECTOR: secrets.token_urlsafe(12)}
    creds |= {bridge_user(r.name): secrets.token_urlsafe(12) for r in rooms}
    creds |= {t: secrets.token_urlsafe(12) for tables in tables_of.values() for t in tables}
    made_event = Event(folder, port, creds, tables_of)
    dirs: list[Path] = []
    for where, users, acl, extra, listen, room_tables in (
            [(folder, [DIRECTOR, *map(bridge_user, tables_of)], _director_acl(event, tables_of), "", (port, bind),
              len(rooms))]
            + [(folder / ROOMS_DIR / r.name, tables_of[r.name], _room_acl(event), r.name, (r.port, room_bind), r.tables)
               for r in rooms]):
        broker = where / BROKER_DIR
        broker.mkdir(mode=0o700, parents=True, exist_ok=True)
        (broker / "data").mkdir(mode=0o700, exist_ok=True)
        write_passwd(broker / "passwd", {u: creds[u] for u in users})
        (broker / "acl").write_text(acl, encoding="utf-8")
        conf = (f"# cribpi event {event}: " + (f"room {extra}, {room_tables} tables\n" if extra
                                               else f"the director's broker, {len(rooms)} rooms bridged to it\n")
                + broker_conf(where / BROKER_DIR, *listen, room_tables, run_as, certs if not extra else None))
        if extra:  # the bridge holds its password in clear: mode 0600, as credentials.json
            ca = _copy_ca(bridge_ca, broker) if bridge_ca else None
            private_file(broker / "mosquitto.conf",
                         conf + _bridge(event, extra, tables_of[extra], creds[bridge_user(extra)], to, ca))
            private_file(where / CREDENTIALS, json.dumps({t: creds[t] for t in tables_of[extra]}, indent=1))
        else:
            (broker / "mosquitto.conf").write_text(conf, encoding="utf-8")
        made_event.confs[extra] = broker / "mosquitto.conf"
        made_event.broker_user = _hand_to_broker(broker, run_as)
        for name in BROKER_FILES:
            _fsync_file(broker / name)
        dirs += [broker / "data", broker, where]
    private_file(folder / ROOMS_FILE, json.dumps(
        {"event": event, "rooms": {r.name: {"tables": tables_of[r.name], "port": r.port} for r in rooms}}, indent=1))
    for path in (*dirs, folder / ROOMS_DIR, *dict.fromkeys(p.parent for p in [folder, *made])):
        fsync_dir(path)
    return made_event


def _copy_ca(ca: Path, broker: Path) -> str:
    """The director's CA beside the room's broker (the folder goes to the room's Pi whole)."""
    copy = broker / "director-ca.pem"
    copy.write_bytes(ca.read_bytes())
    return _conf_path(copy, "--bridge-ca")


def rooms_of(tables: list[str], rooms: dict[str, list[str]]) -> dict[str, str]:
    """table -> its room (a one-room event: none)."""
    return {t: room for room, names in rooms.items() for t in names if t in tables}


def init_rooms(folder: Path, event: str, rooms: list[RoomSpec], admin_password: str, *, to: tuple[str, int],
               port: int = 1883, bind: str = "0.0.0.0", room_bind: str = "0.0.0.0", run_as: str | None = None,
               tls: tuple[Path, Path] | None = None, bridge_ca: Path | None = None, **event_options: Any) -> Event:
    """A new event of several rooms in ``folder``: its database (each room's tables in it) and
    its brokers (:func:`write_rooms`); ``event_options`` as :func:`.room.init_event` takes them."""
    from cribpi.tournament.director.room import EVENT_DB, _event_db, room_files

    options = {"best_of": 3, "final_best_of": 5, "game_length": 121, "round_games": 1, "open_play": False,
               **event_options}
    check_event_options(admin_password, options["best_of"], options["final_best_of"], options["game_length"],
                        options["round_games"])
    if (folder / EVENT_DB).exists() or room_files(folder) or (folder / ROOMS_FILE).exists():
        raise ConfigError(f"{folder} holds an event already: init would give every table a new password;"
                          " give init another --dir")
    made = write_rooms(folder, event, rooms, to=to, port=port, bind=bind, room_bind=room_bind, run_as=run_as,
                       tls=tls, bridge_ca=bridge_ca)
    tables = [t for names in made.rooms.values() for t in names]
    _event_db(folder, event, tables, admin_password, options["best_of"], options["final_best_of"],
              options["game_length"], options["round_games"], options["open_play"], rooms=made.rooms)
    return made
