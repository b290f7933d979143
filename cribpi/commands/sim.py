"""``cribpi sim``: play at the whole table in a terminal, with no hardware.

The game is journalled (``--db``; default: the same database as the daemon) and resumes
where it stopped; ``--new`` starts a fresh one.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cribpi.exc import ConfigError
from cribpi.game import Mode

if TYPE_CHECKING:
    from cribpi.app import TableSettings

TABLE = "sim"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("sim", help="play the whole table in the terminal (simulated hardware)",
                       description=__doc__)
    p.add_argument("--players", default="2", choices=["2", "3", "4", "4p"],
                   help="2, 3, 4 individual, or 4p (partners opposite)")
    p.add_argument("--mode", default="count", choices=[m.value for m in Mode])
    p.add_argument("--rules", default="acc", help="rule preset (acc, hoyle, leaflet, acc-tournament, five-card)")
    p.add_argument("--names", help="comma-separated player names, seat 1 first")
    p.add_argument("--match", type=int, default=1, choices=[1, 3, 5, 7], help="best of N games (default 1)")
    p.add_argument("--db", type=Path, help="journal file (default: the cribpi database)")
    p.add_argument("--new", action="store_true", help="start a new game instead of resuming")
    p.add_argument("--seed", type=int, help="seed for random cuts (reproducible sessions)")
    p.set_defaults(run=run)


def settings_from(args: argparse.Namespace) -> TableSettings:
    from cribpi.app import DEFAULT_NAMES, TableSettings
    from cribpi.rules import get_rules

    get_rules(args.rules)  # a bad preset name fails before the terminal changes
    players = 4 if args.players == "4p" else int(args.players)
    names = tuple(n.strip() for n in args.names.split(",")) if args.names else DEFAULT_NAMES
    if len(names) < players:
        raise ConfigError(f"--names gives {len(names)} name(s) for {players} players")
    return TableSettings(names=names, players=players, partnerships=args.players == "4p",
                         rules=args.rules, mode=Mode(args.mode), match_games=args.match, table=TABLE)


def run(args: argparse.Namespace) -> int:
    from cribpi.config import Config, default_db_path
    from cribpi.daemon import play
    from cribpi.wiring import open_parts

    if not sys.stdin.isatty():
        raise ConfigError("cribpi sim needs a terminal to read keys from (stdin is not a tty)")
    settings = settings_from(args)
    config = Config(db=args.db or default_db_path())
    return play(config, open_parts(config, "sim"), settings, new=args.new, rng=random.Random(args.seed))
