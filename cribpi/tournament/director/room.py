"""``cribpi director init``: the broker's configuration for one room.

The broker gets only what it reads: its files are in the event folder's ``broker/``
(``mosquitto.conf``, ``passwd``, ``acl`` and its store ``data/``), the one folder handed to
the user mosquitto runs as. The director's own files stay beside it, readable by whoever ran
``init`` only (mode 0600): ``event.db`` (the admin's scrypt hash) and ``credentials.json``
(every password in clear).

Each table gets its own MQTT user (the table id) and password; the ACL lets a table write
only under ``cribpi/<event>/tables/<its id>/`` (``pattern write ... %u``), so one table cannot
speak for another: the broker drops it. The director reads everything and alone writes its
announcement, ``cribpi/<event>/director``, which every table reads (it asks for a replay).
Persistence keeps the director's session (and the QoS 1 messages queued for it) across a
broker restart. The broker's limits (:func:`broker_limits`, :func:`max_connections`) bound what
one table's password, or a director away for a while, can make it hold.
"""

from __future__ import annotations

import ipaddress
import json
import os
import pwd
import re
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cribpi.exc import ConfigError, HardwareError
from cribpi.inputs import read_user_text
from cribpi.nesting import loads_json
from cribpi.tournament.director.eventdb import EventDB, hash_password
from cribpi.tournament.messages import GAME_LENGTHS, NAME

__all__ = ["DIRECTOR", "MAX_TABLES", "Room", "write_room", "table_ids", "init_event", "EVENT_DB", "CREDENTIALS", "ROOM_FILES",
           "BROKER_DIR", "BROKER_FILES", "check_bind", "check_user", "room_files", "room_path", "read_credentials",
           "room_event", "fresh_event_db", "write_credentials", "private_file", "room_warnings", "fsync_dir",
           "broker_limits", "max_connections", "ROOMS_FILE", "read_rooms", "write_passwd", "table_acl", "broker_conf",
           "check_event_options"]

DIRECTOR = "director"  # the director's MQTT username
MAX_TABLES = 2000  # as `cribpi loadgen` can play (a broker past ~1000 needs its open-files limit raised)
EVENT_DB = "event.db"
CREDENTIALS = "credentials.json"  # the tables' and the director's MQTT passwords (mode 0600)
ROOM_FILES = ("mosquitto.conf", CREDENTIALS, "passwd", "acl")  # what init writes besides the database
BROKER_DIR = "broker"  # the broker's own folder in the event's: all it reads and writes
BROKER_FILES = ("mosquitto.conf", "passwd", "acl")  # in BROKER_DIR (a room older than it has them beside event.db)
ROOMS_FILE = "rooms.json"  # an event of several rooms (.rooms): each room's tables and port
BROKER_USER = "mosquitto"  # the user Debian's mosquitto drops to when started by root
_HOST_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_USER = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,31}")


@dataclass(frozen=True)
class Room:
    folder: Path
    port: int
    credentials: dict[str, str]  # MQTT username -> password (the tables and the director)
    broker_user: str | None = None  # the user init handed broker/ to (run by root), or None

    @property
    def broker(self) -> Path:
        """The broker's folder: all it reads (and its store), nothing of the director's."""
        return self.folder / BROKER_DIR

    @property
    def conf(self) -> Path:
        return room_path(self.folder, "mosquitto.conf")

    @property
    def acl(self) -> Path:
        return room_path(self.folder, "acl")

    @property
    def data(self) -> Path:
        return self.conf.parent / "data"


def room_path(folder: Path, name: str) -> Path:
    """Where the room file ``name`` is in the event ``folder``: the broker's in ``broker/``
    (or beside ``event.db`` in a room made before that, if it is there), the others beside
    ``event.db``."""
    if name not in BROKER_FILES:
        return folder / name
    path = folder / BROKER_DIR / name
    return folder / name if not path.exists() and (folder / name).exists() else path


