"""A table knows when its round is played: once the games its seating has are finished there
(a qualifying round's N one-game matches, or the playoff's match) and each result is confirmed,
it says so and waits for the next round's seating, and the new-game action is refused with why
(before, a third game started at once, and the director refused its result as ``too_many``).
The count comes from the table's journal, so a restart keeps it; the next seating starts the
next round's game as ever."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.app.ui import refusal
from cribpi.config import load_config
from cribpi.exc import JournalFull
from cribpi.game import Mode, Phase
from cribpi.hal import Action
from cribpi.hal.mock import open_mock
from cribpi.store import Store
from cribpi.tournament.table.attach import attach
from cribpi.tournament.seats import Seat
from cribpi.views.model import AlertScreen, MessageScreen
from cribpi.views.oled import pages
from cribpi.views.seat import ROUND_PLAYED, round_played_screen, round_played_why
from tests.app.setup_menu import SETTINGS, choose, opened, press
from tests.app.table_keys import game_actions
from tests.tournament.conftest import EVENT
from tests.tournament.test_seated_players import lines, play, seat, seated

TOURNAMENT = dataclasses.replace(SETTINGS, confirm_results=True)  # a table publishing to a tournament
OK = Action.parse("ok")
WHY = "Round 1 played: 2 of 2 games. Wait for the next seating, or set other players in the menu"


def open_app(db: Path, settings: TableSettings = TOURNAMENT) -> tuple[Store, TableUI, TableApp]:
    """The table as `cribpi run` opens it on the journal ``db``, started."""
    store, ui = opened(db, settings)
    app = TableApp(open_mock(), ui)
    app.start()
    return store, ui, app


@contextmanager
def opened_app(db: Path, settings: TableSettings = TOURNAMENT) -> Iterator[tuple[Store, TableUI, TableApp]]:
    """:func:`open_app`, closed (the table, then its journal) at the end of the block."""
    store, ui, app = open_app(db, settings)
    try:
        yield store, ui, app
    finally:
        app.close()
        store.close()


def play_a_game(app: TableApp, ui: TableUI, seed: int) -> None:
    """A whole game keyed at the table, then each side confirms its result."""
    if ui.state.phase is not Phase.CUT:
        play(app, ui, [OK])  # the finished match's one press: the next game
    assert ui.state.phase is Phase.CUT and not ui.state.games
    play(app, ui, game_actions(seed))
    assert ui.state.phase is Phase.MATCH_OVER
    while ui.confirming() is not None:
        app.handle(OK)


def refused(ui: TableUI) -> str:
    """The refusal in front, in one line."""
    screen = ui.screen()
    assert isinstance(screen, AlertScreen) and screen.title == "Not allowed", screen
    return screen.lines[0]


def title(ui: TableUI) -> str:
    return getattr(ui.screen(), "title", "")


def round_played(ui: TableUI) -> tuple[str, ...]:
    screen = ui.screen()
    assert isinstance(screen, MessageScreen) and screen.title == ROUND_PLAYED, screen
    return screen.lines


def test_a_two_game_round_played_waits_for_the_next_seating_and_a_restart_keeps_the_count(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    with opened_app(db) as (store, ui, app):
        seated(app, seat("Ann", "Bob", games=2))
        assert lines(ui)[-1] == "table t1, 2 games"
        ui.screens.clear()  # OK put the seat screen away
        play_a_game(app, ui, 7)
        assert title(ui) != ROUND_PLAYED  # one game of two: the next starts as ever
        first = ui.session.game_id
        play(app, ui, [OK])
        assert ui.state.phase is Phase.CUT and ui.state.names == ("Ann", "Bob")
        play(app, ui, game_actions(11))
        assert ui.confirming() == 0 and title(ui) == "Confirm result"  # each side has its say first
        while ui.confirming() is not None:
            app.handle(OK)
        assert round_played(ui) == ("Round 1 played: 2 of 2 games", "Wait for the next seating")
        second = ui.session.game_id
        assert second is not None and first is not None and second > first
        app.handle(OK)  # the usual new-game action
        assert refused(ui) == WHY
        assert ui.session.game_id == second and ui.state.phase is Phase.MATCH_OVER
        app.handle(OK)  # the refusal read: the table still waits
        assert round_played(ui)[0] == "Round 1 played: 2 of 2 games"
        press(ui, "menu")
        choose(ui, "New game")  # the menu's new game, the match being over, is refused the same way
        assert refused(ui) == WHY and ui.session.game_id == second

    # a restart (the power goes): the table opens a fresh game with the seated players, but the
    # seating, delivered again as the broker keeps it, finds its two games in the journal
    with opened_app(db) as (store, ui, app):
        assert ui.state.names == ("Ann", "Bob") and ui.state.phase is Phase.CUT
        seated(app, seat("Ann", "Bob", games=2))
        ui.screens.clear()
        assert round_played(ui) == ("Round 1 played: 2 of 2 games", "Wait for the next seating")
        fresh = ui.session.game_id
        app.handle(OK)  # the cut of the restart's game: not played
        assert refused(ui) == WHY and ui.state.phase is Phase.CUT and ui.session.game_id == fresh
        app.handle(OK)
        # round 2 seats the same two again: the next round's game is theirs to play
        seated(app, seat("Ann", "Bob", round_=2, games=2))
        assert lines(ui)[0] == "Round 2: Ann v Bob"
        ui.screens.clear()
        assert ui.held() is None and title(ui) != ROUND_PLAYED
        play_a_game(app, ui, 7)
        assert title(ui) != ROUND_PLAYED  # one of round 2's two


def test_the_next_seating_starts_its_game_at_a_table_whose_round_is_played(tmp_path: Path) -> None:
    with opened_app(tmp_path / "journal.db") as (store, ui, app):
        seated(app, seat("Ann", "Bob", games=1))
        ui.screens.clear()
        play_a_game(app, ui, 7)
        assert round_played(ui) == ("Round 1 played: 1 of 1 games", "Wait for the next seating")
        over = ui.session.game_id
        seated(app, seat("Ann", "Bob", round_=2, games=1))  # the same two again (a room of two)
        assert ui.session.game_id != over and ui.state.phase is Phase.CUT and ui.state.names == ("Ann", "Bob")
        ui.screens.clear()
        assert ui.held() is None
        play_a_game(app, ui, 11)
        assert round_played(ui)[0] == "Round 2 played: 1 of 1 games"
        seated(app, seat("Cy", "Di", round_=3, games=1))
        assert ui.state.names == ("Cy", "Di") and ui.state.phase is Phase.CUT and ui.held() is None
        seated(app, Seat(4, "t1", "qualifying", None, (), ()))  # a round that leaves the table empty
        ui.screens.clear()
        assert ui.settings.seating is None and ui.held() is None


def test_a_disputed_last_result_says_the_round_is_played_too(tmp_path: Path) -> None:
    with opened_app(tmp_path / "journal.db") as (store, ui, app):
        seated(app, seat("Ann", "Bob", games=1))
        ui.screens.clear()
        play(app, ui, game_actions(7))
        app.handle(OK)  # Ann confirms
        app.handle(Action.parse("undo"))  # Bob disputes
        assert ui.confirming() is None and title(ui) == "Disputed"
        screen = ui.screen()
        assert isinstance(screen, MessageScreen) and screen.lines[:3] == ("Bob disputes", screen.lines[1], "the director rules")
        assert screen.lines[3:] == ("Round 1 played: 1 of 1 games", "Wait for the next seating")  # not "OK: new match"
        app.handle(OK)
        assert refused(ui).startswith("Round 1 played: 1 of 1 games.") and ui.state.phase is Phase.MATCH_OVER


def test_a_finished_playoff_match_waits_for_the_next_seating_too(tmp_path: Path) -> None:
    with opened_app(tmp_path / "journal.db", dataclasses.replace(TOURNAMENT, mode=Mode.BOARD)) as (store, ui, app):
        seated(app, seat("Ann", "Bob", round_=5, kind="playoff", games=3))
        ui.screens.clear()
        assert ui.state.match_games == 3
        for _ in range(2):  # Ann wins two games: the match is hers
            if ui.state.phase is Phase.GAME_OVER:
                app.handle(OK)  # the next game of the match
            if ui.state.phase is Phase.CUT:
                app.handle(OK)
                ui.screens.clear()
            for points in (100, 121 - ui.state.scores[0] - 100):
                app.handle(Action.peg(0, points))
                app.handle(OK)
            ui.screens.clear()
            while ui.confirming() is not None:
                app.handle(OK)
            assert title(ui) != ROUND_PLAYED or ui.state.phase is Phase.MATCH_OVER
        assert ui.state.phase is Phase.MATCH_OVER
        # the table cannot know whether this was the final: it promises no round 6
        assert round_played(ui) == ("Round 5 played: the match is over", "Wait for the director")
        app.handle(OK)
        assert refused(ui) == "Round 5 played: the match is over. Wait for the director, or set other players in the menu"
        assert ui.state.phase is Phase.MATCH_OVER
        app.handle(Action.parse("undo"))  # the refusal taken back
        app.handle(Action.parse("undo"))  # then the last event: Bob's confirmation, the match still won
        assert ui.confirming() == 1 and ui.held() is not None  # the match is still over, and Bob is asked
        app.handle(OK)  # the undo notice read
        assert title(ui) == "Confirm result"


def test_outside_a_tournament_nothing_holds_the_next_game(tmp_path: Path) -> None:
    with opened_app(tmp_path / "journal.db", SETTINGS) as (store, ui, app):
        play_a_game(app, ui, 7)
        play_a_game(app, ui, 11)
        play_a_game(app, ui, 7)  # no seating: as many games as the players like
        assert ui.hold is None and ui.held() is None


def test_the_same_seating_at_another_event_is_a_new_round_not_the_one_played(tmp_path: Path) -> None:
    """Ann v Bob play round 1 at t1; the table restarts; a later event (the same id set up again,
    its table credentials new) seats Ann v Bob at t1 in round 1 again: the kept seating is last
    event's, so none of its games count (before: "Round 1 played: 1 of 1 games" before anyone
    played). A seating kept before the event was (no event in it) is not this event's either."""
    db = tmp_path / "journal.db"
    with opened_app(db) as (store, ui, app):
        seated(app, seat("Ann", "Bob", games=1), event="club#last-week")
        ui.screens.clear()
        play_a_game(app, ui, 7)
        assert round_played(ui)[0] == "Round 1 played: 1 of 1 games"

    with opened_app(db) as (store, ui, app):
        last = ui.settings.seating
        seated(app, seat("Ann", "Bob", games=1), event="club#this-week")
        ui.screens.clear()
        assert ui.held() is None and title(ui) != ROUND_PLAYED
        assert last is not None and last.event == "club#last-week"
        assert ui.settings.seating is not None and ui.settings.seating.event == "club#this-week"
        play_a_game(app, ui, 11)  # this event's game is played
        assert round_played(ui)[0] == "Round 1 played: 1 of 1 games"
        kept = store.table_settings(ui.settings.table)
        assert kept is not None
        del kept["seating"]["event"]  # the same kept seating as a table kept it before the event was
        store.keep_table_settings(ui.settings.table, kept)

    with opened_app(db) as (store, ui, app):
        assert ui.settings.seating is not None and ui.settings.seating.event is None  # read as ever
        seated(app, seat("Ann", "Bob", games=1), event="club#this-week")
        ui.screens.clear()
        assert ui.held() is None and ui.settings.seating.event == "club#this-week"


