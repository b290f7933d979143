"""``cribpi score 5H 5C 5S JD 5D``: count a hand or crib (the last card is the starter)."""

from __future__ import annotations

import argparse
import json

from cribpi.commands.wrapping import output_columns, wrap
from cribpi.exc import RulesError
from cribpi.rules import get_rules, parse_cards, score_hand


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("score", help="count a hand or crib; the last card is the starter",
                       description=__doc__)
    p.add_argument("cards", nargs="+", metavar="CARD", help="the held cards, then the starter (e.g. 5H 10h TD QS 5♥)")
    p.add_argument("--crib", action="store_true", help="count as the crib (flush needs all five)")
    p.add_argument("--rules", default="acc", help="rule preset: acc (default), hoyle, leaflet, five-card, ...")
    p.add_argument("--json", action="store_true", help="print JSON (total under the key 'total')")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = get_rules(args.rules)
    cards = parse_cards(args.cards)
    if len(cards) < 2:
        raise RulesError(f"give the held cards and then the starter, not just {len(cards)} card")
    score = score_hand(cards[:-1], cards[-1], crib=args.crib, rules=rules)
    if args.json:
        print(json.dumps(score.as_dict(), ensure_ascii=False))
        return 0
    kind = "Crib" if args.crib else "Hand"
    print(f"{kind} {' '.join(c.pretty for c in score.hand)}   starter {score.starter.pretty}")
    for item in score.items:
        cards_text = " ".join(c.pretty for c in item.cards)
        print(f"  {item.kind:<18} {cards_text:<20} {item.points:>3}")
    print("\n".join(wrap(score.explain(), output_columns(), first="  ", rest="    ")))
    print(f"Total: {score.total}")
    return 0