def private_file(path: Path, text: str) -> None:
    """Write ``text`` to a new file only its owner can read (never readable by others, not
    even for a moment), on the disk when this returns (its entry in the folder is the folder's
    fsync: :func:`fsync_dir`)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        os.fchmod(f.fileno(), 0o600)  # a file that was there keeps its mode otherwise
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def fsync_dir(folder: Path) -> None:
    """Make ``folder``'s entries durable (the files and folders made, renamed or removed in it):
    a file's own fsync does not make its name in the folder survive a power cut."""
    _fsync_file(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))


def _fsync_file(path: Path, flags: int = os.O_RDONLY) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_credentials(folder: Path, credentials: dict[str, str]) -> Path:
    """The room's ``credentials.json`` (mode 0600: every password in clear), on the disk."""
    path = folder / CREDENTIALS
    private_file(path, json.dumps(credentials, indent=1))
    fsync_dir(folder)
    return path


def check_bind(bind: str) -> str:
    """``bind`` if it is an IP address or a host name (it goes into mosquitto.conf as is)."""
    try:
        return str(ipaddress.ip_address(bind))
    except ValueError:
        pass
    labels = bind.split(".")
    if len(bind) <= 253 and all(_HOST_LABEL.fullmatch(label) for label in labels) and not labels[-1].isdigit():
        return bind
    raise ConfigError(f"--bind {bind[:60]!r} is not valid: an IP address (0.0.0.0, 192.168.1.5, ::) or a host name")


def check_user(user: str) -> str:
    """``user`` if it is a plain system user name (letters, digits, _ . -, 1-32 characters)."""
    if not _USER.fullmatch(user):
        raise ConfigError(f"--broker-user {user[:60]!r} is not valid: a user name of 1-32 letters, digits, _ . or -"
                          " (not starting with a digit, - or .)")
    return user


def _conf_path(path: Path, what: str) -> str:
    """``path`` resolved, as a line of mosquitto.conf can hold it (no line break or control character)."""
    text = str(path.resolve())
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise ConfigError(f"{what} {text[:60]!r} is not valid: a path without line breaks or control characters")
    return text


def room_warnings(folder: Path) -> list[str]:
    """What the room in ``folder`` lacks that a room ``init`` makes now has (one made by an
    older ``init``): each a line saying what it costs and how to mend it. Empty when it has
    everything, or when its files cannot be read here (the broker's user may own them)."""
    try:
        conf = room_path(folder, "mosquitto.conf").read_text(encoding="utf-8")
        acl = room_path(folder, "acl").read_text(encoding="utf-8")
    except OSError:
        return []
    if (folder / ROOMS_FILE).exists():  # the director's broker of an event of several rooms: no table on it
        return []
    said = []
    if not re.search(r"^use_username_as_clientid\s+true\s*$", conf, re.MULTILINE):
        said.append(f"{room_path(folder, 'mosquitto.conf')} lacks 'use_username_as_clientid true': a table's password"
                    " can take over the director's session by asking for its client id; add the line and restart"
                    " mosquitto")
    if not re.search(r"^max_queued_bytes\s", conf, re.MULTILINE):
        said.append(f"{room_path(folder, 'mosquitto.conf')} lacks the broker's limits: one table can make mosquitto"
                    " queue without bound for a director that is away; add "
                    + ", ".join(f"'{key} {value}'" for key, value in broker_limits().items())
                    + " and restart mosquitto")
    if "/acks/%u" not in acl:
        said.append(f"{room_path(folder, 'acl')} lacks the acknowledgements' lines: the tables never hear what the"
                    " director has and send every message again on each reconnect; add 'pattern read"
                    " cribpi/<event>/acks/%u' and, under 'user director', 'topic write cribpi/<event>/acks/#'")
    return said


def room_files(folder: Path) -> list[Path]:
    """The room's files already in ``folder`` (a room ``init`` must not overwrite)."""
    return [room_path(folder, name) for name in ROOM_FILES if room_path(folder, name).exists()]


def table_ids(count: int) -> list[str]:
    return [f"t{n}" for n in range(1, count + 1)]


