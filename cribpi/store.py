"""The game journal: every accepted event of every table, in SQLite, safe across a pulled plug.

A stored *game* is one journal: a ``NewGame`` event and everything after it, so a best-of-N
match is one stored game (its games are the rows of ``results``). Each ``append`` is its own
transaction and returns only once SQLite has committed it to disk, so the caller shows an
event's effects only after the event can no longer be lost::

    store = Store("cribpi.db")
    game_id = store.new_game(NewGame(("Ann", "Ben")), table="1")
    effects = store.append(game_id, CutForDeal(...))   # committed when this returns
    restored = store.current()                         # after a restart: same id, same state

A game finishes by itself when its match is over (a ``MatchOver`` effect; an undo that takes
the last point back reopens it); ``finish`` closes one early ("abandoned"). Starting a new
game at a table abandons the game still open there.

The schema, the durability guarantees and how to back the file up are in docs/store.md.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any, Final

from cribpi.exc import RulesError, StoreError
from cribpi.game import (
    INITIAL, EndDeal, Event, Game, NewGame, NextGame, Phase, State, apply, event_from_dict,
)
from cribpi.game.review import review_seat, reviewable_seats
from cribpi.game.state import Effect
from cribpi.rules import ResultKind

__all__ = ["Store", "Restored", "PlayerStats", "SCHEMA_VERSION", "APPLICATION_ID"]

#: Bumped whenever the schema changes; a migration from every older version goes in _MIGRATIONS.
SCHEMA_VERSION: Final = 1
#: ``PRAGMA application_id``: "CRBP", so `file` and cribpi itself can tell the journal apart.
APPLICATION_ID: Final = 0x43524250

_SCHEMA: Final = """
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished', 'abandoned')),
    table_name  TEXT,
    event_name  TEXT,
    players     TEXT NOT NULL,      -- JSON list of the names, seat 0 first
    rules       TEXT NOT NULL,      -- JSON, as in the NewGame event
    mode        TEXT NOT NULL,      -- board, count or claim
    match_games INTEGER NOT NULL,   -- best of N
    started     TEXT NOT NULL,      -- UTC, ISO 8601
    finished    TEXT,
    winner      TEXT,               -- the side that won the match, by name
    summary     TEXT                -- JSON: games won, game points and spread per side
);
CREATE INDEX games_open ON games (status, table_name);
CREATE TABLE events (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seq      INTEGER NOT NULL,      -- 1, 2, ... in journal order (undos included)
    type     TEXT NOT NULL,
    data     TEXT NOT NULL,         -- Event.to_dict() as JSON
    recorded TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    number      INTEGER NOT NULL,   -- game of the match, 1, 2, ...
    winner      TEXT NOT NULL,
    winner_team INTEGER NOT NULL,
    scores      TEXT NOT NULL,      -- JSON, per side
    kind        TEXT NOT NULL,      -- win, skunk, double skunk, lurch
    game_points INTEGER NOT NULL,
    margin      INTEGER NOT NULL,
    PRIMARY KEY (game_id, number)
);
"""

#: user_version -> SQL that brings a journal of that version to the next one.
_MIGRATIONS: Final[dict[int, str]] = {}

_SKUNKS: Final = (ResultKind.SKUNK, ResultKind.DOUBLE_SKUNK, ResultKind.LURCH)


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


@dataclasses.dataclass(frozen=True, slots=True)
class Restored:
    """The game a table had open, rebuilt by replaying its journal."""

    game_id: int
    game: Game
    table: str | None = None
    event_name: str | None = None


@dataclasses.dataclass(slots=True)
class PlayerStats:
    """One player's record over the finished games of a journal (see ``Store.stats``)."""

    name: str
    games_played: int = 0
    games_won: int = 0
    matches_played: int = 0
    matches_won: int = 0
    skunks_given: int = 0
    skunks_received: int = 0
    hands: int = 0
    hand_points: int = 0
    cribs: int = 0
    crib_points: int = 0
    deals: int = 0
    play_points: int = 0
    reviews: int = 0  # discards reviewed (tables with the review on, discard entered)
    review_loss: float = 0.0  # expected points given up against the best discard, summed

    @property
    def average_hand(self) -> float | None:
        return self.hand_points / self.hands if self.hands else None

    @property
    def average_crib(self) -> float | None:
        return self.crib_points / self.cribs if self.cribs else None

    @property
    def pegging_per_deal(self) -> float | None:
        return self.play_points / self.deals if self.deals else None

    @property
    def average_discard_loss(self) -> float | None:
        """Expected points per deal given up by the discards reviewed (0 is perfect)."""
        return self.review_loss / self.reviews if self.reviews else None

    def as_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out.update(average_hand=self.average_hand, average_crib=self.average_crib,
                   pegging_per_deal=self.pegging_per_deal,
                   average_discard_loss=self.average_discard_loss)
        return out