def test_other_players_set_in_the_menu_may_play_at_a_table_whose_round_is_played(tmp_path: Path) -> None:
    """The hold is on the seated players' games only: staff who set other players (or another
    match) in the menu start their game (its result, not seated, is the director's to keep
    uncounted as not_seated); the seated players again are held again. Before, the hold ignored
    who was to play, so nothing but the next seating lifted it."""
    with opened_app(tmp_path / "journal.db") as (store, ui, app):
        seated(app, seat("Ann", "Bob", games=1))
        ui.screens.clear()
        play_a_game(app, ui, 7)
        assert round_played(ui)[0] == "Round 1 played: 1 of 1 games"
        over = ui.session.game_id
        press(ui, "menu")
        choose(ui, "Next game setup")
        choose(ui, "Players")  # 2 -> 3: other players
        assert ui.settings.players == 3 and ui.menu is not None
        ui.menus.close()
        assert title(ui) != ROUND_PLAYED and ui.held() is None  # match over: OK starts their game
        app.handle(OK)
        assert ui.session.game_id != over and ui.state.seats == 3 and ui.state.names[:2] == ("Ann", "Bob")
        press(ui, "menu")
        choose(ui, "Next game setup")
        while ui.settings.players != 2 or ui.settings.partnerships:  # back to the seated two
            choose(ui, "Players")
        choose(ui, "Start it now")
        choose(ui, "Yes")
        assert refused(ui) == "Round 1 played: 1 of 1 games. Wait for the next seating, or set other players in the menu"
        assert ui.state.seats == 3  # the seated two are held again
        ui.screens.clear()
        press(ui, "menu")
        choose(ui, "Next game setup")
        choose(ui, "Match")  # best of 1 -> 3: another match than the seating's
        assert ui.settings.match_games == 3
        choose(ui, "Start it now")
        choose(ui, "Yes")
        assert ui.state.seats == 2 and ui.state.match_games == 3 and ui.state.phase is Phase.CUT
        assert title(ui) != ROUND_PLAYED and ui.held(ui.state) is None
        play(app, ui, game_actions(11)[:3])  # their game is played (before: each key refused)
        assert not any(isinstance(x, AlertScreen) and x.title == "Not allowed" for x in ui.screens)
        assert ui.state.phase is not Phase.CUT


