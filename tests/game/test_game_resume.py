"""Game.rollback (an event its store could not keep) and Game.resume (a game started from a
saved state, its earlier events read back only when an undo or a reader reaches them)."""

from __future__ import annotations

import random

import pytest

from cribpi.exc import RulesError
from cribpi.game import Game, Mode, NewGame, Peg, Undo
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC

BOARD = NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0)


def _match(seed: int = 3, mode: Mode = Mode.CLAIM) -> list:  # type: ignore[type-arg]
    return [e for e, _ in random_game_events(random.Random(seed), ACC, mode, 1)]


def _snapshot(game: Game) -> tuple:  # type: ignore[type-arg]
    return game.state, list(game.events), list(game.journal)


def _resumed(journal: list, cuts: list[int], loads: list[int] | None = None) -> Game:  # type: ignore[type-arg]
    """The game of ``journal`` resumed at the last cut, each cut's game resumed from the one
    before (as a store with several snapshots gives them); ``loads`` lists each read back."""
    def at(length: int, earlier_cuts: list[int]) -> Game:
        if not earlier_cuts:
            return Game(journal[:length])
        cut, rest = earlier_cuts[-1], earlier_cuts[:-1]
        base = Game(journal[:cut])

        def load() -> Game:
            if loads is not None:
                loads.append(cut)
            return at(cut, rest)
        game = Game.resume(base.state, cut, len(base.events), load)
        for event in journal[cut:length]:
            game.apply(event)
        return game
    return at(len(journal), cuts)


# -- rollback --------------------------------------------------------------------------------


def test_rollback_takes_an_event_back_as_if_it_never_came():
    game = Game([BOARD, Peg(0, 5)])
    before = _snapshot(game)
    game.apply(Peg(1, 7))
    game.rollback()
    assert _snapshot(game) == before
    game.apply(Peg(1, 3))
    assert game.state.scores == (5, 3) and len(game.journal) == 3


def test_rollback_of_an_undo_brings_back_what_it_took():
    game = Game([BOARD, Peg(0, 5), Peg(1, 7), Peg(0, 2)])
    before = _snapshot(game)
    game.apply(Undo(2))
    game.rollback()
    assert _snapshot(game) == before
    game.apply(Undo())
    assert game.state.scores == (5, 7)


def test_only_the_latest_apply_can_be_rolled_back():
    game = Game([BOARD])
    with pytest.raises(RulesError, match="nothing to roll back"):
        game.rollback()  # what the game was built from is not an apply
    game = Game()
    with pytest.raises(RulesError, match="nothing to roll back"):
        game.rollback()
    game = Game([BOARD])
    game.apply(Peg(0, 1))
    game.rollback()
    with pytest.raises(RulesError, match="nothing to roll back"):
        game.rollback()


def test_a_refused_event_leaves_the_earlier_one_to_roll_back():
    game = Game([BOARD])
    game.apply(Peg(0, 4))
    with pytest.raises(RulesError):
        game.apply(Undo(9))
    game.rollback()
    assert list(game.journal) == [BOARD]


@pytest.mark.parametrize("seed", range(3))
def test_apply_then_rollback_at_every_step_of_a_match_changes_nothing(seed):
    rng = random.Random(seed)
    game = Game()
    for event in _match(seed):
        if len(game.events) > 3 and rng.random() < 0.2:
            before = _snapshot(game)
            game.apply(Undo(rng.randint(1, 3)))
            game.rollback()
            assert _snapshot(game) == before
        before = _snapshot(game)
        game.apply(event)
        after = _snapshot(game)
        game.rollback()
        assert _snapshot(game) == before
        game.apply(event)
        assert _snapshot(game) == after


# -- resume ----------------------------------------------------------------------------------


@pytest.mark.parametrize("cuts", [[1], [40], [10, 20, 30, 60, 61, 90], list(range(5, 120, 5))])
def test_a_resumed_game_undoes_exactly_as_the_whole_one(cuts):
    journal = _match(7)[:120]
    journal[70:70] = [Undo(4), *journal[66:70]]  # an undo (and the events again) between snapshots
    resumed, whole = _resumed(journal, cuts), Game(journal)
    assert resumed.state == whole.state
    assert len(resumed.events) == len(whole.events) and len(resumed.journal) == len(whole.journal)
    while len(whole.events) > 1:
        steps = min(len(whole.events) - 1, 1 + len(whole.events) % 7)
        resumed.apply(Undo(steps))
        whole.apply(Undo(steps))
        assert resumed.state == whole.state
    assert resumed.events == whole.events and resumed.journal == whole.journal


def test_reading_the_latest_events_reads_nothing_back_and_undo_only_as_far_as_it_goes():
    journal = _match(4)[:100]
    loads: list[int] = []
    game = _resumed(journal, [20, 40, 60, 80], loads)
    assert loads == [] and len(game.journal) == 100 and game.journal[-1] == journal[-1]
    assert game.journal[85] == journal[85] and loads == []
    game.apply(Undo(25))  # back to 75: one snapshot further back
    assert loads == [80]
    assert game.journal[65] == journal[65] and loads == [80]
    assert game.journal[55] == journal[55] and loads == [80, 60]
    assert list(game.journal)[:100] == journal and loads == [80, 60, 40, 20]


def test_the_event_log_is_a_read_only_sequence():
    game = _resumed(_match(5)[:50], [30])
    events = game.events
    assert events == Game(_match(5)[:50]).events == tuple(_match(5)[:50])
    assert events != _match(5)[:49] and events != "not a list"
    assert events[10:12] == _match(5)[10:12] and events[-1] == _match(5)[49]
    with pytest.raises(IndexError):
        events[50]
    with pytest.raises(IndexError):
        events[-51]
    assert "EventLog([NewGame(" in repr(events)
    assert not hasattr(events, "append")


def test_when_the_journal_before_disagrees_with_the_state_resumed_from_the_journal_wins():
    journal = [BOARD, Peg(0, 5), Peg(1, 7), Peg(0, 2), Peg(1, 1)]
    wrong = Game([BOARD, Peg(0, 50), Peg(1, 7)]).state  # a snapshot that does not match
    game = Game.resume(wrong, 3, 3, lambda: Game(journal[:3]))
    for event in journal[3:]:
        game.apply(event)
    assert game.state.scores == (52, 8)  # as resumed
    game.apply(Undo(3))  # reaches back: the journal's own game is applied again
    assert game.state.scores == (5, 0) and list(game.events) == journal[:2]
    assert list(game.journal) == journal + [Undo(3)]


def test_a_loader_that_returns_the_wrong_length_is_refused():
    state = Game([BOARD, Peg(0, 5)]).state
    game = Game.resume(state, 2, 2, lambda: Game([BOARD]))
    with pytest.raises(RulesError, match="has 1 journal event"):
        game.apply(Undo())
    with pytest.raises(RulesError, match="events in force"):
        Game.resume(state, 2, 3, lambda: Game([BOARD]))