class Store:
    """A journal file. One connection, used from one thread (the app's loop)."""

    def __init__(self, path: str | os.PathLike[str], *,
                 clock: Callable[[], dt.datetime] = _utc_now) -> None:
        self.path = os.fspath(path)
        self._clock = clock
        self._games: dict[int, Game] = {}  # replayed journals, kept to validate appends
        self._conn = self._connect()

    # -- opening -------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the game journal {self.path}: {exc}: "
                             "check that its folder exists and is writable") from None
        try:
            self._prepare(conn)
        except sqlite3.OperationalError as exc:
            conn.close()
            if "not a database" in str(exc) or "malformed" in str(exc):
                raise self._corrupt(exc) from None
            raise StoreError(f"cannot open the game journal {self.path}: {exc}: "
                             "check that the file and its folder are writable") from None
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise self._corrupt(exc) from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _corrupt(self, exc: BaseException) -> StoreError:
        return StoreError(
            f"{self.path} is not a cribpi game journal or is damaged ({exc}): move it aside "
            "(keep it: `sqlite3 FILE .recover` may save its games) and cribpi will start a new one")

    def _prepare(self, conn: sqlite3.Connection) -> None:
        # Reading the header first: a file that is not SQLite fails here, before anything is written.
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id != APPLICATION_ID and (app_id != 0 or tables):
            raise StoreError(f"{self.path} is an SQLite database but not a cribpi game journal "
                             "(wrong application id): give another file name")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer cribpi (journal version {version}, "
                             f"this cribpi reads up to {SCHEMA_VERSION}): upgrade cribpi")
        # WAL: a commit appends to the -wal file and never rewrites pages in place, so a crash
        # mid-write leaves the last committed state readable. synchronous=FULL: in WAL mode
        # NORMAL only fsyncs at checkpoints, so a commit could be lost to a power cut after the
        # app has shown its effects; FULL fsyncs the WAL on every commit, which is what lets
        # append() promise that an acknowledged event survives a pulled plug.
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: SQLite refused WAL mode (got {mode!r}): "
                             "keep the journal on a local file system")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        if app_id == 0:
            self._create(conn)
        elif version < SCHEMA_VERSION:
            self._migrate(conn, version)
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise self._corrupt(sqlite3.DatabaseError(f"quick_check: {check}"))

    def _create(self, conn: sqlite3.Connection) -> None:
        with _transaction(conn):
            if conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
                return  # another process created the journal while this one waited for the lock
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        with _transaction(conn):
            while version < SCHEMA_VERSION:
                for statement in _MIGRATIONS[version].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                version += 1
            conn.execute(f"PRAGMA user_version={version}")

    def backup(self, target: str | os.PathLike[str]) -> None:
        """A consistent copy of the journal at ``target`` (SQLite's online backup), safe while
        games are being written; copying the .db file alone could miss the events in its -wal."""
        with self._guard(f"back up to {os.fspath(target)}"):
            dest = sqlite3.connect(os.fspath(target))
            try:
                self._conn.backup(dest)
            finally:
                dest.close()

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """SQLite errors after opening become StoreError naming the file and the operation."""
        try:
            yield
        except sqlite3.Error as exc:
            if "malformed" in str(exc) or "not a database" in str(exc):
                raise self._corrupt(exc) from None
            raise StoreError(f"{self.path}: could not {doing}: {exc}") from None

    # -- writing -------------------------------------------------------------------------

    def new_game(self, first_event: NewGame, *, table: str | None = None,
                 event_name: str | None = None) -> int:
        """Start a journal with its NewGame event; any game still open at ``table`` is abandoned."""
        if not isinstance(first_event, NewGame):
            raise RulesError(f"a game starts with a NewGame event, not {type(first_event).__name__}")
        game = Game([first_event])  # refuses bad names, rules or match length before any write
        state = game.state
        now = self._now()
        data = first_event.to_dict()
        with self._guard("start a new game"), _transaction(self._conn):
            self._conn.execute(
                "UPDATE games SET status='abandoned', finished=? WHERE status='open' AND table_name IS ?",
                (now, table))
            cursor = self._conn.execute(
                "INSERT INTO games (table_name, event_name, players, rules, mode, match_games, started)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table, event_name, json.dumps(list(state.names)), json.dumps(data["rules"]),
                 state.mode.value, state.match_games, now))
            game_id = int(cursor.lastrowid or 0)
            self._insert_event(game_id, 1, first_event, now)
        self._games[game_id] = game
        return game_id

    def append(self, game_id: int, event: Event) -> tuple[Effect, ...]:
        """Apply ``event`` to the game and journal it; returns its effects once committed.

        A refused event raises RulesError and writes nothing.
        """
        with self._guard(f"journal an event of game {game_id}"), _transaction(self._conn):
            game = self._game_for_append(game_id)
            before = (game.state.phase, len(game.state.games))
            try:
                effects = game.apply(event)
            except RulesError:
                raise
            except BaseException:
                self._games.pop(game_id, None)
                raise
            try:
                now = self._now()
                self._insert_event(game_id, len(game.journal), event, now)
                if (game.state.phase, len(game.state.games)) != before:
                    self._write_outcome(game_id, game.state, now)
            except BaseException:
                self._games.pop(game_id, None)  # the Game has the event; the file will not
                raise
        return effects

    def finish(self, game_id: int) -> str:
        """Close a game: 'finished' if its match is over, else 'abandoned'. Returns the status."""
        with self._guard(f"finish game {game_id}"), _transaction(self._conn):
            status = self._status(game_id)
            if status == "open":
                state = self._load(game_id).state
                status = "finished" if state.phase is Phase.MATCH_OVER else "abandoned"
                self._conn.execute("UPDATE games SET status=?, finished=? WHERE id=?",
                                   (status, self._now(), game_id))
        return status

    def _game_for_append(self, game_id: int) -> Game:
        status = self._status(game_id)
        if status == "abandoned":
            raise StoreError(f"{self.path}: game {game_id} was abandoned: start a new game")
        last = self._conn.execute("SELECT max(seq) FROM events WHERE game_id=?", (game_id,)).fetchone()[0]
        game = self._games.get(game_id)
        if game is None or len(game.journal) != last:  # another process appended meanwhile
            game = self._games[game_id] = self._load(game_id)
        return game

    def _insert_event(self, game_id: int, seq: int, event: Event, now: str) -> None:
        self._conn.execute("INSERT INTO events (game_id, seq, type, data, recorded) VALUES (?, ?, ?, ?, ?)",
                           (game_id, seq, event.kind, json.dumps(event.to_dict(), ensure_ascii=False), now))

    def _write_outcome(self, game_id: int, state: State, now: str) -> None:
        """Results of the games completed so far; the match result once it is over."""
        self._conn.execute("DELETE FROM results WHERE game_id=?", (game_id,))
        for number, record in enumerate(state.games, 1):
            self._conn.execute(
                "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, number, state.team_name(record.winner), record.winner,
                 json.dumps(list(record.scores)), record.result.kind.value,
                 record.result.game_points, record.result.margin))
        if state.phase is Phase.MATCH_OVER:
            won = state.games_won()
            winner = state.team_name(won.index(max(won)))
            self._conn.execute(
                "UPDATE games SET status='finished', finished=?, winner=?, summary=? WHERE id=?",
                (now, winner, json.dumps(state.match_summary()), game_id))
        else:  # an undo took the winning points back
            self._conn.execute(
                "UPDATE games SET status='open', finished=NULL, winner=NULL, summary=NULL"
                " WHERE id=? AND status='finished'", (game_id,))

    def _now(self) -> str:
        return self._clock().astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")

    # -- reading -------------------------------------------------------------------------

    def events(self, game_id: int) -> list[Event]:
        """Every event journalled for the game, in order, undos included."""
        with self._guard(f"read game {game_id}"):
            self._status(game_id)
            return [event for _, event in self._rows(game_id)]

    def current(self, table: str | None = None) -> Restored | None:
        """The most recently started open game (at ``table`` if given), replayed; None if none."""
        sql = "SELECT id, table_name, event_name FROM games WHERE status='open'"
        args: tuple[object, ...] = ()
        if table is not None:
            sql, args = sql + " AND table_name=?", (table,)
        with self._guard("find the open game"):
            row = self._conn.execute(sql + " ORDER BY id DESC LIMIT 1", args).fetchone()
            if row is None:
                return None
            self._games[row[0]] = self._load(row[0])
            game = self._load(row[0])  # the caller's own copy: appends apply to the store's
        return Restored(row[0], game, row[1], row[2])

    def games(self, status: str | None = None) -> list[dict[str, Any]]:
        """The rows of the games table (players, rules and summary decoded), oldest first."""
        sql = "SELECT * FROM games" + (" WHERE status=?" if status else "") + " ORDER BY id"
        with self._guard("list the games"):
            cursor = self._conn.execute(sql, (status,) if status else ())
            names = [d[0] for d in cursor.description]
            rows = [dict(zip(names, row)) for row in cursor.fetchall()]
        for row in rows:
            for key in ("players", "rules", "summary"):
                row[key] = json.loads(row[key]) if row[key] is not None else None
        return rows

    def _status(self, game_id: int) -> str:
        row = self._conn.execute("SELECT status FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path} has no game {game_id}")
        return str(row[0])

    def _rows(self, game_id: int) -> Iterator[tuple[int, Event]]:
        rows = self._conn.execute("SELECT seq, data FROM events WHERE game_id=? ORDER BY seq", (game_id,))
        for seq, data in rows.fetchall():
            try:
                yield seq, event_from_dict(json.loads(data))
            except (ValueError, TypeError) as exc:  # RulesError and JSON errors are ValueErrors
                raise self._unreadable(game_id, seq, "cannot be read", exc) from None

    def _load(self, game_id: int) -> Game:
        """Replay a journal. An event that no longer applies is an error, never skipped."""
        game = Game()
        for seq, event in self._rows(game_id):
            try:
                game.apply(event)
            except RulesError as exc:
                raise self._unreadable(game_id, seq, f"({event.kind}) no longer applies", exc) from None
        return game

    def _unreadable(self, game_id: int, seq: int, what: str, exc: Exception) -> StoreError:
        return StoreError(
            f"{self.path}: game {game_id}, event {seq} {what}: {exc}. The journal is left as it "
            "is; keep a copy of the file and report it with the version of cribpi that wrote it")

    # -- export and statistics -----------------------------------------------------------

    def export(self, game_id: int) -> str:
        """The game as record text (cribpi.game.record): the events in force, undos taken out."""
        from cribpi.game import record  # written alongside the store; imported when needed

        with self._guard(f"export game {game_id}"):
            row = self._conn.execute(
                "SELECT table_name, event_name, started, finished, winner FROM games WHERE id=?",
                (game_id,)).fetchone()
            if row is None:
                raise StoreError(f"{self.path} has no game {game_id}")
            game = self._load(game_id)
        table, event_name, started, finished, winner = row
        tags = {"Event": event_name, "Table": table, "Date": started[:10], "Started": started,
                "Finished": finished, "Winner": winner}
        return str(record.export_record(game.events, {k: v for k, v in tags.items() if v}))

    def stats(self) -> dict[str, PlayerStats]:
        """Per player name, over the finished games (see docs/store.md for what counts)."""
        players: dict[str, PlayerStats] = {}
        with self._guard("compute statistics"):
            ids = [r[0] for r in self._conn.execute("SELECT id FROM games WHERE status='finished' ORDER BY id")]
            for game_id in ids:
                _add_match(players, self._load(game_id))
        return dict(sorted(players.items()))


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT: the write lock is taken up front, so no half-read journal."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a failed COMMIT (disk full, I/O error) must not wedge the journal
            conn.execute("ROLLBACK")
        raise


