"""Seeded random complete games (2, 3 and 4 players, every mode): invariants."""

import random

import pytest

from cribpi.game import Game, Mode, NewGame, NextGame, Pegged, Phase, Undo, apply, replay
from cribpi.game.engine import INITIAL, cards_left
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC, DECK, MugginsScope, count_total

SETUPS = [
    ACC.replace(muggins=MugginsScope.ACC),
    ACC.replace(players=3, muggins=MugginsScope.ACC),
    ACC.replace(players=4, muggins=MugginsScope.LEAFLET),
    ACC.replace(players=4, partnerships=True, muggins=MugginsScope.ACC, overclaim_penalty=2),
    ACC.replace(name="five-card", game_length=61, five_card=True),
]
CASES = [(rules, mode, seed) for rules in SETUPS for mode in Mode for seed in range(3)]


def _ids(case):
    rules, mode, seed = case
    return f"{rules.players}{'p' if rules.partnerships else ''}{'-5card' if rules.five_card else ''}-{mode.value}-{seed}"


@pytest.fixture(params=CASES, ids=[_ids(c) for c in CASES])
def match(request):
    rules, mode, seed = request.param
    return list(random_game_events(random.Random(seed), rules, mode, match_games=3))


def test_pegged_points_add_up_to_the_scores(match):
    state = INITIAL
    totals: list[int] = []
    for event, expected in match:
        state, effects = apply(state, event)
        if isinstance(event, (NewGame, NextGame)):
            totals = [0] * len(state.scores)
        for e in effects:
            if isinstance(e, Pegged):
                totals[e.team] += e.points
                assert e.score == min(totals[e.team], state.rules.game_length)  # the peg stops in the game hole
        assert tuple(min(t, state.rules.game_length) for t in totals) == state.scores
        assert state == expected


def test_replay_is_deterministic(match):
    events = [e for e, _ in match]
    assert replay(events) == replay(events) == match[-1][1]


def test_undo_then_redo_gives_the_same_state(match):
    rng = random.Random(len(match))
    events = [e for e, _ in match]
    game = Game(events)
    for _ in range(5):
        steps = rng.randint(1, min(12, len(events)))
        game.apply(Undo(steps))
        assert game.state == match[len(events) - steps - 1][1]
        for event in events[len(events) - steps:]:
            game.apply(event)
        assert game.state == match[-1][1]


def test_no_state_breaks_a_rule(match):
    for _, state in match:
        deal = state.deal
        assert all(s >= 0 for s in state.scores)
        target = state.rules.game_length
        assert sum(1 for s in state.scores if s >= target) <= 1
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            assert max(state.scores) >= target
        elif state.scores:
            assert max(state.scores) < target
        if deal is None or state.phase is Phase.BOARD:
            continue
        assert count_total(deal.count) <= 31
        laid = [c for _, c in deal.played]
        assert len(set(laid)) == len(laid)
        assert deal.starter is None or deal.starter not in laid
        assert not set(deal.crib) & set(laid)
        for seat in range(state.seats):
            assert 0 <= cards_left(state, seat) <= state.rules.cards_held
        if deal.turn is not None:
            assert cards_left(state, deal.turn) > 0 and deal.turn not in deal.gone


def test_what_the_deal_keeps_agrees_with_its_cards(match):
    """The running count, each seat's cards left and whether a card was seen are kept as the
    deal goes, not worked out from its cards: they must say what the cards say."""
    for _, state in match:
        deal = state.deal
        if deal is None or state.phase is Phase.BOARD:
            continue
        assert deal.running == count_total(deal.count)
        assert deal.held == tuple(state.rules.cards_held - len(deal.cards_of(s)) for s in range(state.seats))
        seen = deal.seen()
        assert [card for card in DECK if deal.has_seen(card)] == [card for card in DECK if card in seen]


@pytest.mark.parametrize("rules", SETUPS, ids=lambda r: f"{r.players}{'p' if r.partnerships else ''}{'-5card' if r.five_card else ''}")
@pytest.mark.parametrize("mode", [Mode.COUNT, Mode.CLAIM])
def test_games_with_every_hand_entered_keep_the_rules(rules, mode):
    """With hands entered the engine checks every go against the hand: the driver's
    legal play must never be refused, and the state invariants hold."""
    match = list(random_game_events(random.Random(11), rules, mode, match_games=1, declare_hands=True))
    assert match[-1][1].phase is Phase.MATCH_OVER
    test_no_state_breaks_a_rule(match)
    test_what_the_deal_keeps_agrees_with_its_cards(match)
