"""``cribpi run``: the table on this machine (the Pi's buttons and OLED, or the terminal
simulator where there is no Pi), resuming the open game. Under systemd it is the service
(``cribpi install`` puts the unit in place): it tells systemd when it is ready, pings the
watchdog and survives failing parts."""

from __future__ import annotations

import argparse
from pathlib import Path

from cribpi.inputs import path_option


def key_script(text: str) -> Path:
    """``--keys``: an existing file or FIFO of actions (not a folder, device or missing file)."""
    path = path_option("key script")(text)
    if not (path.is_file() or path.is_fifo()):
        why = "is a folder" if path.is_dir() else "does not exist" if not path.exists() else "is a device or socket"
        raise argparse.ArgumentTypeError(f"{text!r} {why}; expected a file or FIFO of actions, one a line")
    return path


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from cribpi.config import default_db_path

    p = sub.add_parser("run", help="run the table on this machine's hardware (sim off a Pi)",
                       description=__doc__, epilog=f"The journal is the configuration's db; by default "
                       f"$CRIBPI_DB, else $STATE_DIRECTORY/cribpi.db under systemd, else the XDG state "
                       f"folder: with no db in the configuration, here and now {default_db_path()}.")
    p.add_argument("--config", help="configuration file (default: $CRIBPI_CONFIG, then /etc/cribpi/cribpi.toml)")
    p.add_argument("--backend", help="pi, controller, sim or mock (default: $CRIBPI_BACKEND, the config, the machine)")
    p.add_argument("--keys", metavar="FILE", type=key_script, help="with --backend mock: actions read from FILE or a FIFO, one a "
                   "line (ok, go, undo, card 5H), for tests and demonstrations")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.daemon import run as run_table

    return run_table(args.config, args.backend, keys=None if args.keys is None else str(args.keys))