def test_the_round_played_words_fit_one_page_of_the_oled() -> None:
    for round_, played, games, playoff in ((1, 2, 2, False), (99, 99, 99, False), (12, 1, 3, True), (99, 2, 3, True)):
        assert pages(round_played_screen(round_, played, games, playoff)) == 1
        assert pages(refusal(round_played_why(round_, played, games, playoff))) == 1, round_played_why(round_, played, games, playoff)


def _table_config(folder: Path, db: Path) -> Path:
    """A table's ``cribpi.toml``: its journal ``db`` and a ``[tournament]`` broker nobody
    answers on (the room's Wi-Fi down), event ``open`` without a password (its instance is
    ``open``)."""
    config = folder / "cribpi.toml"
    config.write_text(f'db = "{db.name}"\n[tournament]\nbroker = "mqtt://127.0.0.1:9"\nevent = "{EVENT}"\n'
                      'table = "t1"\n')
    return config


def test_a_restarted_table_is_held_at_once_without_the_broker(tmp_path: Path) -> None:
    """The table opens with [tournament] and a kept seating of its event: the seated players'
    game is held before any seating comes (before: only a seating received set the hold, so a
    table restarted while the broker was away played the fresh game). A kept seating of
    another event holds nothing."""
    db = tmp_path / "journal.db"
    with opened_app(db) as (store, ui, app):
        seated(app, seat("Ann", "Bob", games=1), event=EVENT)
        ui.screens.clear()
        play_a_game(app, ui, 7)
        assert round_played(ui)[0] == "Round 1 played: 1 of 1 games"

    config = load_config(_table_config(tmp_path, db))
    store, ui, app = open_app(db)
    stop = attach(app, config)
    try:
        ui.screens.clear()  # nobody answers: no seating comes
        assert round_played(ui) == ("Round 1 played: 1 of 1 games", "Wait for the next seating")
        fresh = ui.session.game_id
        app.handle(OK)  # the restart's fresh game's cut: not played
        assert refused(ui).startswith("Round 1 played: 1 of 1 games.") and ui.session.game_id == fresh
        assert ui.state.phase is Phase.CUT
    finally:
        stop()
        app.close()
        store.close()

    store, ui, app = open_app(db)
    stop = attach(app, dataclasses.replace(config, tournament=dataclasses.replace(config.tournament, event="later")))
    try:
        ui.screens.clear()
        assert ui.held() is None and title(ui) != ROUND_PLAYED  # last event's seating holds nothing
    finally:
        stop()
        app.close()
        store.close()


