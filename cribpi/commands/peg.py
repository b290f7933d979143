"""``cribpi peg 4 2 3 5 6``: lay cards (ranks or cards) in turn and show what each pegs.

The count restarts from zero when the next card would pass 31 (or after exactly 31);
"go" and last card are shown where they fall.
"""

from __future__ import annotations

import argparse
import json

from cribpi.exc import CardError, RulesError
from cribpi.inputs import shown
from cribpi.rules import MAX_COUNT, Card, Rank, Suit, count_total, get_rules, score_play


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("peg", help="score a sequence of cards laid in the play", description=__doc__)
    p.add_argument("cards", nargs="+", metavar="CARD", help="ranks (4, 10, J) or cards (4H, TD)")
    p.add_argument("--rules", default="acc", help="rule preset (default acc)")
    p.add_argument("--json", action="store_true", help="print JSON: one entry per card")
    p.set_defaults(run=run)


def parse_play_tokens(tokens: list[str]) -> list[Card]:
    """Cards from tokens; a bare rank gets a suit that no other token uses for that rank."""
    suits_left: dict[Rank, list[Suit]] = {r: list(Suit) for r in Rank}
    parsed: list[Card | tuple[str, Rank]] = []
    for token in tokens:
        try:
            card = Card.parse(token)
        except CardError:
            try:
                parsed.append((token, Rank.parse(token)))
            except CardError:
                raise CardError(f"{shown(token)} is neither a rank (A, 2-10, J, Q, K) nor a card (e.g. 5H)") from None
            continue
        if card.suit not in suits_left[card.rank]:
            raise RulesError(f"{card} is laid twice: every card must be different")
        suits_left[card.rank].remove(card.suit)
        parsed.append(card)
    # explicit cards are placed first, so "5 5C" gives the bare 5 a suit other than clubs
    cards: list[Card] = []
    for item in parsed:
        if isinstance(item, tuple):
            token, rank = item
            if not suits_left[rank]:
                raise RulesError(f"{shown(token)}: all four cards of that rank are already laid")
            item = Card(rank, suits_left[rank].pop(0))
        cards.append(item)
    return cards


def run(args: argparse.Namespace) -> int:
    rules = get_rules(args.rules)
    cards = parse_play_tokens(args.cards)
    rows: list[dict[str, object]] = []
    count: list[Card] = []
    for card in cards:
        if count_total(count) + card.value > MAX_COUNT:
            rows.append(_go_row(count))
            count = []
        count.append(card)
        score = score_play(count, rules=rules)
        row: dict[str, object] = {"card": str(card), "count": score.running, "points": score.total,
                                  "reasons": [it.kind for it in score.items], "explain": score.explain()}
        rows.append(row)
        if score.running == MAX_COUNT:
            count = []
    if count:
        rows.append({"card": None, "count": count_total(count), "points": 1, "reasons": ["last card"],
                     "explain": "one for last"})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    for row in rows:
        _print_row(row)
    print(f"Total pegged: {sum(int(str(r['points'])) for r in rows)}")
    return 0


def _go_row(count: list[Card]) -> dict[str, object]:
    return {"card": None, "count": count_total(count), "points": 1, "reasons": ["go"],
            "explain": "one for the go"}


def _print_row(row: dict[str, object]) -> None:
    card = row["card"] or "--"
    said = row["explain"] if row["points"] else ""
    print(f"{card:>3}  {row['count']:>2}  {row['points']:>2}  {said}")