# -- statistics ------------------------------------------------------------------------------


def _add_match(players: dict[str, PlayerStats], game: Game) -> None:
    """Replay the events in force, collecting each deal's show totals and play points."""
    state = INITIAL
    for event in game.events:
        if isinstance(event, (EndDeal, NextGame)):
            _add_deal(players, state)
        state, _ = apply(state, event)
    _add_deal(players, state)
    _add_results(players, state)


def _add_deal(players: dict[str, PlayerStats], state: State) -> None:
    """Hands and the crib count as the rules gave them; a deal counts for pegging once its play
    is over. Board-mode deals (no cards entered) and misdeals are not counted."""
    deal = state.deal
    if deal is None or deal.starter is None:
        return
    stats = [players.setdefault(name, PlayerStats(name)) for name in state.names]
    for seat, points in deal.hand_totals:
        stats[seat].hands += 1
        stats[seat].hand_points += points
    if deal.crib_total is not None:
        stats[deal.dealer].cribs += 1
        stats[deal.dealer].crib_points += deal.crib_total
    if deal.hand_totals or deal.crib_total is not None:
        for seat, player in enumerate(stats):
            player.deals += 1
            player.play_points += sum(p for s, p, where in deal.pegged if s == seat and where == "play")
    for seat in reviewable_seats(state):
        review = review_seat(state, seat)
        if review is not None:
            stats[seat].reviews += 1
            stats[seat].review_loss += review.loss


def _add_results(players: dict[str, PlayerStats], state: State) -> None:
    stats = [players.setdefault(name, PlayerStats(name)) for name in state.names]
    for record in state.games:
        skunk = record.result.kind in _SKUNKS
        for seat, player in enumerate(stats):
            won = state.team_of(seat) == record.winner
            player.games_played += 1
            player.games_won += won
            player.skunks_given += skunk and won
            player.skunks_received += skunk and not won
    if state.phase is Phase.MATCH_OVER:
        won_games = state.games_won()
        champion = won_games.index(max(won_games))
        for seat, player in enumerate(stats):
            player.matches_played += 1
            player.matches_won += state.team_of(seat) == champion
