"""``cribpi director``: one tournament event. ``init EVENT`` makes its folder (the event
database, a mosquitto configuration for the room with one credential per table) and prints
each table's credentials; ``serve`` follows the broker and serves the pages (docs/tournament.md)."""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import sys
from pathlib import Path

from cribpi.exc import ConfigError
from cribpi.inputs import broker_option, int_option, path_option, read_user_bytes, read_user_text, shown

CREDENTIALS = "credentials.json"  # as cribpi.tournament.director.room.CREDENTIALS (not imported before it runs)
SUBSCRIBE_WAIT_S = 10

log = logging.getLogger(__name__)


def _host(text: str) -> str:
    """``serve --host``: an IP address or a host name, as ``init --bind`` takes (ASCII digits)."""
    from cribpi.tournament.director.room import check_bind

    try:
        return check_bind(text)
    except ConfigError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not valid: an IP address (0.0.0.0, 192.168.1.5, ::) "
                                         "or a host name") from None


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("director", help="run a tournament: the event database, the broker's room and the pages",
                       description=__doc__)
    steps = p.add_subparsers(dest="step", metavar="STEP", required=True)
    init = steps.add_parser("init", help="make the event's folder and the broker's room")
    init.add_argument("event", help="the event's id (1-32 letters, digits, - or _): the topics' prefix")
    init.add_argument("--dir", type=path_option("event folder", folder=True), help="the folder (default: ./EVENT)")
    init.add_argument("--tables", type=int_option(1, 2000), default=None, help="how many tables, 1-2000 (default 16)")
    init.add_argument("--rooms", help="an event of several rooms, each with its own broker bridged to the director's:"
                                      " NAME:TABLES[:PORT],... (hall:24,annex:16); the tables are numbered on, room"
                                      " after room (hall t1-t24, annex t25-t40)")
    init.add_argument("--bridge-to", help="with --rooms: the director's broker as the rooms reach it, HOST[:PORT]")
    init.add_argument("--bridge-ca", type=path_option("CA certificate"),
                      help="with --rooms: the CA of the director's broker's certificate (--tls-cert): each bridge"
                           " uses TLS, for links across someone else's network")
    init.add_argument("--port", type=int_option(1, 65535), default=1883, help="the broker's port (default 1883)")
    init.add_argument("--bind", default="0.0.0.0", help="the broker's address (default: every interface)")
    init.add_argument("--broker-user", help="the user mosquitto runs as when started by root (it reads passwd)")
    init.add_argument("--tls-cert", type=path_option("certificate"), help="the broker's certificate (mqtts://)")
    init.add_argument("--tls-key", type=path_option("key file"), help="its private key (with --tls-cert)")
    init.add_argument("--admin-password-file", type=path_option("password file"),
                      help="the pages' admin password (default: a new one, printed)")
    init.add_argument("--best-of", type=int_option(1, 15), default=3, help="games in a playoff match (default 3)")
    init.add_argument("--final-best-of", type=int_option(1, 15), default=5, help="games in the final (default 5)")
    init.add_argument("--game-length", type=int_option(choices=(121, 61)), choices=(121, 61), default=121,
                      help="the event's games: to 121 (default) or to 61; a result of another length is refused")
    init.add_argument("--round-games", type=int_option(1, 15), default=1,
                      help="games in each match of a qualifying round (default 1); a table's results past it"
                           " are kept for the admin, uncounted")
    init.add_argument("--open", action="store_true",
                      help="open play: tables seat themselves (a club night), so a table's result counts with no"
                           " round seated, on its word alone (default: kept for the admin until a round is seated)")
    init.add_argument("--qr", action="store_true", help="print each table's [tournament] section as a QR code")
    serve = steps.add_parser("serve", help="follow the event on the broker and serve its pages")
    serve.add_argument("--dir", type=path_option("event folder"), default=Path("."), help="the event's folder")
    serve.add_argument("--broker", default="mqtt://127.0.0.1:1883", type=broker_option, help="mqtt://host[:port] or mqtts://host[:port]")
    serve.add_argument("--ca", type=path_option("CA certificate"), help="the CA of an mqtts:// broker")
    serve.add_argument("--host", default="0.0.0.0", type=_host, help="the pages' address (default: every interface)")
    serve.add_argument("--http-port", type=int_option(1, 65535), default=8080, help="the pages' port (default 8080)")
    serve.add_argument("--admin-password-file", type=path_option("password file"),
                       help="the pages' admin password when serve makes a fresh event.db for the room"
                            " (default: a new one, printed)")
    serve.add_argument("--tls-cert", type=path_option("certificate"),
                       help="serve the pages over HTTPS with this certificate (PEM); the admin's cookie is then Secure")
    serve.add_argument("--tls-key", type=path_option("key file"), help="its private key (with --tls-cert)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return init(args) if args.step == "init" else serve(args)


def init(args: argparse.Namespace) -> int:
    from cribpi.tournament.director.room import DIRECTOR, init_event, write_credentials

    from cribpi.tournament.director.room import check_bind, check_user

    folder = args.dir or Path(args.event)
    check_bind(args.bind)
    if args.broker_user is not None:
        check_user(args.broker_user)
    if (args.tls_cert is None) != (args.tls_key is None):
        raise ConfigError("--tls-cert and --tls-key go together: the broker's certificate and its key")
    for option, path, what in (("--tls-cert", args.tls_cert, "certificate"), ("--tls-key", args.tls_key, "key file")):
        if path is not None:
            _readable(option, path, what)
    if args.rooms is not None:
        return _init_rooms(args, folder)
    if args.bridge_to is not None or args.bridge_ca is not None:
        raise ConfigError("--bridge-to and --bridge-ca go with --rooms (an event of several rooms)")
    args.tables = 16 if args.tables is None else args.tables
    password = _admin_password(args.admin_password_file)
    room = init_event(folder, args.event, args.tables, password, best_of=args.best_of,
                      final_best_of=args.final_best_of, port=args.port, bind=args.bind,
                      game_length=args.game_length, round_games=args.round_games, open_play=args.open,
                      run_as=args.broker_user, tls=(args.tls_cert, args.tls_key) if args.tls_cert else None)
    write_credentials(folder, room.credentials)  # mode 0600, as event.db: the broker gets neither
    scheme = "mqtts" if args.tls_cert else "mqtt"
    print(f"event {args.event} in {folder}: start the broker with  mosquitto -c {room.conf}")
    if args.open:
        print("  open play: a table's result counts with no round seated, on the table's word alone")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        if room.broker_user:
            print(f"  {room.broker} (passwd, acl, data/) belongs to the broker's user {room.broker_user};"
                  f" event.db and {CREDENTIALS} stay root's (mode 0600)")
        else:
            print(f"  as root: mosquitto drops to the user mosquitto, which cannot read {room.broker} (root's);"
                  f" first  chown -R mosquitto: {room.broker}  (only that folder: the rest is the director's),"
                  " or init with --broker-user USER")
    print(f"then the director with  cribpi director serve --dir {folder} --broker {scheme}://HOST:{args.port}"
          + ("  --ca CA.pem (the CA that signed the certificate)" if args.tls_cert else ""))
    if not args.admin_password_file:
        print(f"admin password (pages /admin): {password}")
    print(f"\n{'table':<8} {'username':<10} password")
    for user, secret in room.credentials.items():
        if user != DIRECTOR:
            print(f"{user:<8} {user:<10} {secret}")
            if args.qr:
                _qr(_section(args.event, user, secret, args.port, scheme))
    return 0


def _init_rooms(args: argparse.Namespace, folder: Path) -> int:
    """``init --rooms``: the director's broker and one bridged broker a room (docs/tournament.md,
    *One event, several rooms*)."""
    from cribpi.tournament.director.room import write_credentials
    from cribpi.tournament.director.rooms import ROOMS_DIR, bridge_user, init_rooms, parse_address, parse_rooms

    if args.tables is not None:
        raise ConfigError("--tables and --rooms do not go together: --rooms says each room's tables (hall:24,annex:16)")
    rooms = parse_rooms(args.rooms)
    if args.bridge_to is None:
        raise ConfigError("--rooms needs --bridge-to HOST[:PORT]: the director's broker as the rooms reach it"
                          " (its address on the link between the rooms, 192.168.10.1:1883)")
    to = parse_address(args.bridge_to)
    if args.bridge_ca is not None:
        _readable("--bridge-ca", args.bridge_ca, "CA certificate")
        if args.tls_cert is None:
            raise ConfigError("--bridge-ca needs --tls-cert and --tls-key: the director's broker's own certificate,"
                              " which the bridges check with that CA")
    password = _admin_password(args.admin_password_file)
    made = init_rooms(folder, args.event, rooms, password, to=to, port=args.port, bind=args.bind,
                      run_as=args.broker_user, tls=(args.tls_cert, args.tls_key) if args.tls_cert else None,
                      bridge_ca=args.bridge_ca, best_of=args.best_of, final_best_of=args.final_best_of,
                      game_length=args.game_length, round_games=args.round_games, open_play=args.open)
    write_credentials(folder, made.credentials)
    scheme = "mqtts" if args.tls_cert else "mqtt"
    print(f"event {args.event} in {folder}: {len(rooms)} rooms bridged to the director's broker at"
          f" {to[0]}:{to[1]}")
    print(f"  the director's broker:  mosquitto -c {made.conf}")
    for room in rooms:
        tables = made.rooms[room.name]
        print(f"  room {room.name} ({tables[0]}-{tables[-1]}): copy {folder / ROOMS_DIR / room.name} to its Pi (the"
              f" same path), then  mosquitto -c {made.confs[room.name]}   (its bridge logs in as"
              f" {bridge_user(room.name)}; its tables connect to mqtt://ROOM_PI:{room.port})")
    print(f"then the director with  cribpi director serve --dir {folder} --broker {scheme}://HOST:{args.port}")
    if not args.admin_password_file:
        print(f"admin password (pages /admin): {password}")
    print(f"\n{'table':<8} {'room':<12} password")
    for spec in rooms:
        for table in made.rooms[spec.name]:
            print(f"{table:<8} {spec.name:<12} {made.credentials[table]}")
            if args.qr:
                _qr(_section(args.event, table, made.credentials[table], spec.port, "mqtt"))
    return 0


PAGES = (("the wall", "/"), ("seating", "/seating"), ("leaderboard", "/leaderboard"), ("bracket", "/bracket"),
         ("admin", "/admin"))  # what serve says it serves, in this order


def _local_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, one per interface that has one (Linux:
    SIOCGIFADDR; nothing is sent). Empty where that cannot be asked."""
    import fcntl
    import socket
    import struct

    found: list[str] = []
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        return found
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in interfaces:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))  # SIOCGIFADDR
            except OSError:  # no IPv4 address on it
                continue
            address = socket.inet_ntoa(packed[20:24])
            if not address.startswith("127.") and address not in found:
                found.append(address)
    return found


def _serving(event: str, host: str, port: int, broker: str, subscribed: bool,
             addresses: list[str] | None = None, scheme: str = "http") -> str:
    """What ``serve`` says once it starts: the address of each of its pages, and what it follows.
    On every interface (0.0.0.0, ::) the pages are named at this machine's first address in the
    room (``addresses``: its own by default), the others listed after."""
    everywhere = host in ("0.0.0.0", "::")
    hosts = (_local_addresses() if addresses is None else addresses) if everywhere else [host]
    name = hosts[0] if hosts else "HOST"
    base = f"{scheme}://{f'[{name}]' if ':' in name else name}:{port}"
    lines = [f"event {event}: its pages"] + [f"  {what:<12} {base}{path}" for what, path in PAGES]
    if everywhere:
        also = [f"{scheme}://{h}:{port}/" for h in hosts[1:]] + [f"{scheme}://127.0.0.1:{port}/ (this machine)"]
        lines.append("  on every interface" + (": HOST is this machine's address in the room" if not hosts else "")
                     + "; also " + ", ".join(also))
    lines.append(f"  following the broker {broker}" + ("" if subscribed else " (not subscribed yet: it keeps trying)"))
    return "\n".join(lines)


def _readable(option: str, path: Path, what: str) -> None:
    """``path`` is a PEM file this user can read, or one line naming ``option``."""
    try:
        data = read_user_bytes(path, what)
    except ConfigError as exc:
        raise ConfigError(f"{option}: {exc}; expected a readable PEM file") from None
    if b"-----BEGIN " not in data:
        raise ConfigError(f"{option}: {path}: no PEM block (-----BEGIN ...) in it; expected the {what} as a PEM file")


def _admin_password(path: Path | None) -> str:
    return read_user_text(path, "password file").strip() if path else secrets.token_urlsafe(12)


def _section(event: str, table: str, password: str, port: int, scheme: str = "mqtt") -> str:
    return f'[tournament]\nbroker = "{scheme}://HOST:{port}"\nevent = "{event}"\ntable = "{table}"\npassword = "{password}"\n'


def _qr(text: str) -> None:
    try:
        import qrcode
    except ImportError:
        raise ConfigError("--qr needs the qrcode package (pip install 'cribpi[tournament]')") from None
    code = qrcode.QRCode(border=1)
    code.add_data(text)
    code.print_ascii(invert=True)


def _tls(args: argparse.Namespace) -> tuple[Path, Path] | None:
    """``serve``'s certificate and key (both or neither, readable PEM files), or None."""
    if (args.tls_cert is None) != (args.tls_key is None):
        raise ConfigError("--tls-cert and --tls-key go together: the pages' certificate and its key")
    if args.tls_cert is None:
        return None
    _readable("--tls-cert", args.tls_cert, "certificate")
    _readable("--tls-key", args.tls_key, "key file")
    return args.tls_cert, args.tls_key


def serve(args: argparse.Namespace) -> int:
    from cribpi.tournament.broker import parse_broker
    from cribpi.tournament.director import Director
    from cribpi.tournament.director.eventdb import EventDB
    from cribpi.tournament.director.casting import follow
    from cribpi.tournament.director.room import (DIRECTOR, EVENT_DB, ROOM_FILES, fresh_event_db, read_credentials,
                                        room_files, room_warnings)
    from cribpi.tournament.director.web import create_app
    from cribpi.tournament.director.web.server import serve_app

    tls = _tls(args)
    broker = parse_broker(args.broker, username=DIRECTOR, ca=args.ca)  # a bad URL or CA before anything is made
    if args.ca is not None:
        _readable("--ca", args.ca, "CA certificate")
    has_db, room = (args.dir / EVENT_DB).exists(), room_files(args.dir)
    if not room and not has_db:
        raise ConfigError(f"{args.dir} holds no event: make one with  cribpi director init EVENT --dir {args.dir}")
    if not (args.dir / CREDENTIALS).exists():
        raise ConfigError(f"{args.dir} has no {CREDENTIALS} (the room's passwords, written by init): put it back,"
                          " or make a new event with  cribpi director init EVENT --dir NEW_FOLDER")
    creds = read_credentials(args.dir / CREDENTIALS)
    if DIRECTOR not in creds:
        raise ConfigError(f"{args.dir / CREDENTIALS}: no {DIRECTOR!r} password in it; expected the credentials.json"
                          " `cribpi director init` wrote")
    if not has_db and len(room) < len(ROOM_FILES):
        missing = sorted(set(ROOM_FILES) - {p.name for p in room})
        raise ConfigError(f"{args.dir} has no {EVENT_DB} and only part of a room (no {', '.join(missing)}):"
                          " make a new event with  cribpi director init EVENT --dir NEW_FOLDER")
    if not has_db:
        password = _admin_password(args.admin_password_file)
        tables = fresh_event_db(args.dir, password)
        print(f"a fresh {EVENT_DB} in {args.dir} for the room's {len(tables)} tables (their passwords unchanged)")
        if not args.admin_password_file:
            print(f"admin password (pages /admin): {password}")
    for warning in room_warnings(args.dir):  # a room made by an older init
        print(f"warning: {warning}", file=sys.stderr)
    director = Director(EventDB(args.dir / EVENT_DB))
    director.connect(parse_broker(args.broker, username=DIRECTOR, password=creds[DIRECTOR], ca=broker.ca))
    follow(director)  # each round seated goes to its tables' OLEDs; the current one now
    if not director.subscribed.wait(SUBSCRIBE_WAIT_S):  # pages first; the session follows when it can
        log.warning("the broker at %s has not taken the director's subscription yet", args.broker)
    print(_serving(director.event, args.host, args.http_port, args.broker, director.subscribed.is_set(),
                   scheme="https" if tls else "http"), flush=True)
    try:
        serve_app(create_app(director), args.host, args.http_port, tls=tls)
    finally:
        director.close()
    return 0