def test_a_seating_the_table_cannot_keep_holds_nothing(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Round 2's seating comes to a table whose round 1 is played, and its set-up cannot be kept
    (a full disk): round 1's seating stays in the settings, but it no longer holds the table
    (before: round 2's seat screen showed while its games were refused as round 1's)."""
    with opened_app(tmp_path / "journal.db") as (store, ui, app):
        seated(app, seat("Ann", "Bob", games=1))
        ui.screens.clear()
        play_a_game(app, ui, 7)
        assert round_played(ui)[0] == "Round 1 played: 1 of 1 games"

        def full(table: str, data: object) -> None:
            raise JournalFull(f"disk full: could not keep the settings of table {table}: free some space")

        store.keep_table_settings = full  # type: ignore[method-assign]
        with caplog.at_level(logging.WARNING, logger="cribpi.tournament.table.seatcast"):
            seated(app, seat("Ann", "Bob", round_=2, games=1))
        assert ui.held() is None  # before: round 1's hold, its round played
        assert ui.settings.seating is not None and ui.settings.seating.round == 1  # not kept
        assert any("round 2's seating could not be kept" in r.getMessage() for r in caplog.records)
        assert [x.lines[0] for x in ui.screens] == [  # the seating, and why its set-up is not kept
            "Round 2: Ann v Bob", "disk full: could not keep the settings of table main: free some space"]
        ui.screens.clear()
        assert title(ui) != ROUND_PLAYED
        app.handle(OK)  # the next game of the players seated: not refused as round 1's
        assert ui.state.phase is Phase.CUT and ui.state.names == ("Ann", "Bob") and not ui.screens
