"""``cribpi director init``: the broker's configuration for one room.

Each table gets its own MQTT user (the table id) and password; the ACL lets a table write
only under ``cribpi/<event>/tables/<its id>/`` (``pattern write ... %u``), so one table cannot
speak for another: the broker drops it. The director reads everything and alone writes its
announcement, ``cribpi/<event>/director``, which every table reads (it asks for a replay).
Persistence keeps the director's session (and the QoS 1 messages queued for it) across a
broker restart.
"""

from __future__ import annotations

import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cribpi.exc import ConfigError, HardwareError
from cribpi.tournament.eventdb import EventDB, hash_password
from cribpi.tournament.messages import NAME

__all__ = ["DIRECTOR", "MAX_TABLES", "Room", "write_room", "table_ids", "init_event", "EVENT_DB"]

DIRECTOR = "director"  # the director's MQTT username
MAX_TABLES = 2000  # as `cribpi loadgen` can play (a broker past ~1000 needs its open-files limit raised)
EVENT_DB = "event.db"


@dataclass(frozen=True)
class Room:
    folder: Path
    port: int
    credentials: dict[str, str]  # MQTT username -> password (the tables and the director)

    @property
    def conf(self) -> Path:
        return self.folder / "mosquitto.conf"


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
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise HardwareError("mosquitto_passwd is not installed (apt install mosquitto)")
    folder.mkdir(parents=True, exist_ok=True)
    creds = {name: secrets.token_urlsafe(12) for name in [DIRECTOR, *table_ids(tables)]}
    passwd = folder / "passwd"
    passwd.write_text("".join(f"{u}:{p}\n" for u, p in creds.items()), encoding="utf-8")
    passwd.chmod(0o600)
    subprocess.run([tool, "-U", str(passwd)], check=True, capture_output=True)  # hash in place
    (folder / "acl").write_text(
        f"# each table writes only under its own id and reads the director's announcement;\n"
        f"# the director reads the whole event and alone writes its announcement\n"
        f"pattern write cribpi/{event}/tables/%u/#\n"
        f"pattern read cribpi/{event}/director\n\n"
        f"user {DIRECTOR}\ntopic read cribpi/{event}/#\ntopic write cribpi/{event}/director\n", encoding="utf-8")
    data = folder / "data"
    data.mkdir(exist_ok=True)
    (folder / "mosquitto.conf").write_text(
        f"# cribpi room for event {event}: {tables} tables\n"
        f"listener {port} {bind}\n"
        + (f"certfile {tls[0].resolve()}\nkeyfile {tls[1].resolve()}\n" if tls else "")
        + (f"user {run_as}\n" if run_as else "")
        + "allow_anonymous false\n"
        + f"password_file {passwd.resolve()}\n"
        f"acl_file {(folder / 'acl').resolve()}\n"
        "persistence true\n"
        f"persistence_location {data.resolve()}/\n"
        "autosave_interval 5\n"
        "max_queued_messages 1000000\n"
        "max_inflight_messages 0\n"
        f"max_packet_size {16 * 1024}\n", encoding="utf-8")
    return Room(folder, port, creds)


def init_event(folder: Path, event: str, tables: int, admin_password: str, *, best_of: int = 3,
               final_best_of: int = 5, port: int = 1883, bind: str = "0.0.0.0", run_as: str | None = None,
               tls: tuple[Path, Path] | None = None) -> Room:
    """A new event in ``folder``: its database (the admin password hashed) and its room."""
    if not NAME.fullmatch(event):
        raise ConfigError(f"event {event!r} is not valid: 1-32 letters, digits, - or _")
    if len(admin_password) < 8:
        raise ConfigError("the admin password is too short: at least 8 characters")
    for n, name in ((best_of, "--best-of"), (final_best_of, "--final-best-of")):
        if n < 1 or n % 2 == 0 or n > 15:
            raise ConfigError(f"{name} {n} is not valid: an odd number of games, 1-15")
    if (folder / EVENT_DB).exists():
        raise ConfigError(f"{folder / EVENT_DB} exists already: one folder per event")
    made = write_room(folder, event, tables, port=port, bind=bind, run_as=run_as, tls=tls)
    db = EventDB(folder / EVENT_DB, create=True)
    for key, value in (("event", event), ("admin", hash_password(admin_password)), ("best_of", str(best_of)),
                       ("final_best_of", str(final_best_of))):
        db.put(key, value)
    db.add_tables(table_ids(tables))
    db.close()
    return made