def write_room(folder: Path, event: str, tables: int, *, port: int = 1883, bind: str = "0.0.0.0",
               run_as: str | None = None, tls: tuple[Path, Path] | None = None) -> Room:
    """Write ``mosquitto.conf``, ``passwd`` (hashed by ``mosquitto_passwd``) and ``acl`` into ``folder``.

    ``run_as``: the user mosquitto runs as once started by root (it must read ``passwd``); by
    default mosquitto's own, so the folder must then be readable by it. ``tls``: the server's
    certificate and key files, for an ``mqtts://`` listener."""
    if not 1 <= tables <= MAX_TABLES:
        raise ConfigError(f"--tables {tables} is not valid: 1-{MAX_TABLES}")
    bind = check_bind(bind)
    if run_as is not None:
        check_user(run_as)
    paths = {"folder": _conf_path(folder, "--dir")}
    if tls:
        paths["cert"], paths["key"] = _conf_path(tls[0], "--tls-cert"), _conf_path(tls[1], "--tls-key")
    _mosquitto_passwd()  # before anything is written: a machine without it changes nothing
    made = [p for p in (folder, *folder.parents) if not p.exists()]  # the folders mkdir makes, deepest first
    folder.mkdir(parents=True, exist_ok=True)
    broker = folder / BROKER_DIR
    broker.mkdir(mode=0o700, exist_ok=True)
    creds = {name: secrets.token_urlsafe(12) for name in [DIRECTOR, *table_ids(tables)]}
    write_passwd(broker / "passwd", creds)
    (broker / "acl").write_text(
        "# each table writes only under its own id and reads the director's announcement and its\n"
        "# own acknowledgements and seating; the director reads the whole event and alone writes those\n"
        + table_acl(event) + "\n"
        f"user {DIRECTOR}\ntopic read cribpi/{event}/#\ntopic write cribpi/{event}/director\n"
        f"topic write cribpi/{event}/acks/#\ntopic write cribpi/{event}/seats/#\n", encoding="utf-8")
    data = broker / "data"
    data.mkdir(mode=0o700, exist_ok=True)
    certs = (paths["cert"], paths["key"]) if tls else None
    (broker / "mosquitto.conf").write_text(f"# cribpi room for event {event}: {tables} tables\n"
                                           + broker_conf(broker, port, bind, tables, run_as, certs), encoding="utf-8")
    user = _hand_to_broker(broker, run_as)
    # On the disk before init says the room is made: the broker's files, then each folder's
    # entries, up to the new event folder's own in its parent (and any parent mkdir made).
    for name in BROKER_FILES:
        _fsync_file(broker / name)
    for path in (data, broker, folder, *dict.fromkeys(p.parent for p in [folder, *made])):
        fsync_dir(path)
    return Room(folder, port, creds, user)


def _mosquitto_passwd() -> str:
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise HardwareError("mosquitto_passwd is not installed (apt install mosquitto)")
    return tool


def write_passwd(path: Path, users: dict[str, str]) -> None:
    """``users``' passwords (user -> password) into ``path``, private, hashed in place by
    ``mosquitto_passwd``."""
    tool = _mosquitto_passwd()
    private_file(path, "".join(f"{u}:{p}\n" for u, p in users.items()))
    subprocess.run([tool, "-U", str(path)], check=True, capture_output=True)  # hash in place


def table_acl(event: str) -> str:
    """The ACL lines of a room's tables: each writes only under its own id and reads the
    director's announcement and its own acknowledgements and seating."""
    return (f"pattern write cribpi/{event}/tables/%u/#\npattern read cribpi/{event}/director\n"
            f"pattern read cribpi/{event}/acks/%u\npattern read cribpi/{event}/seats/%u\n")


def broker_conf(broker: Path, port: int, bind: str, tables: int, run_as: str | None,
                certs: tuple[str, str] | None) -> str:
    """The lines of every broker of an event (its files in ``broker``): its listener, who may
    log in and as what client id, its persistence and its limits."""
    return (f"listener {port} {bind}\n"
            + (f"certfile {certs[0]}\nkeyfile {certs[1]}\n" if certs else "")
            + f"max_connections {max_connections(tables)}\n"
            + (f"user {run_as}\n" if run_as else "")
            + "allow_anonymous false\n"
            # a client's id is its user name: a table's password cannot take over the director's
            # session (or another table's), whatever client id it asks for
            + "use_username_as_clientid true\n"
            + f"password_file {_conf_path(broker / 'passwd', '--dir')}\n"
            + f"acl_file {_conf_path(broker / 'acl', '--dir')}\n"
            + "persistence true\n"
            + f"persistence_location {_conf_path(broker / 'data', '--dir')}/\n"
            + "autosave_interval 5\n"
            + "".join(f"{key} {value}\n" for key, value in broker_limits().items()))


