"""A tournament table plays the players the director seated there, nobody typing a name: on a
seating its set-up takes their names in seat order, their number (four: partnerships) and a
playoff's best-of; a table whose game has not begun starts a game with them at once, a game
under way is left alone and the seating is the next game's. The results it then publishes are
the director's players, which it counts (before, the table's own "Red" and "Blue" were refused)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.app.listeners import Update
from cribpi.config import load_config
from cribpi.game import NewGame, Phase
from cribpi.game.confirm import answers
from cribpi.hal import Action
from cribpi.hal.mock import open_mock
from cribpi.tournament.table.attach import attach
from cribpi.tournament.director.counting import seat_colours
from cribpi.tournament.director.casting import follow
from cribpi.tournament.seats import Seat, parse_seat, seat_body
from cribpi.tournament.table.seatcast import NEXT_GAME, show_on
from cribpi.views.model import MessageScreen
from tests.app.setup_menu import opened
from tests.app.table_keys import game_actions, mock_table
from tests.tournament.conftest import EVENT, Mosquitto
from tests.tournament.test_publisher import wait_for
from tests.tournament.test_room import director
from tests.tournament.test_standings import Room



def seat(*players: str, round_: int = 1, kind: str = "qualifying", games: int = 1) -> Seat:
    return Seat(round_, "t1", kind, games, players, tuple(seat_colours(len(players))))


def seated(app: TableApp, s: Seat, event: str = EVENT) -> list[Update]:
    """``s`` of ``event`` arrives (as from paho's thread) and the table's loop takes it; what it
    told its listeners."""
    told: list[Update] = []
    app.subscribe(told.append)
    show_on(app, event)(s)
    assert app.run_posts() == 1
    app.listeners.remove(told.append)
    return told


def lines(ui: TableUI) -> tuple[str, ...]:
    """The lines of the message in front (the seat screen)."""
    screen = ui.screen()
    assert isinstance(screen, MessageScreen), screen
    return screen.lines


def play(app: TableApp, ui: TableUI, actions: list[Action]) -> None:
    """Keys as the table's benchmark keys them; OK first pages away whatever screen is up."""
    for action in actions:
        while action.kind.value == "ok" and ui.screens:
            app.handle(action)
        app.handle(action)


def test_an_idle_table_starts_a_game_with_the_seated_players_at_once(tmp_path: Path) -> None:
    store, ui = opened(tmp_path / "journal.db")
    app = TableApp(open_mock(), ui)
    app.start()
    try:
        assert ui.state.names == ("Red", "Blue")
        before = ui.session.game_id
        told = seated(app, seat("Ann", "Bob"))
        assert ui.state.names == ("Ann", "Bob") and ui.settings.names[:2] == ("Ann", "Bob")
        assert ui.session.game_id != before and ui.state.phase is Phase.CUT  # a new game, journalled
        assert [type(e) for e in told[-1].events] == [NewGame]  # the publisher hears the new game
        assert lines(ui)[:2] == ("Round 1: Ann v Bob", "Ann, you are Red")
        assert NEXT_GAME not in lines(ui)
        assert store.games()[-1]["players"] == ["Ann", "Bob"]  # journalled
        game = ui.session.game_id
        seated(app, seat("Ann", "Bob"))  # the same seating again: nothing changes
        assert ui.session.game_id == game
        seated(app, Seat(2, "t1", "qualifying", None, (), ()))  # the table sits a round out
        assert ui.session.game_id == game and ui.state.names == ("Ann", "Bob")
        assert lines(ui) == ("No match at table t1 this round.",)
        seated(app, seat("Ann", "Bob", "Cy", "Di", round_=3))
        kept = store.table_settings(ui.settings.table) or {}
        assert (kept.get("players"), kept.get("partnerships")) == (4, True)  # kept as a menu's choice is
    finally:
        app.close()
        store.close()
    again, resumed = opened(tmp_path / "journal.db")  # a restart: the seated players' game is the table's
    assert resumed.state.names == ("Ann", "Bob", "Cy", "Di")
    again.close()


def test_a_game_under_way_is_not_disturbed_and_the_next_game_has_the_seated_players() -> None:
    actions = game_actions(7)
    with mock_table() as (_, ui, app):
        play(app, ui, actions[:12])  # cut, starter and cards keyed: a game under way
        game, events = ui.session.game, len(ui.session.game.events)
        seated(app, seat("Ann", "Bob"))
        assert ui.session.game is game and len(game.events) == events and ui.state.names == ("Red", "Blue")
        assert lines(ui)[0] == "Round 1: Ann v Bob" and lines(ui)[-1] == NEXT_GAME
        play(app, ui, actions[12:])
        assert ui.state.phase is Phase.MATCH_OVER and ui.state.names == ("Red", "Blue")  # finished as it began
        play(app, ui, [Action.parse("ok")])  # the next game
        assert ui.session.game is not game and ui.state.names == ("Ann", "Bob")


def test_a_seating_while_a_result_waits_for_confirmation_waits_too() -> None:
    actions = game_actions(7)
    with mock_table(TableSettings(confirm_results=True)) as (_, ui, app):
        play(app, ui, actions)
        assert ui.confirming() == 0
        seated(app, seat("Ann", "Bob"))
        assert ui.confirming() == 0 and ui.state.names == ("Red", "Blue") and lines(ui)[-1] == NEXT_GAME
        play(app, ui, [Action.parse("ok")] * 2)  # the seat screen put away, each side confirms
        assert answers(ui.session.game.events) == {0: True, 1: True}  # the result goes confirmed, not disputed
        assert ui.state.phase is Phase.MATCH_OVER and ui.state.names == ("Red", "Blue")
        play(app, ui, [Action.parse("ok")])  # the next game
        assert ui.state.names == ("Ann", "Bob") and ui.state.phase is Phase.CUT


def director_seat(room: Room, players: list[str], kind: str = "qualifying", games: int | None = None) -> Seat:
    """What the director tells t1 when it seats ``players`` there."""
    room.director.db.add_round(kind, {"t1": players}, games)
    s = parse_seat(seat_body(room.director.seating(), "t1"))
    assert s is not None
    return s


def test_a_four_handed_seating_plays_partners_across_the_table_and_the_director_takes_its_sides(
        tmp_path: Path) -> None:
    for folder in ("singles", "teams"):
        (tmp_path / folder).mkdir()
    singles, teams = Room(tmp_path / "singles"), Room(tmp_path / "teams")
    for name in ("Ann", "Bob", "Cy", "Di"):
        singles.director.register(name)
    for name in ("Ann & Cy", "Bob & Di"):
        teams.director.register(name)
    with mock_table() as (_, ui, app):
        seated(app, director_seat(singles, ["Ann", "Bob", "Cy", "Di"], games=3))
        state = ui.state
        assert state.names == ("Ann", "Bob", "Cy", "Di") and state.rules.partnerships and state.match_games == 1
        sides = state.team_name(0), state.team_name(1)
        assert sides == ("Ann & Cy", "Bob & Di")
        assert singles.send("t1", "result", singles.result("t1", sides[0], sides[1], 90))  # each partner entered one by one
        # two teams entered each as one entrant, in a playoff best of 3: the same four at the table
        seated(app, director_seat(teams, ["Bob & Di", "Ann & Cy"], "playoff"))
        state = ui.state
        assert state.names == ("Bob", "Ann", "Di", "Cy") and state.rules.partnerships and state.match_games == 3
        assert lines(ui)[0] == "Round 1: Bob & Di v Ann & Cy"
        assert teams.send("t1", "result", teams.result("t1", state.team_name(0), state.team_name(1), 100))
    assert singles.director.refused == {} and teams.director.refused == {}
    assert [r["status"] for r in (*singles.director.db.results(), *teams.director.db.results())] == ["confirmed"] * 2


def posted_until(app: TableApp, done: Callable[[], bool], timeout: float = 60) -> None:
    """Run what is posted to the table's loop (this thread is its loop) until ``done``."""
    wait_for(lambda: app.run_posts() >= 0 and done(), timeout=timeout)


@pytest.mark.mqtt
def test_the_result_of_a_game_played_after_a_seating_counts_at_the_director(broker: Mosquitto, tmp_path: Path) -> None:
    d = director(broker)  # Ann and Ben registered
    follow(d)
    config_file = broker.table_config(tmp_path)
    store, ui = opened(tmp_path / "journal.db", TableSettings(table="t1", confirm_results=True))
    app = TableApp(open_mock(), ui)
    app.start()
    stop = attach(app, load_config(config_file))
    try:
        posted_until(app, lambda: app.marks == frozenset())  # the broker has the table
        _, seating = d.seat_round("random", random.Random(3))
        posted_until(app, lambda: any(isinstance(x, MessageScreen) and x.title == "Your seats" for x in ui.screens))
        play(app, ui, game_actions(11))
        while ui.confirming() is not None:  # each side confirms the result
            app.handle(Action.parse("ok"))
        wait_for(lambda: d.accepted["result"] + sum(d.refused.values()) > 0, timeout=30)
        assert not d.refused  # before: unknown_player, "Red" and "Blue" are nobody
        assert d.accepted["result"] == 1 and sum(x["games"] for x in d.ranked()) == 2
        assert list(d.db.results()[0]["players"]) in (seating["t1"], seating["t1"][::-1])
        assert [r["status"] for r in d.db.results()] == ["confirmed"]
    finally:
        stop()
        app.close()
        store.close()
        d.close()
