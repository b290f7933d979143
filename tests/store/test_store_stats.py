"""Per-player statistics: scripted games with numbers counted by hand, and random matches
checked against the Pegged effects the engine reported."""

from __future__ import annotations

from collections import Counter

import pytest

from cribpi.game import (
    Crib, EndDeal, Go, Lay, Mode, NewGame, Peg, Pegged, Penalty, Starter, Undo, apply,
)
from cribpi.game.engine import INITIAL
from cribpi.rules import ACC, Card, count_total, parse_cards
from cribpi.store import Store, stats

from store_helpers import extend, journal, random_match


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split()))


def _lay(seat: int, card: str) -> Lay:
    return Lay(seat, Card.parse(card))


#: One counted deal, Ann dealing, starter 6D.
#: Play: Ben 4C, Ann 7C, Ben 4D (fifteen 2 to Ben), Ann 8H (23), Ben go, Ann 2S (25),
#: Ann go (1 to Ann), Ben 9S, Ann QD, Ben KH (29, last card 1 to Ben): Ann 1, Ben 3.
#: Show: Ben 4C 4D 9S KH = fifteen 2 + pair 2 = 4; Ann 7C 8H 2S QD = fifteens 4 + run 3 = 7;
#: Ann's crib 5C 3H TS JD = fifteens 4 + nobs 1 = 5. A judge's penalty then ends the game
#: (Ann 13 + 108 = 121, Ben 7: a double skunk).
COUNTED = [
    NewGame(("Ann", "Ben"), ACC, Mode.COUNT, first_dealer=0),
    Starter(Card.parse("6D")),
    _lay(1, "4C"), _lay(0, "8H"), Undo(), _lay(0, "7C"), _lay(1, "4D"), _lay(0, "8H"), Go(1),
    _lay(0, "2S"), Go(0), _lay(1, "9S"), _lay(0, "QD"), _lay(1, "KH"),
    Crib(_cards("5C 3H TS JD")), EndDeal(),
    Penalty(0, 108, "scripted end"),
]

#: A board game Ben wins 121-0 (double skunk), so each player has won and lost one.
BOARD = [NewGame(("Ann", "Ben"), ACC, Mode.BOARD, first_dealer=1), Peg(1, 121)]


def _journal(store: Store, events: list) -> int:  # type: ignore[type-arg]
    return journal(store, events)[0]


def test_scripted_games_give_the_numbers_counted_by_hand(store):
    _journal(store, COUNTED)
    _journal(store, BOARD)
    players = stats(store)
    assert list(players) == ["Ann", "Ben"]
    ann, ben = players["Ann"], players["Ben"]
    assert (ann.games_played, ann.games_won, ann.matches_played, ann.matches_won) == (2, 1, 2, 1)
    assert (ben.games_played, ben.games_won, ben.matches_played, ben.matches_won) == (2, 1, 2, 1)
    assert (ann.skunks_given, ann.skunks_received) == (1, 1)
    assert (ben.skunks_given, ben.skunks_received) == (1, 1)
    assert (ann.hands, ann.hand_points, ann.average_hand) == (1, 7, 7.0)
    assert (ben.hands, ben.hand_points, ben.average_hand) == (1, 4, 4.0)
    assert (ann.cribs, ann.crib_points, ann.average_crib) == (1, 5, 5.0)
    assert (ben.cribs, ben.average_crib) == (0, None)
    assert (ann.deals, ann.play_points, ann.pegging_per_deal) == (1, 1, 1.0)
    assert (ben.deals, ben.play_points, ben.pegging_per_deal) == (1, 3, 3.0)


def test_open_and_abandoned_games_do_not_count(store):
    _journal(store, COUNTED[:-1])  # the deal is counted but the game is not over
    abandoned = _journal(store, BOARD[:1])
    store.finish(abandoned)
    assert stats(store) == {}


