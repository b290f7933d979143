"""Seeded random games through ``apply``: for property tests, benchmarks and demos.

The driver deals real cards, so it knows every hand; the engine only sees what a table
would enter (cards as laid, the crib, and in claim mode the claims).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from cribpi.game.engine import apply
from cribpi.game.events import (
    Claim, Crib, CutForDeal, EndDeal, Event, Go, HandCards, Lay, Mode, Muggins, NewGame,
    NextGame, Peg, Starter,
)
from cribpi.game.legal import expected
from cribpi.game.state import Moment, Phase, State
from cribpi.rules import ACC, DECK, MAX_COUNT, Card, Rules, count_total

__all__ = ["random_game_events", "NAMES"]

NAMES = ("Ann", "Ben", "Cat", "Dan")


def random_game_events(rng: random.Random, rules: Rules = ACC, mode: Mode = Mode.COUNT,
                       match_games: int = 1, declare_hands: bool = False) -> Iterator[tuple[Event, State]]:
    """Yield (event, state after it) for one random match, start to finish."""
    state = State()
    first = NewGame(NAMES[:rules.players], rules, mode, match_games)
    state, _ = apply(state, first)
    yield first, state
    cards = _Cards()
    while state.phase is not Phase.MATCH_OVER:
        event = _choose(rng, state, cards, declare_hands)
        state, _ = apply(state, event)
        yield event, state


def _choose(rng: random.Random, state: State, cards: _Cards, declare: bool) -> Event:
    phase = state.phase
    if phase is Phase.CUT:
        return CutForDeal(tuple(rng.sample(DECK, state.seats)))
    if phase is Phase.GAME_OVER:
        return NextGame()
    if phase is Phase.BOARD:
        if rng.random() < 0.15:
            return EndDeal()
        return Peg(rng.randrange(state.seats), rng.randint(1, 12))
    deal = state.deal
    assert deal is not None
    if phase is Phase.STARTER:
        if not deal.declared or all(h is None for h in deal.declared):
            _deal(rng, state, cards)  # a fresh deal: the driver holds the cards
        if declare:
            waiting = [s for s, h in enumerate(deal.declared) if h is None]
            if waiting:
                return HandCards(waiting[0], tuple(cards.hands[waiting[0]]))
        return Starter(cards.starter)
    blocking = expected(state).actions == ("claim",)
    if blocking or (deal.unclaimed and rng.random() < 0.6):
        moment = deal.pending or (deal.unclaimed[0] if blocking else rng.choice(deal.unclaimed))
        return _claim(rng, moment)
    short = [m for m in deal.missed if m.missed]  # under-claims (right claims are open to a call too)
    if short and rng.random() < 0.5:
        victim = short[-1]
        callers = [s for s in range(state.seats) if state.team_of(s) != state.team_of(victim.seat)]
        return Muggins(rng.choice(callers), rng.randint(1, victim.missed + 1), victim.seat)
    if phase is Phase.PLAY:
        return _play(rng, state, cards.hands)
    if phase is Phase.SHOW:
        wanted = expected(state)
        if wanted.actions == ("hand",) and wanted.seat is not None:
            return HandCards(wanted.seat, tuple(cards.hands[wanted.seat]))
        return Crib(tuple(cards.crib))
    return EndDeal()


class _Cards:
    """What the driver dealt this deal (the engine sees only what a table would enter)."""

    def __init__(self) -> None:
        self.hands: list[list[Card]] = []
        self.crib: list[Card] = []
        self.starter: Card = DECK[0]


def _deal(rng: random.Random, state: State, cards: _Cards) -> None:
    """Shuffle, deal and discard at random; the driver keeps the hands, crib and starter."""
    rules = state.rules
    pack = list(DECK)
    rng.shuffle(pack)
    hands, crib = cards.hands, cards.crib
    hands.clear()
    crib.clear()
    for _ in range(state.seats):
        dealt = [pack.pop() for _ in range(rules.cards_dealt)]
        rng.shuffle(dealt)
        crib.extend(dealt[rules.cards_held:])
        hands.append(dealt[:rules.cards_held])
    for _ in range(rules.crib_from_pack):
        crib.append(pack.pop())
    cards.starter = pack.pop()


def _play(rng: random.Random, state: State, hands: list[list[Card]]) -> Event:
    deal = state.deal
    assert deal is not None and deal.turn is not None
    seat = deal.turn
    laid = set(deal.cards_of(seat))
    room = MAX_COUNT - count_total(deal.count)
    options = [c for c in hands[seat] if c not in laid and c.value <= room]
    if options:
        return Lay(seat, rng.choice(options))
    return Go(seat)


def _claim(rng: random.Random, moment: Moment) -> Event:
    """Mostly right, sometimes short (muggins bait), sometimes over."""
    true = moment.points
    roll = rng.random()
    claimed = true if roll < 0.7 else max(0, true - rng.randint(1, 3)) if roll < 0.9 else true + rng.randint(1, 2)
    return Claim(moment.seat, claimed)
