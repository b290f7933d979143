"""Helpers for scripting deals: cards by text, seats by name."""

from __future__ import annotations

import dataclasses


from cribpi.game import Game, GameOver, Pegged
from cribpi.rules import Card, count_total


def C(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pegged(effects, seat=None, reason=None) -> int:
    return sum(e.points for e in effects
               if isinstance(e, Pegged) and (seat is None or e.seat == seat) and (reason is None or e.reason == reason))


def set_scores(game: Game, *scores: int) -> None:
    """Test set-up only: put the pegs where a scripted deal needs them."""
    state = game.state
    deal = dataclasses.replace(state.deal, scores_at_start=tuple(scores)) if state.deal else None
    game._states[-1] = dataclasses.replace(state, scores=tuple(scores), rear=tuple(scores), deal=deal)


class Script:
    """Apply events one by one, collecting every effect."""

    def __init__(self, *events) -> None:
        self.game = Game()
        self.effects: list = []
        for e in events:
            self(e)

    def __call__(self, *events):
        for e in events:
            self.effects.extend(self.game.apply(e))
        return self

    @property
    def state(self):
        return self.game.state

    def points(self, seat=None, reason=None) -> int:
        return pegged(self.effects, seat, reason)

    def game_over(self):
        return next((e for e in self.effects if isinstance(e, GameOver)), None)




def play_out(script: Script, hands: dict[int, tuple[Card, ...]]) -> None:
    """Play the deal to its end: each seat lays its first card that fits, else says go."""
    from cribpi.game import Go, Lay, Phase

    while script.state.phase is Phase.PLAY and script.state.deal.turn is not None:
        deal = script.state.deal
        seat = deal.turn
        room = 31 - count_total(deal.count)
        laid = set(deal.cards_of(seat))
        fits = [c for c in hands[seat] if c not in laid and c.value <= room]
        script(Lay(seat, fits[0]) if fits else Go(seat))
