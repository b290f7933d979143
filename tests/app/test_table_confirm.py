"""A tournament table (``confirm_results``) asks each side in turn to confirm a finished game:
OK confirms, UNDO disputes; each answer is a journalled Confirm event, told to the listeners,
kept across a restart, taken back by undo, and written in the game's record. A casual table
keeps its one-press next game."""

from __future__ import annotations

import random
from pathlib import Path

from cribpi.app import TableApp, TableSettings, TableUI, Update, open_table
from cribpi.game import Mode, Phase
from cribpi.game.events import Confirm, NextGame
from cribpi.hal import Action
from cribpi.hal.mock import open_mock
from cribpi.record import export_record, parse_record
from cribpi.store import Store

TOURNEY = TableSettings(names=("Ann", "Ben", "Cy", "Di"), mode=Mode.BOARD, match_games=3, confirm_results=True)


def _win_game(ui: TableUI, seat: int = 0) -> None:
    """Cut if needed, then ``seat`` pegs out (121) and the game-over screens are paged away."""
    ui.screens.clear()
    if ui.state.phase is Phase.CUT:
        ui.handle(Action.parse("ok"))
        ui.screens.clear()
    for points in (100, 121 - ui.state.scores[seat % len(ui.state.scores)] - 100):
        ui.handle(Action.peg(seat, points))
        ui.handle(Action.parse("ok"))
    ui.screens.clear()
    assert ui.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER)


def _confirms(ui: TableUI) -> list[Confirm]:
    return [e for e in ui.session.game.journal if isinstance(e, Confirm)]


def test_each_side_confirms_in_turn_before_the_next_game() -> None:
    ui = TableUI(TOURNEY, rng=random.Random(1))
    _win_game(ui)
    ask = ui.screen()
    assert ask.title == "Confirm result" and ask.lines[0] == "Ann: OK confirms" and "121-0" in ask.lines[1]
    ui.handle(Action.parse("ok"))
    assert _confirms(ui) == [Confirm(0)] and ui.state.phase is Phase.GAME_OVER  # still over: Ben is asked
    assert ui.screen().lines[0] == "Ben: OK confirms"
    ui.handle(Action.parse("ok"))
    assert _confirms(ui) == [Confirm(0), Confirm(1)] and ui.confirming() is None
    assert ui.screen().lines[-1] == "OK: next game"  # the game-over screen again: both have confirmed
    ui.handle(Action.parse("ok"))
    assert ui.state.phase is Phase.BOARD and ui.session.game.events[-1] == NextGame()


def test_undo_at_the_question_disputes_and_undo_again_takes_the_answer_back() -> None:
    ui = TableUI(TOURNEY, rng=random.Random(1))
    _win_game(ui)
    ui.handle(Action.parse("ok"))  # Ann confirms
    ui.handle(Action.parse("undo"))  # Ben disputes
    assert _confirms(ui) == [Confirm(0), Confirm(1, agree=False)]
    shown = ui.screen()
    assert shown.title == "Disputed" and shown.lines[0] == "Ben disputes" and shown.lines[-1] == "OK: next game"
    ui.handle(Action.parse("undo"))  # Ben's dispute taken back: he is asked again
    assert ui.screen().lines[0] == "took back: Ben disputes the result"
    ui.screens.clear()
    assert ui.confirming() == 1 and ui.screen().lines[0] == "Ben: OK confirms"
    ui.handle(Action.parse("ok"))
    assert ui.confirming() is None and list(ui.session.game.events)[-2:] == [Confirm(0), Confirm(1)]


def test_a_partnership_is_asked_once_by_its_names() -> None:
    ui = TableUI(TableSettings(names=("Ann", "Ben", "Cy", "Di"), players=4, partnerships=True, mode=Mode.BOARD,
                               confirm_results=True), rng=random.Random(2))
    _win_game(ui, seat=2)
    assert ui.screen().lines[0] == "Ann & Cy: OK confirms"
    ui.handle(Action.parse("ok"))
    assert ui.screen().lines[0] == "Ben & Di: OK confirms"
    ui.handle(Action.parse("ok"))
    assert ui.confirming() is None and ui.state.phase is Phase.MATCH_OVER
    ui.handle(Action.parse("ok"))  # then the one press of a finished match: a new one
    assert ui.state.phase is Phase.CUT and ui.state.games == ()


def test_a_casual_table_starts_the_next_game_with_one_press() -> None:
    ui = TableUI(TableSettings(mode=Mode.BOARD, match_games=3), rng=random.Random(1))
    _win_game(ui)
    assert ui.confirming() is None and ui.screen().lines[-1] == "OK: next game"
    ui.handle(Action.parse("ok"))
    assert ui.state.phase is Phase.BOARD and _confirms(ui) == []
    ui.handle(Action.parse("undo"))  # UNDO is an undo there, never a dispute
    assert ui.state.phase is Phase.GAME_OVER and _confirms(ui) == []


def test_the_answers_reach_the_listeners_survive_a_restart_and_are_recorded(tmp_path: Path) -> None:
    db = tmp_path / "cribpi.db"
    with Store(db) as store:
        parts = open_mock()
        app = TableApp(parts, open_table(store, TOURNEY, rng=random.Random(1)))
        told: list[Update] = []
        app.subscribe(told.append)
        app.start()
        try:
            _win_game(app.ui)
            app.handle(Action.parse("ok"))  # Ann confirms: then the power goes
        finally:
            app.close()
        assert told[-1].events == (Confirm(0),) and told[-1].screen.lines[0] == "Ben: OK confirms"
    with Store(db) as store:
        ui = open_table(store, TOURNEY, rng=random.Random(1))
        assert ui.confirming() == 1 and ui.screen().lines[0] == "Ben: OK confirms"  # Ann's answer kept
        ui.handle(Action.parse("undo"))
        journal = list(ui.session.game.journal)
    text = export_record(journal)
    assert "Confirm Ann\nDispute Ben" in text
    assert [e for e in parse_record(text).events if isinstance(e, Confirm)] == [Confirm(0), Confirm(1, False)]


def test_a_confirmation_is_refused_before_the_game_is_over_or_for_no_side() -> None:
    ui = TableUI(TOURNEY, rng=random.Random(1))
    ui.handle_event(Confirm(0))
    assert ui.screen().title == "Not allowed" and "the end of a game" in " ".join(ui.screen().lines) and _confirms(ui) == []
    _win_game(ui)
    ui.handle_event(Confirm(2))
    assert ui.screen().lines[0] == "side 2 does not exist: sides are 0-1" and _confirms(ui) == []
