"""A wrong muggins call (on a claim that missed nothing) gives the player accused the points
called (ACC rule 10.4) under every muggins scope, a right one never takes more than was missed,
and a call with nothing open is refused (docs/usage.md). Checked by calling muggins after every
claim of random claim-mode games."""

from __future__ import annotations

import random

import pytest

from cribpi.exc import RulesError
from cribpi.game import Claim, Mode, Muggins, Reason, apply
from cribpi.game.simulate import random_game_events
from cribpi.game.state import Pegged
from cribpi.rules import ACC, HOYLE, LEAFLET, MugginsScope

SCOPES = {"acc": ACC.replace(muggins=MugginsScope.ACC), "hoyle": HOYLE.replace(muggins=MugginsScope.HOYLE),
          "leaflet": LEAFLET.replace(muggins=MugginsScope.LEAFLET)}
CALLED = 3


@pytest.mark.parametrize("scope", SCOPES)
def test_a_wrong_call_gives_the_points_called_and_a_right_one_no_more_than_missed(scope: str) -> None:
    seen = {Reason.WRONG_MUGGINS: 0, Reason.MUGGINS: 0}
    for seed in range(4):
        for event, state in random_game_events(random.Random(seed), SCOPES[scope], Mode.CLAIM):
            if not isinstance(event, Claim) or state.deal is None:
                continue
            caller = (event.seat + 1) % state.seats
            # what the claimer's claims still open to muggins missed (0: claimed right), the latest last
            open_ = [m.missed for m in state.deal.missed if state.team_of(m.seat) != state.team_of(caller)]
            try:
                _, effects = apply(state, Muggins(caller, CALLED))
            except RulesError:
                assert not open_ or state.phase.value not in ("play", "show", "done")
                continue  # not a moment muggins may be called (the scope, the phase, nothing open)
            pegs = [e for e in effects if isinstance(e, Pegged)]
            assert len(pegs) == 1
            peg = pegs[0]
            seen[peg.reason] += 1
            if peg.reason is Reason.WRONG_MUGGINS:
                assert open_[-1] == 0 and (peg.seat, peg.points) == (event.seat, CALLED)
            else:
                assert peg.seat == caller and peg.points == min(CALLED, open_[-1]) > 0
    assert seen[Reason.WRONG_MUGGINS] > 0 and seen[Reason.MUGGINS] > 0, seen
