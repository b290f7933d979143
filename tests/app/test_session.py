"""Session: the game checks each event, the journal keeps it, and only then are its effects
shown; a journal that fails rolls the game back. Session.resume picks up a table's open game."""

from __future__ import annotations

import random

import pytest

from cribpi.app.session import Session
from cribpi.exc import RulesError, StoreError
from cribpi.game import Event, Game, Lay, Mode, NewGame, Peg, Undo
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC, Card
from cribpi.store import Store

BOARD = NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0)


def _match(seed: int, mode: Mode = Mode.CLAIM) -> list[Event]:
    return [e for e, _ in random_game_events(random.Random(seed), ACC, mode, 1)]


def _seen(session: Session) -> tuple:  # type: ignore[type-arg]
    return session.state, list(session.game.events), list(session.game.journal)


class FlakyJournal:
    """A real store whose appends fail while ``failing`` is set, as a full disk would."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.failing = False
        self.appended: list[Event] = []

    def new_game(self, first_event: NewGame, *, table: str | None = None, event_name: str | None = None) -> int:
        return self.store.new_game(first_event, table=table, event_name=event_name)

    def append(self, game_id: int, event: Event, game: Game) -> None:
        assert game.journal[-1] == event, "the game checks the event before the journal sees it"
        if self.failing:
            raise StoreError("disk full")
        self.store.append(game_id, event, game)
        self.appended.append(event)

    def current(self, table: str | None = None):  # type: ignore[no-untyped-def]
        return self.store.current(table)


@pytest.fixture
def store(tmp_path):  # type: ignore[no-untyped-def]
    with Store(tmp_path / "journal.db") as s:
        yield s


def test_without_a_store_the_session_only_plays():
    session = Session(BOARD)
    (pegged,) = session.apply(Peg(1, 4))
    assert pegged.points == 4 and session.game_id is None and session.state.scores == (0, 4)


def test_each_event_is_journalled_and_its_effects_returned(store):
    session = Session(BOARD, store, table="1")
    (pegged,) = session.apply(Peg(1, 4))
    assert pegged.points == 4 and pegged.score == 4
    assert store.events(session.game_id) == [BOARD, Peg(1, 4)]
    assert store.current("1").game.state == session.state


def test_each_event_is_applied_once(store, monkeypatch):
    import cribpi.game.game as game_module

    calls = []
    real = game_module.apply
    session = Session(BOARD, store)  # (the store checks a NewGame on its own: it has no game yet)
    monkeypatch.setattr(game_module, "apply", lambda state, event: calls.append(event) or real(state, event))
    for event in (Peg(0, 2), Peg(1, 3), Undo(), Peg(1, 5)):
        session.apply(event)
    assert calls == [Peg(0, 2), Peg(1, 3), Peg(1, 5)]  # the undo replays nothing either


def test_a_refused_event_raises_and_nothing_is_journalled(store):
    session = Session(BOARD, store)
    session.apply(Peg(0, 2))
    before = _seen(session)
    with pytest.raises(RulesError):
        session.apply(Lay(0, Card.parse("5H")))  # no cards in board mode
    assert _seen(session) == before and len(store.events(session.game_id)) == 2


def test_a_bad_new_game_is_refused_before_anything_is_journalled(store):
    with pytest.raises(RulesError):
        Session(NewGame(("Ann", "Ann")), store)
    assert store.games() == []


@pytest.mark.parametrize("event", [Peg(1, 7), Undo(), Undo(2)])
def test_when_the_journal_fails_the_game_is_rolled_back(store, event):
    journal = FlakyJournal(store)
    session = Session(BOARD, journal, table="1")
    session.apply(Peg(0, 5))
    session.apply(Peg(1, 3))
    before = _seen(session)
    journal.failing = True
    with pytest.raises(StoreError, match="disk full"):
        session.apply(event)
    assert _seen(session) == before  # the screen never shows an event that was not kept
    journal.failing = False
    session.apply(event)
    assert store.events(session.game_id) == [BOARD, Peg(0, 5), Peg(1, 3), event]
    assert store.current("1").game.state == session.state


def test_a_really_full_journal_loses_nothing_shown(tmp_path):
    """SQLite's page limit stands in for a full disk: appends fail with StoreError, the table
    keeps showing exactly what the journal holds, and play goes on once there is room."""
    events = _match(1)
    with Store(tmp_path / "full.db", snapshot_every=5) as store:
        session = Session(events[0], store, table="1")
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count={pages + 1}")
        failures, done = 0, 1
        while done < len(events) and failures < 5:
            try:
                session.apply(events[done])
                done += 1
            except StoreError as exc:
                assert "full" in str(exc)
                failures += 1
                assert store.current("1").game.state == session.state
        assert failures == 5 and 1 < done < len(events)
        store._conn.execute("PRAGMA max_page_count=1000000")
        for event in events[done:]:
            session.apply(event)
        assert store.events(session.game_id) == events


def test_resume_gives_none_when_no_game_is_open(store):
    assert Session.resume(store) is None
    Session(BOARD, store, table="1")
    assert Session.resume(store, "2") is None


def test_resume_picks_up_the_table_s_game_and_plays_on(tmp_path):
    events = _match(2)
    with Store(tmp_path / "j.db", snapshot_every=10) as store:
        session = Session(events[0], store, table="main")
        for event in events[1:95]:
            session.apply(event)
        game_id = session.game_id
    with Store(tmp_path / "j.db") as store:
        resumed = Session.resume(store, "main")
        assert resumed is not None and resumed.game_id == game_id
        assert resumed.state == Game(events[:95]).state
        resumed.apply(Undo(30))  # back past the latest snapshot
        assert resumed.state == Game(events[:65]).state
        for event in events[65:]:
            resumed.apply(event)
        assert store.events(game_id) == events[:95] + [Undo(30)] + events[65:]
        assert Session.resume(store, "main") is None  # the match is over


def test_the_older_constructor_still_adopts_a_journalled_game(store):
    session = Session(BOARD, store, table="1")
    session.apply(Peg(0, 3))
    restored = store.current("1")
    adopted = Session(None, store, game=restored.game, game_id=restored.game_id)  # type: ignore[arg-type]
    adopted.apply(Peg(1, 2))
    assert adopted.state.scores == (3, 2) and len(store.events(session.game_id)) == 3