def check_event_options(admin_password: str, best_of: int, final_best_of: int, game_length: int,
                        round_games: int) -> None:
    """An event's options as ``init`` takes them, each refused by name."""
    if len(admin_password) < 8:
        raise ConfigError("the admin password is too short: at least 8 characters")
    for n, name in ((best_of, "--best-of"), (final_best_of, "--final-best-of")):
        if n < 1 or n % 2 == 0 or n > 15:
            raise ConfigError(f"{name} {n} is not valid: an odd number of games, 1-15")
    _check_event_games(game_length, round_games)


def max_connections(tables: int) -> int:
    """The room's listener takes at most this many connections: each table twice (a table's new
    connection is counted before it takes over its old one, which the broker has not seen
    drop yet), the director, and a few for the director's tools (mosquitto_sub, loadgen's
    check)."""
    return 2 * tables + 16


def broker_limits() -> dict[str, int]:
    """What the room's mosquitto holds at most (docs/tournament.md, *Setting up a room*, says
    why each): per client, the messages queued (while it is away or slow) by count and by
    bytes, and the messages in flight to it; the largest message it passes on and the largest
    packet it takes; its heap."""
    return {"max_queued_messages": 100_000, "max_queued_bytes": 64 << 20, "max_inflight_messages": 1000,
            "message_size_limit": 10 << 10, "max_packet_size": 16 << 10, "memory_limit": 512 << 20}


def _hand_to_broker(broker: Path, run_as: str | None) -> str | None:
    """Run by root: the broker's folder (and only it) goes to the user mosquitto will run as
    (``run_as``, or Debian's ``mosquitto`` when it exists), which must read ``passwd`` and
    ``acl`` and write ``data/``; that user's name. Anyone else keeps what they wrote (None)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    try:
        user = pwd.getpwnam(run_as or BROKER_USER)
    except KeyError:
        if run_as is not None:
            raise ConfigError(f"--broker-user {run_as}: no such user on this machine") from None
        return None
    try:
        for path in (broker, *broker.rglob("*")):
            os.chown(path, user.pw_uid, user.pw_gid)
    except PermissionError:  # not root after all
        return None
    return user.pw_name


def init_event(folder: Path, event: str, tables: int, admin_password: str, *, best_of: int = 3,
               final_best_of: int = 5, port: int = 1883, bind: str = "0.0.0.0", run_as: str | None = None,
               tls: tuple[Path, Path] | None = None, game_length: int = 121, round_games: int = 1,
               open_play: bool = False) -> Room:
    """A new event in ``folder``: its database (the admin password hashed) and its room.
    ``game_length``: its games are to 121 or to 61; ``round_games``: the games of a qualifying
    round's match; ``open_play``: tables seat themselves (a club night), so a result counts with
    no round seated (otherwise it is kept for the admin until a round seats its players)."""
    if not NAME.fullmatch(event):
        raise ConfigError(f"event {event!r} is not valid: 1-32 letters, digits, - or _")
    check_event_options(admin_password, best_of, final_best_of, game_length, round_games)
    if (folder / EVENT_DB).exists():
        raise ConfigError(f"{folder / EVENT_DB} exists already: one folder per event")
    if found := room_files(folder):
        raise ConfigError(f"{folder} holds a room already ({', '.join(p.name for p in found)}): init would give every"
                          f" table a new password; `cribpi director serve --dir {folder}` makes a fresh {EVENT_DB}"
                          " for it, or give init another --dir")
    made = write_room(folder, event, tables, port=port, bind=bind, run_as=run_as, tls=tls)
    _event_db(folder, event, table_ids(tables), admin_password, best_of, final_best_of, game_length, round_games,
              open_play)
    return made


def _check_event_games(game_length: int, round_games: int) -> None:
    if game_length not in GAME_LENGTHS:
        raise ConfigError(f"--game-length {game_length} is not valid: {' or '.join(map(str, GAME_LENGTHS))}")
    if not 1 <= round_games <= 15:
        raise ConfigError(f"--round-games {round_games} is not valid: 1-15 games a qualifying match")


def read_credentials(path: Path) -> dict[str, str]:
    """A room's ``credentials.json``: an object of user name -> password, or one line saying what is wrong."""
    text = read_user_text(path, "credentials file")
    try:
        creds = loads_json(text, 2)  # an object of strings: deeper is no credentials file (TooDeep)
    except ValueError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc}); expected the credentials.json"
                          " `cribpi director init` wrote") from None
    if not isinstance(creds, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in creds.items()):
        raise ConfigError(f"{path}: not an object of user names to passwords; expected the credentials.json"
                          " `cribpi director init` wrote")
    return creds


