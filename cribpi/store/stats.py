"""Per-player statistics over the finished games of a journal (what counts: docs/store.md)."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from cribpi.game import INITIAL, EndDeal, Game, NextGame, Phase, Reason, State, apply
from cribpi.game.review import review_seat, reviewable_seats
from cribpi.rules import ResultKind
from cribpi.store.journal import Store

__all__ = ["PlayerStats", "stats"]

_SKUNKS: Final = (ResultKind.SKUNK, ResultKind.DOUBLE_SKUNK, ResultKind.LURCH)


@dataclasses.dataclass(slots=True)
class PlayerStats:
    """One player's record over the finished games of a journal (see :func:`stats`)."""

    name: str
    games_played: int = 0
    games_won: int = 0
    matches_played: int = 0
    matches_won: int = 0
    skunks_given: int = 0
    skunks_received: int = 0
    hands: int = 0
    hand_points: int = 0
    cribs: int = 0
    crib_points: int = 0
    deals: int = 0
    play_points: int = 0
    reviews: int = 0  # discards reviewed (tables with the review on, discard entered)
    review_loss: float = 0.0  # expected points given up against the best discard, summed

    @property
    def average_hand(self) -> float | None:
        return self.hand_points / self.hands if self.hands else None

    @property
    def average_crib(self) -> float | None:
        return self.crib_points / self.cribs if self.cribs else None

    @property
    def pegging_per_deal(self) -> float | None:
        return self.play_points / self.deals if self.deals else None

    @property
    def average_discard_loss(self) -> float | None:
        """Expected points per deal given up by the discards reviewed (0 is perfect)."""
        return self.review_loss / self.reviews if self.reviews else None

    def as_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out.update(average_hand=self.average_hand, average_crib=self.average_crib,
                   pegging_per_deal=self.pegging_per_deal,
                   average_discard_loss=self.average_discard_loss)
        return out


def stats(store: Store) -> dict[str, PlayerStats]:
    """Per player name (sorted), over the journal's finished games."""
    players: dict[str, PlayerStats] = {}
    for row in store.games("finished"):
        _add_match(players, store.load(row["id"]))
    return dict(sorted(players.items()))


def _add_match(players: dict[str, PlayerStats], game: Game) -> None:
    """Replay the events in force, collecting each deal's show totals and play points."""
    state = INITIAL
    for event in game.events:
        if isinstance(event, (EndDeal, NextGame)):
            _add_deal(players, state)
        state, _ = apply(state, event)
    _add_deal(players, state)
    _add_results(players, state)


def _add_deal(players: dict[str, PlayerStats], state: State) -> None:
    """Hands and the crib count as the rules gave them; a deal counts for pegging once its play
    is over. Board-mode deals (no cards entered) and misdeals are not counted."""
    deal = state.deal
    if deal is None or deal.starter is None:
        return
    stats = [players.setdefault(name, PlayerStats(name)) for name in state.names]
    for seat, points in deal.hand_totals:
        stats[seat].hands += 1
        stats[seat].hand_points += points
    if deal.crib_total is not None:
        stats[deal.dealer].cribs += 1
        stats[deal.dealer].crib_points += deal.crib_total
    if deal.hand_totals or deal.crib_total is not None:
        for seat, player in enumerate(stats):
            player.deals += 1
            player.play_points += sum(p for s, p, reason in deal.pegged if s == seat and reason is Reason.PLAY)
    for seat in reviewable_seats(state):
        review = review_seat(state, seat)
        if review is not None:
            stats[seat].reviews += 1
            stats[seat].review_loss += review.loss


def _add_results(players: dict[str, PlayerStats], state: State) -> None:
    stats = [players.setdefault(name, PlayerStats(name)) for name in state.names]
    for record in state.games:
        skunk = record.result.kind in _SKUNKS
        for seat, player in enumerate(stats):
            won = state.team_of(seat) == record.winner
            player.games_played += 1
            player.games_won += won
            player.skunks_given += skunk and won
            player.skunks_received += skunk and not won
    if state.phase is Phase.MATCH_OVER:
        won_games = state.games_won()
        champion = won_games.index(max(won_games))
        for seat, player in enumerate(stats):
            player.matches_played += 1
            player.matches_won += state.team_of(seat) == champion
