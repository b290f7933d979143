"""``cribpi stats``: each player's record over the finished games of a journal
(``--db``; default: the journal ``cribpi run`` and ``cribpi sim`` write)."""

from __future__ import annotations

import argparse
import json
import os

from cribpi.exc import StoreError
from cribpi.inputs import path_option
from cribpi.store import PlayerStats, Store, stats


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("stats", help="per-player statistics from a game journal", description=__doc__)
    p.add_argument("--db", metavar="PATH", type=path_option("game journal"),
                   help="the game journal (default: the cribpi database)")
    p.add_argument("--json", action="store_true", help="print JSON: one object per player name")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.db is None:
        from cribpi.config import default_db_path

        args.db = str(default_db_path())
    if not os.path.isfile(args.db) or os.path.getsize(args.db) == 0:  # opening would create a journal
        raise StoreError(f"there is no game journal at {args.db}: give the file `cribpi run` writes")
    with Store(args.db, read_only=True) as store:  # never locks nor writes: works while a table runs
        players = stats(store)
    if args.json:
        print(json.dumps({name: s.as_dict() for name, s in players.items()}, ensure_ascii=False))
        return 0
    if not players:
        print("No finished games yet.")
        return 0
    print(f"{'Player':<12} {'Games':>5} {'Won':>4} {'Matches':>7} {'Won':>4} {'Skunks +/-':>10}"
          f" {'Hand':>5} {'Crib':>5} {'Peg/deal':>8} {'Discard loss':>12}")
    for player in players.values():
        print(_row(player))
    return 0


def _row(p: PlayerStats) -> str:
    skunks = f"{p.skunks_given}/{p.skunks_received}"
    return (f"{p.name:<12} {p.games_played:>5} {p.games_won:>4} {p.matches_played:>7} {p.matches_won:>4}"
            f" {skunks:>10} {_avg(p.average_hand):>5} {_avg(p.average_crib):>5} {_avg(p.pegging_per_deal):>8}"
            f" {_avg(p.average_discard_loss, 2):>12}")


def _avg(value: float | None, places: int = 1) -> str:
    return "-" if value is None else f"{value:.{places}f}"
