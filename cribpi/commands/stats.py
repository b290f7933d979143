"""``cribpi stats``: each player's record over the finished games of a journal
(``--db``; default: the journal ``cribpi run`` and ``cribpi sim`` write)."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable

from cribpi.commands.wrapping import output_columns, wrap
from cribpi.exc import StoreError
from cribpi.inputs import path_option
from cribpi.store import PlayerStats, Store, stats


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("stats", help="per-player statistics from a game journal", description=__doc__)
    p.add_argument("--db", metavar="PATH", type=path_option("game journal"),
                   help="the game journal (default: the cribpi database)")
    p.add_argument("--json", action="store_true", help="print JSON: one object per player name")
    p.set_defaults(run=run)


#: Where the games a checkout's ``bash .ci/play`` plays are, said when the user's journal has none.
CHECKOUT = ("games played with `bash .ci/play` are kept in that checkout's .cribpi/cribpi.db: "
            "`bash .ci/play stats` reads them")


def run(args: argparse.Namespace) -> int:
    users = args.db is None and not os.environ.get("CRIBPI_DB")  # the user's or the service's journal
    if args.db is None:
        from cribpi.config import default_db_path

        args.db = str(default_db_path())
    if not os.path.isfile(args.db) or os.path.getsize(args.db) == 0:  # opening would create a journal
        raise StoreError(f"there is no game journal at {args.db}: give the file `cribpi run` writes"
                         + (f" ({CHECKOUT})" if users else ""))
    with Store(args.db, read_only=True) as store:  # never locks nor writes: works while a table runs
        players = stats(store)
    if args.json:
        print(json.dumps({name: s.as_dict() for name, s in players.items()}, ensure_ascii=False))
        return 0
    if not players:
        said = [f"No finished games yet in {args.db}."]
        if users:  # the command on a line of its own, never broken
            said.append("Games played with `bash .ci/play` are kept in that checkout's .cribpi/cribpi.db; "
                        "in the checkout, this reads them:")
        print("\n".join(line for text in said for line in wrap(text, output_columns(), rest="")))
        if users:
            print("bash .ci/play stats")
        return 0
    print("\n".join(stats_lines(list(players.values()), output_columns())))
    return 0


#: The table's columns after the player's name: heading, and what each row shows in it.
COLUMNS: tuple[tuple[str, Callable[[PlayerStats], str]], ...] = (
    ("Games", lambda p: str(p.games_played)),
    ("Won", lambda p: str(p.games_won)),
    ("Matches", lambda p: str(p.matches_played)),
    ("Won", lambda p: str(p.matches_won)),
    ("Skunks +/-", lambda p: f"{p.skunks_given}/{p.skunks_received}"),
    ("Hand", lambda p: _avg(p.average_hand)),
    ("Crib", lambda p: _avg(p.average_crib)),
    ("Peg/deal", lambda p: _avg(p.pegging_per_deal)),
    ("Discard loss", lambda p: _avg(p.average_discard_loss, 2)),
)
#: The same figures said one player at a time, where the table is wider than the terminal.
WORDS = ("games", "won", "matches", "won", "skunks given/taken", "hand", "crib", "pegged a deal",
         "discard loss")


def stats_lines(players: list[PlayerStats], columns: int) -> list[str]:
    """A table, a row a player, its name column as wide as the longest name; where that is
    wider than ``columns``, each player's figures under his name instead, wrapped."""
    name = max([len("Player"), *(len(p.name) for p in players)])
    widths = [max(len(head), *(len(show(p)) for p in players)) for head, show in COLUMNS]
    table = [" ".join([f"{'Player':<{name}}", *(f"{head:>{w}}" for (head, _), w in zip(COLUMNS, widths))])]
    table += [" ".join([f"{p.name:<{name}}", *(f"{show(p):>{w}}" for (_, show), w in zip(COLUMNS, widths))])
              for p in players]
    if max(map(len, table)) <= columns:
        return table
    lines: list[str] = []
    for p in players:
        figures = ", ".join(f"{word} {show(p)}" for word, (_, show) in zip(WORDS, COLUMNS))
        lines += [p.name, *wrap(figures, columns, first="  ", rest="  ")]
    return lines


def _avg(value: float | None, places: int = 1) -> str:
    return "-" if value is None else f"{value:.{places}f}"
