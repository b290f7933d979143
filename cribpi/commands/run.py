"""``cribpi run``: the table on this machine (the Pi's buttons and OLED, or the terminal
simulator where there is no Pi), resuming the open game. Under systemd it is the service
(``cribpi install`` puts the unit in place): it tells systemd when it is ready, pings the
watchdog and survives failing parts.

``--game-length 61`` plays the next fresh game to 61 (the configuration's ``[game]
game_length`` is the default); with a game of another length open, it asks first in a
terminal whether to start a new game, as ``cribpi sim`` does (without a terminal, the log says
so and the open game goes on as it was)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cribpi.inputs import int_option, path_option, shown

if TYPE_CHECKING:
    from cribpi.app import TableSettings


def key_script(text: str) -> Path:
    """``--keys``: an existing file or FIFO of actions (not a folder, device or missing file)."""
    path = path_option("key script")(text)
    if not (path.is_file() or path.is_fifo()):
        why = "is a folder" if path.is_dir() else "does not exist" if not path.exists() else "is a device or socket"
        raise argparse.ArgumentTypeError(f"{shown(text)} {why}; expected a file or FIFO of actions, one a line")
    return path


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from cribpi.config import default_db_path

    p = sub.add_parser("run", help="run the table on this machine's hardware (sim off a Pi)",
                       description=__doc__, epilog=f"The journal is the configuration's db; by default "
                       f"$CRIBPI_DB, else $STATE_DIRECTORY/cribpi.db under systemd, else the XDG state "
                       f"folder: with no db in the configuration, here and now {default_db_path()}.")
    p.add_argument("--config", type=path_option("configuration file"), help="configuration file (default: $CRIBPI_CONFIG, then /etc/cribpi/cribpi.toml)")
    p.add_argument("--backend", help="pi, controller, sim or mock (default: $CRIBPI_BACKEND, the config, the machine)")
    p.add_argument("--keys", metavar="FILE", type=key_script, help="with --backend mock: actions read from FILE or a FIFO, one a "
                   "line (ok, go, undo, card 5H), for tests and demonstrations")
    p.add_argument("--game-length", type=int_option(choices=(121, 61)), choices=(121, 61), metavar="{121,61}",
                   help="points a fresh game is played to (default: the configuration's [game] game_length, "
                   "else 121; five-card is always 61)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.daemon import run as run_table

    def start_new(db: Path, settings: TableSettings) -> bool:
        """The length asked for, checked against the table's rules, then asked about if a game is open."""
        from cribpi.commands.sim import ask_terminal, check_setup, given_fields
        from cribpi.commands.sim import start_new as ask_first

        check_setup(db, settings, given_fields(args))
        return ask_first(db, args, ask_terminal if sys.stdin.isatty() else _no_terminal)

    return run_table(args.config, args.backend, keys=None if args.keys is None else str(args.keys),
                     game_length=args.game_length, start_new=None if args.game_length is None else start_new)


def _no_terminal(question: str) -> str:
    """No one to ask (a service): the open game goes on, and the log says why."""
    asked = question.partition(" Start a new game?")[0]
    logging.getLogger("cribpi.daemon").warning("%s No terminal to ask whether to start a new game: "
                                               "the open game goes on.", asked)
    return ""