def room_event(folder: Path) -> str:
    """The event id of the room in ``folder`` (from its ACL, as init wrote it)."""
    path = room_path(folder, "acl")
    acl = read_user_text(path, "room ACL")
    match = re.search(r"^pattern write cribpi/([^/\s]+)/tables/%u/#$", acl, re.MULTILINE) \
        or re.search(rf"^user {DIRECTOR}\ntopic read cribpi/([^/\s]+)/#$", acl, re.MULTILINE)  # several rooms
    if match is None or not NAME.fullmatch(match.group(1)):
        raise ConfigError(f"{path}: no event in it; expected the acl `cribpi director init` wrote")
    return match.group(1)


def fresh_event_db(folder: Path, admin_password: str, *, best_of: int = 3, final_best_of: int = 5,
                   game_length: int = 121, round_games: int = 1) -> list[str]:
    """A new ``event.db`` for the room already in ``folder`` (its event and its tables, the
    passwords kept); the tables' ids."""
    event = room_event(folder)
    users = read_credentials(folder / CREDENTIALS)
    tables = sorted((u for u in users if re.fullmatch(r"t\d+", u)), key=lambda u: int(u[1:]))
    if not tables:
        raise ConfigError(f"{folder / CREDENTIALS}: no table in it; expected the credentials.json"
                          " `cribpi director init` wrote")
    _check_event_games(game_length, round_games)
    rooms = None
    if (folder / ROOMS_FILE).exists():  # an event of several rooms: which room has which table
        rooms = read_rooms(folder)
    _event_db(folder, event, tables, admin_password, best_of, final_best_of, game_length, round_games, rooms=rooms)
    return tables


def _event_db(folder: Path, event: str, tables: list[str], admin_password: str, best_of: int,
              final_best_of: int, game_length: int = 121, round_games: int = 1, open_play: bool = False,
              rooms: dict[str, list[str]] | None = None) -> None:
    db = EventDB(folder / EVENT_DB, create=True)
    if rooms:  # an event of several rooms: each room's tables (the pages name a table's room)
        db.put("rooms", json.dumps(rooms))
    for key, value in (("event", event), ("admin", hash_password(admin_password)), ("best_of", str(best_of)),
                       ("final_best_of", str(final_best_of)), ("game_length", str(game_length)),
                       ("round_games", str(round_games)), ("open_play", "1" if open_play else "0")):
        db.put(key, value)
    db.add_tables(tables)
    db.close()
    fsync_dir(folder)  # event.db's entry in the folder (SQLite syncs its WAL's, not always the database's)


def read_rooms(folder: Path) -> dict[str, list[str]]:
    """The event's rooms from ``rooms.json`` in ``folder``: name -> its tables."""
    path = folder / ROOMS_FILE
    text = read_user_text(path, "rooms file")
    try:
        body = loads_json(text, 4)
    except ValueError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc}); expected the {ROOMS_FILE} `cribpi director init --rooms`"
                          " wrote") from None
    rooms = body.get("rooms") if isinstance(body, dict) else None
    if not isinstance(rooms, dict) or not all(
            isinstance(r, dict) and isinstance(r.get("tables"), list) and all(isinstance(t, str) for t in r["tables"])
            for r in rooms.values()):
        raise ConfigError(f"{path}: no rooms in it; expected the {ROOMS_FILE} `cribpi director init --rooms` wrote")
    return {str(name): list(room["tables"]) for name, room in rooms.items()}
