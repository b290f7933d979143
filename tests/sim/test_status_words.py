"""The simulator's status line speaks the players' words, never the engine's identifiers."""

import dataclasses

import pytest

from cribpi.game import Game, NewGame, Phase
from cribpi.rules import PRESETS, get_rules
from cribpi.sim.terminal import status_line


@pytest.mark.parametrize("phase", list(Phase))
def test_every_phase_is_said_in_words(phase):
    state = dataclasses.replace(Game([NewGame(("Ann", "Bob"), get_rules("acc"))]).state, phase=phase)
    line = status_line(state)
    assert "_" not in line and "[" not in line and " · count mode · ACC rules · " in line


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rules_are_named_not_keyed(preset):
    line = status_line(Game([NewGame(("Ann", "Bob"), get_rules(preset))]).state)
    assert " rules · " in line and "acc" not in line


def test_the_line_says_muggins_is_played_in_claim_mode_and_only_then():
    from cribpi.game import Mode
    from cribpi.rules import MugginsScope

    muggins = get_rules("acc").replace(muggins=MugginsScope.ACC)
    claim = status_line(Game([NewGame(("Ann", "Bob"), muggins, Mode.CLAIM)]).state)
    assert " · claim mode, muggins · ACC rules · " in claim
    assert " · claim mode · " in status_line(Game([NewGame(("Ann", "Bob"), get_rules("acc"), Mode.CLAIM)]).state)
    assert " · count mode · " in status_line(Game([NewGame(("Ann", "Bob"), muggins, Mode.COUNT)]).state)


def test_a_claim_waited_for_is_said_with_the_seat_and_the_keys_that_make_it():
    from types import SimpleNamespace

    from cribpi.game import Claim, Lay, Mode, Starter
    from cribpi.rules import Card
    from cribpi.sim.terminal import _waiting_for

    game = Game([NewGame(("Ann", "Bob"), get_rules("acc"), Mode.CLAIM, first_dealer=1), Starter(Card.parse("2S"))])
    for seat, card in ((0, "5C"), (1, "5D"), (0, "5H"), (1, "5S"), (0, "2C"), (1, "2D"), (0, "3C"), (1, "3D")):
        game.apply(Lay(seat, Card.parse(card)))
    while game.state.deal.unclaimed:
        moment = game.state.deal.unclaimed[0]
        game.apply(Claim(moment.seat, moment.points))
    assert game.state.deal.pending is not None and game.state.deal.pending.seat == 0
    said = _waiting_for(SimpleNamespace(ui=SimpleNamespace(menu=None, state=game.state)))
    assert said == "waiting for a claim from Ann (seat 1): p 1 N Enter claims N"


def _worst_cases():
    """Every table the status line can be asked for, at its longest: each player count (four
    in partnerships too), mode, preset and phase, every side on three digits, each dealer."""
    from cribpi.app.settings import DEFAULT_NAMES
    from cribpi.game import Mode
    from cribpi.rules import MugginsScope

    for players, partnerships in ((2, False), (3, False), (4, False), (4, True)):
        for preset in sorted(PRESETS):
            for mode in Mode:
                if get_rules(preset).five_card and players > 2:
                    continue  # five-card cribbage is for two
                rules = get_rules(preset).replace(players=players, partnerships=partnerships,
                                                  muggins=MugginsScope.ACC)
                state = Game([NewGame(DEFAULT_NAMES[:players], rules, mode, first_dealer=0)]).state
                for phase in Phase:
                    for dealer in range(players):
                        deal = dataclasses.replace(state.deal, dealer=dealer) if state.deal else None
                        yield dataclasses.replace(state, phase=phase, deal=deal,
                                                  scores=tuple(121 - t for t in range(len(state.scores))))


def test_every_table_fits_80_columns_with_every_score_and_the_dealer():
    """Three players on three-digit scores cut the dealer off ("... · Green dea…"): the line
    says the set-up shorter, or leaves it out, before a score or the dealer is cut."""
    checked = 0
    for state in _worst_cases():
        line = status_line(state)
        assert len(line) <= 80 and "…" not in line, line
        for team, score in enumerate(state.scores):
            assert f"{state.team_name(team)} {score}" in line, line
        if state.deal is not None:
            assert line.endswith(f" · {state.names[state.deal.dealer]} deals"), line
        checked += state.deal is not None
    assert checked > 500


def test_a_wide_terminal_gets_the_whole_line():
    from cribpi.app.settings import DEFAULT_NAMES
    from cribpi.game import Mode
    from cribpi.rules import MugginsScope

    rules = get_rules("acc-tournament").replace(players=3, muggins=MugginsScope.ACC)
    state = Game([NewGame(DEFAULT_NAMES[:3], rules, Mode.CLAIM, first_dealer=2)]).state
    state = dataclasses.replace(state, scores=(118, 120, 121), phase=Phase.DONE)
    wide = status_line(state, 132)
    assert wide == ("Red 118  Blue 120  Green 121 · claim mode, muggins · ACC tournament rules · deal counted"
                    f" · {state.names[state.deal.dealer]} deals")
    assert len(status_line(state)) <= 80 < len(wide)


#: The parts a table can have down at once, as the daemon's guard says them.
ALL_DOWN = ("LEDs", "OLED 2", "buttons", "card reader", "speaker")


def test_a_part_down_is_said_last_and_every_table_still_fits_80_columns():
    """A part down is said ("no LEDs") for as long as it is, at the end of the line; the set-up
    is left out before it, and every part down is said shorter ("no LEDs +4") before a score or
    the dealer is cut."""
    for state in _worst_cases():
        for missing, said in ((("LEDs",), " · no LEDs"), (ALL_DOWN[:2], " · no LEDs, OLED 2"),
                              (ALL_DOWN, " · no LEDs")):
            line = status_line(state, missing=missing)
            assert len(line) <= 80 and "…" not in line and said in line, line
            for team, score in enumerate(state.scores):
                assert f"{state.team_name(team)} {score}" in line, line
            if state.deal is not None:
                assert f" · {state.names[state.deal.dealer]} deals · no LEDs" in line, line
    assert status_line(state, 132, ALL_DOWN).endswith(" · no LEDs, OLED 2, buttons, card reader, speaker")
    assert status_line(state, missing=ALL_DOWN).endswith(" · no LEDs +4")