def test_stats_as_dict_carries_the_averages(store):
    _journal(store, COUNTED)
    row = stats(store)["Ann"].as_dict()
    assert row["average_hand"] == 7.0 and row["pegging_per_deal"] == 1.0 and row["games_won"] == 1


def test_partners_share_their_side_s_wins(store):
    rules = ACC.replace(players=4, partnerships=True)
    _journal(store, [NewGame(("Ann", "Ben", "Cat", "Dan"), rules, Mode.BOARD, first_dealer=0),
                     Peg(1, 100), Peg(2, 121)])
    players = stats(store)
    assert {n: s.games_won for n, s in players.items()} == {"Ann": 1, "Ben": 0, "Cat": 1, "Dan": 0}
    assert {n: s.skunks_given for n, s in players.items()} == {"Ann": 0, "Ben": 0, "Cat": 0, "Dan": 0}


@pytest.mark.parametrize("seed", range(4))
def test_hand_and_crib_totals_match_the_pegged_effects_of_random_count_matches(store, seed):
    """In count mode the engine pegs every hand and crib as the rules give them, so the
    totals must equal the sums of the Pegged effects (zero hands peg nothing)."""
    pegged: Counter[tuple[str, str]] = Counter()
    games = Counter[str]()
    for offset in range(3):
        match = random_match(100 * seed + offset, "acc", Mode.COUNT, 3)
        events = [e for e, _ in match]
        state = INITIAL
        for event in events:
            state, effects = apply(state, event)
            for effect in effects:
                if isinstance(effect, Pegged) and effect.reason in ("hand", "crib"):
                    pegged[state.names[effect.seat], effect.reason] += effect.points
        for record in state.games:
            games[state.names[record.winner]] += 1
        _journal(store, events)
    players = stats(store)
    for name, player in players.items():
        assert player.hand_points == pegged[name, "hand"]
        assert player.crib_points == pegged[name, "crib"]
        assert player.games_won == games[name]
        assert player.matches_played == 3
        assert 0 <= player.play_points <= 31 * player.deals


def test_discard_reviews_are_kept_in_the_statistics(tmp_path):
    """With the review on and the discards entered, each player's discard loss is averaged."""
    from cribpi.analysis import review_discard
    from cribpi.game import Crib, Discard, EndDeal, Lay, Mode, NewGame, Penalty, Starter
    from cribpi.rules import ACC, parse_cards
    from cribpi.store import Store

    pone_hand, dealer_hand = tuple(parse_cards("9H 6C 4C 5C")), tuple(parse_cards("5D 5H 5S JD"))
    with Store(tmp_path / "r.db") as store:
        gid, game = journal(store, [
            NewGame(("Ann", "Ben"), ACC, Mode.COUNT, first_dealer=1, review=True),
            Starter(parse_cards("2S")[0]), Discard(0, tuple(parse_cards("KC QD"))),
            Discard(1, tuple(parse_cards("8S 7D")))])
        from cribpi.game import Go
        hands = {0: pone_hand, 1: dealer_hand}
        while game.state.deal.turn is not None:
            deal = game.state.deal
            seat = deal.turn
            room = 31 - count_total(deal.count)
            fits = [c for c in hands[seat] if c not in deal.cards_of(seat) and c.value <= room]
            extend(store, gid, game, [Lay(seat, fits[0]) if fits else Go(seat)])
        extend(store, gid, game, [Crib(tuple(parse_cards("KC QD 8S 7D"))), EndDeal(),
                                  Penalty(0, 121, "test: end the game")])
        players = stats(store)
    expected = review_discard(pone_hand + tuple(parse_cards("KC QD")), parse_cards("KC QD"), dealer=False)
    assert players["Ann"].reviews == 1 and players["Ben"].reviews == 1
    assert abs(players["Ann"].average_discard_loss - expected.loss) < 1e-9
    assert "average_discard_loss" in players["Ann"].as_dict()
