"""``cribpi export``: the games in a journal, and any of them as a game record
(docs/record-format.md) ready for ``cribpi replay`` or ``cribpi render``."""

from __future__ import annotations

import argparse
import os

from cribpi.exc import ConfigError, StoreError
from cribpi.inputs import int_option, path_option

MAX_GAME_ID = 2**63 - 1  # SQLite's largest integer: a bigger one cannot name a game


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("export", help="list the journal's games, or write one as a game record",
                       description=__doc__)
    p.add_argument("game", nargs="?", type=int_option(1, MAX_GAME_ID), help="the game's number (default: the latest)")
    p.add_argument("--db", metavar="PATH", type=path_option("game journal"),
                   help="the game journal (default: the cribpi database)")
    p.add_argument("--list", action="store_true", help="list the games instead")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.config import default_db_path
    from cribpi.store import Store, export_game

    if args.list and args.game is not None:
        raise ConfigError(f"--list with game {args.game}: give a game's number to write it, or --list to list "
                          "them all, not both")
    db = args.db or str(default_db_path())
    if not os.path.isfile(db) or os.path.getsize(db) == 0:  # opening would create a journal
        raise StoreError(f"there is no game journal at {db}: give the file `cribpi run` writes")
    with Store(db, read_only=True) as store:  # never locks nor writes: works while a table runs
        games = store.games()
        if args.list:
            for row in games:
                players = ", ".join(row["players"] or [])
                print(f"{row['id']:>4}  {row['started'][:16]}  {row['status']:<9}  {row['mode']:<5}  {players}")
            return 0
        if not games:
            raise StoreError(f"{db} holds no games yet")
        print(export_game(store, args.game if args.game is not None else games[-1]["id"]), end="")
    return 0
