"""``cribpi advise 5H 5C 5S JD 9C KD --dealer``: rank every discard by exact expected points.

Give the cards dealt (6 with two players; 5 with three or four players, or in five-card
cribbage) and whose crib it is. Expectations are exact: every starter from the unseen cards
and every crib the other cards could make are counted, none sampled.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from cribpi.analysis import DiscardOption, analyse_discards
from cribpi.inputs import int_option
from cribpi.rules import Card, Rules, get_rules, parse_cards


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("advise", help="rank every discard from a dealt hand by exact expected points",
                       description=__doc__)
    p.add_argument("cards", nargs="+", metavar="CARD", help="the cards dealt (e.g. 5H 10h TD QS 5♥ AC)")
    side = p.add_mutually_exclusive_group(required=True)
    side.add_argument("--dealer", action="store_true", help="the crib is yours: it adds to your hand")
    side.add_argument("--pone", action="store_true", help="the crib is an opponent's: it counts against you")
    p.add_argument("--rules", default="acc", help="rule preset: acc (default), hoyle, leaflet, five-card, ...")
    p.add_argument("--players", type=int_option(choices=(2, 3, 4)), choices=(2, 3, 4), help="number of players (default: the preset's)")
    p.add_argument("--json", action="store_true",
                   help="print JSON: a list of objects with discard, keep, hand_ev, crib_ev, total_ev, hand_min, hand_max")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = get_rules(args.rules)
    if args.players is not None:
        rules = rules.replace(players=args.players)
    cards = parse_cards(args.cards)
    options = analyse_discards(cards, dealer=args.dealer, rules=rules)
    if args.json:
        print(json.dumps([o.as_dict() for o in options], ensure_ascii=False))
    else:
        print("\n".join(format_table(cards, options, rules, dealer=args.dealer)))
    return 0


def format_table(cards: Sequence[Card], options: Sequence[DiscardOption], rules: Rules, *, dealer: bool) -> list[str]:
    """The ranked table as lines of text."""
    side = "dealer: the crib is yours (total = hand + crib)" if dealer else "pone: the crib is not yours (total = hand - crib)"
    starters = options[0].starters
    lines = [
        f"{_pretty(cards)}   {rules.name} rules, {rules.players} players, {side}",
        f"{len(options)} discards, best first; exact over all {starters} starters and every crib.",
        "",
        f"{'#':>3}  {'discard':<9} {'keep':<16} {'hand EV':>8} {'crib EV':>8} {'total EV':>9}  hand min-max",
    ]
    for n, o in enumerate(options, 1):
        lines.append(
            f"{n:>3}  {_pretty(o.discard):<9} {_pretty(o.keep):<16} {o.hand_ev:>8.3f} {o.crib_ev:>8.3f} "
            f"{o.total_ev:>9.3f}  {o.hand_min}-{o.hand_max}"
        )
    return lines


def _pretty(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty for c in cards)
