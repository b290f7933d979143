"""The board a table publishes names the last score as the table shows it, also after "Move a
card" or an undo, which score the play again and may take the last score away."""

from __future__ import annotations

import json
from pathlib import Path

from cribpi.app import TableApp, TableUI
from cribpi.app.session import Session
from cribpi.game import Event, Lay, Mode, MoveCard, NewGame, NextGame, Peg, Starter, Undo
from cribpi.hal.mock import open_mock
from cribpi.rules import ACC, Card
from cribpi.tournament.broker import parse_broker
from cribpi.tournament.table.outbox import Outbox
from cribpi.tournament.table.publisher import TablePublisher

C = Card.parse
ANN, BOB = 0, 1  # Bob deals, Ann leads


def table(tmp_path: Path) -> tuple[TableApp, TablePublisher]:
    """A table in the play, its publisher listening (never connected: only its board is read)."""
    pub = TablePublisher(parse_broker("mqtt://127.0.0.1:9", username="t1", password="x"), "open", "t1",
                         Outbox(tmp_path / "outbox.db"))
    ui = TableUI(session=Session(NewGame(("Ann", "Bob"), ACC, first_dealer=BOB)))
    app = TableApp(open_mock(), ui)
    app.subscribe(pub)
    return app, pub


def send(app: TableApp, *events: Event) -> None:
    for event in events:
        app.publish((event,), app.ui.apply(event))


def last(pub: TablePublisher) -> dict[str, object] | None:
    assert pub.state is not None
    body: dict[str, object] | None = json.loads(pub.state)["last"]
    return body


def test_a_thirty_one_moved_to_the_other_seat_is_published_as_that_seats(tmp_path: Path) -> None:
    app, pub = table(tmp_path)
    try:
        send(app, Starter(C("2S")), Lay(ANN, C("TC")), Lay(BOB, C("QD")), Lay(ANN, C("2C")), Lay(BOB, C("9H")))
        assert last(pub) == {"seat": BOB, "points": 2, "reason": "play", "text": "thirty-one is two"}
        send(app, MoveCard(C("9H"), ANN))  # keyed for Bob, laid by Ann
        assert last(pub) == {"seat": ANN, "points": 2, "reason": "play", "text": "thirty-one is two"}
        send(app, Undo())
        assert last(pub) == {"seat": BOB, "points": 2, "reason": "play", "text": "thirty-one is two"}
    finally:
        app.close()
        pub.outbox.close()


def test_an_undo_that_takes_the_only_score_away_leaves_no_last_score(tmp_path: Path) -> None:
    app, pub = table(tmp_path)
    try:
        send(app, Starter(C("2S")), Lay(ANN, C("TC")), Lay(BOB, C("5D")))
        assert last(pub) == {"seat": BOB, "points": 2, "reason": "play", "text": "fifteen two"}
        send(app, Undo())
        assert last(pub) is None  # not the fifteen that is no longer on the board
        send(app, Lay(BOB, C("4D")))  # no score: still none
        assert last(pub) is None
    finally:
        app.close()
        pub.outbox.close()


def test_the_next_game_of_a_match_starts_with_no_last_score(tmp_path: Path) -> None:
    """The board of a new game names no score of the last game (the reviewer saw game 2 at 0-0,
    at the cut, with game 1's last hand as its last score)."""
    pub = TablePublisher(parse_broker("mqtt://127.0.0.1:9", username="t1", password="x"), "open", "t1",
                         Outbox(tmp_path / "outbox.db"))
    ui = TableUI(session=Session(NewGame(("Ann", "Bob"), ACC, mode=Mode.BOARD, first_dealer=ANN, match_games=3)))
    app = TableApp(open_mock(), ui)
    app.subscribe(pub)
    try:
        send(app, *[Peg(ANN, 20)] * 6, Peg(ANN, 1))  # Ann pegs out: 121
        assert last(pub) is not None and last(pub)["seat"] == ANN
        send(app, NextGame())
        body = json.loads(pub.state)
        assert body["game_number"] == 2 and body["last"] is None
    finally:
        app.close()
        pub.outbox.close()
