"""The game journal: every accepted event of every table, in SQLite, safe across a pulled plug.

A stored *game* is one journal: a ``NewGame`` event and everything after it, so a best-of-N
match is one stored game (its games are the rows of ``results``). The caller applies each event
to its own :class:`~cribpi.game.Game` first (that is the check), then journals it; ``append``
is its own transaction and returns only once SQLite has committed it, so the caller shows an
event's effects only after the event can no longer be lost, and rolls its game back if the
journal raises::

    store = Store("cribpi.db")
    game = Game([first])
    game_id = store.new_game(first, table="1")
    effects = game.apply(event)
    store.append(game_id, event, game)      # committed when this returns (else game.rollback())
    restored = store.current()              # after a restart: same id, same state

Every ``snapshot_every`` events the state is saved beside the event, in the same transaction,
so a restart replays only the events after the latest snapshot; the earlier ones are read
back, a snapshot at a time, only if an undo reaches back past it. A snapshot is a cache: one
that cannot be used is passed over, and the journal itself is replayed instead.

A game finishes by itself when its match is over (an undo that takes the last point back
reopens it); ``finish`` closes one early ("abandoned"). Starting a new game at a table
abandons the game still open there. The schema, the durability guarantees and how to back
the file up are in docs/store.md.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from cribpi.exc import JournalDamaged, RulesError, StoreError
from cribpi.game import Event, Game, NewGame, Phase, State, Undo, event_from_dict
from cribpi.nesting import loads_json
from cribpi.store.checkpoint import BACKSTOP_PAGES, Checkpointer
from cribpi.store.guard import open_guarded
from cribpi.store.schema import APPLICATION_ID, SCHEMA_VERSION, event_crc, store_error, transaction
from cribpi.store.settings import read_table_settings, write_table_settings
from cribpi.store.snapshot import SnapshotError, decode_state, encode_state, snapshot_format

__all__ = ["Store", "Restored", "SCHEMA_VERSION", "APPLICATION_ID", "SNAPSHOT_EVERY"]

log = logging.getLogger(__name__)

#: Events between two snapshots of a game's state (a restart replays at most this many).
SNAPSHOT_EVERY: Final = 50

#: Commits between two checkpoints (run by a thread of their own, off the commit's path).
CHECKPOINT_EVERY: Final = 100

#: Snapshots kept besides the latest few: one every _SPARSE intervals of snapshot_every events.
_RECENT: Final = 8
_SPARSE: Final = 10

#: After an event that leaves the table in one of these phases, or an undo, results are written again.
_OUTCOME_PHASES: Final = (Phase.GAME_OVER, Phase.MATCH_OVER)


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


@dataclasses.dataclass(frozen=True, slots=True)
class Restored:
    """The game a table had open, rebuilt from its journal."""

    game_id: int
    game: Game
    table: str | None = None
    event_name: str | None = None


class Store:
    """A journal file. One connection, used from one thread (the app's loop).

    A writer (the default) holds the journal's lock until :meth:`close`: a second writer
    raises JournalLocked naming this process. ``read_only`` opens it as ``stats`` and
    ``export`` do: no lock, nothing written, usable while a table writes. Either way the file
    is checked first (JournalDamaged). ``recover`` (for ``cribpi run`` and ``sim``): a damaged
    journal is moved aside and a fresh one started, and :attr:`notice` says so for the
    player and the log (else it is None). ``snapshot_every``: events between snapshots of a
    game's state (0: none are written).
    """

    def __init__(self, path: str | os.PathLike[str], *, clock: Callable[[], dt.datetime] = _utc_now,
                 snapshot_every: int = SNAPSHOT_EVERY, read_only: bool = False, recover: bool = False) -> None:
        self.path = os.fspath(path)
        self._clock = clock
        self._snapshot_every = snapshot_every
        opened = open_guarded(self.path, read_only=read_only, recover=recover, now=clock())
        self._conn, self._version, self._lock = opened.conn, opened.version, opened.lock
        #: Why the journal this table opened is a fresh one (a damaged one moved aside); else None.
        self.notice = opened.notice
        self._checkpointer: Checkpointer | None = None
        if not read_only:
            self._conn.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}")  # the Checkpointer's job
            self._checkpointer = Checkpointer(self.path, CHECKPOINT_EVERY)

    # -- the file --------------------------------------------------------------------------

    def backup(self, target: str | os.PathLike[str]) -> None:
        """A consistent copy of the journal at ``target`` (SQLite's online backup), safe while
        games are being written; copying the .db file alone could miss the events in its -wal.
        (Dated copies with the last N kept: :func:`cribpi.store.backup`.)"""
        with self._guard(f"back up to {os.fspath(target)}"):
            dest = sqlite3.connect(os.fspath(target))
            try:
                self._conn.backup(dest)
            finally:
                dest.close()

    def close(self) -> None:
        try:
            if self._checkpointer is not None:
                self._checkpointer.stop()
            self._conn.close()  # the last connection folds the whole WAL in
        finally:
            if self._lock is not None:
                self._lock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """SQLite errors after opening become StoreError naming the file and the operation."""
        try:
            yield
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise store_error(self.path, exc, doing) from None

    # -- writing -------------------------------------------------------------------------

    def new_game(self, first_event: NewGame, *, table: str | None = None,
                 event_name: str | None = None) -> int:
        """Start a journal with its NewGame event; any game still open at ``table`` is abandoned."""
        if not isinstance(first_event, NewGame):
            raise RulesError(f"a game starts with a NewGame event, not {type(first_event).__name__}")
        state = Game([first_event]).state  # refuses bad names, rules or match length before any write
        now = self._now()
        data = first_event.to_dict()
        with self._guard("start a new game"), transaction(self._conn):
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
        return game_id

    def append(self, game_id: int, event: Event, game: Game) -> None:
        """Journal ``event``, which ``game`` has just applied: it is written as the game's
        latest journal entry, with the results and snapshot ``game.state`` gives. Returns
        once committed; on any error nothing is written (the caller rolls its game back).

        A game that is abandoned, or that another connection has journalled further, raises
        StoreError.
        """
        seq = len(game.journal)
        if not seq or game.journal[-1] != event:
            raise RulesError(f"apply the {event.kind} event to the game before journalling it")
        with self._guard(f"journal an event of game {game_id}"), transaction(self._conn):
            self._check_next(game_id, seq)
            now = self._now()
            self._insert_event(game_id, seq, event, now)
            if isinstance(event, Undo) or game.state.phase in _OUTCOME_PHASES:
                self._write_outcome(game_id, game.state, now)
            self._snapshot_if_due(game_id, seq, game)
        if self._checkpointer is not None:
            self._checkpointer.nudge()

    def finish(self, game_id: int) -> str:
        """Close a game: 'finished' if its match is over, else 'abandoned'. Returns the status."""
        with self._guard(f"finish game {game_id}"), transaction(self._conn):
            status = self._status(game_id)
            if status == "open":
                state = self.restore(game_id).state
                status = "finished" if state.phase is Phase.MATCH_OVER else "abandoned"
                self._conn.execute("UPDATE games SET status=?, finished=? WHERE id=?",
                                   (status, self._now(), game_id))
        return status

    def keep_table_settings(self, table: str | None, data: Mapping[str, Any]) -> None:
        """Keep ``table``'s settings (the next game's set-up, as chosen): committed when this
        returns, else nothing is written (:mod:`cribpi.store.settings`)."""
        with self._guard(f"keep the settings of table {table}"), transaction(self._conn):
            write_table_settings(self._conn, table, data, self._now())

    def _check_next(self, game_id: int, seq: int) -> None:
        if self._status(game_id) == "abandoned":
            raise StoreError(f"{self.path}: game {game_id} was abandoned: start a new game")
        last = self._conn.execute("SELECT max(seq) FROM events WHERE game_id=?", (game_id,)).fetchone()[0]
        if seq != last + 1:
            raise StoreError(f"{self.path}: game {game_id} has {last} events journalled, so the next is "
                             f"number {last + 1}, not {seq}: another program is writing this game "
                             "(restart cribpi to resume it from the journal)")

    def _insert_event(self, game_id: int, seq: int, event: Event, now: str) -> None:
        data = json.dumps(event.to_dict(), ensure_ascii=False)
        self._conn.execute("INSERT INTO events (game_id, seq, type, data, recorded, crc) VALUES (?, ?, ?, ?, ?, ?)",
                           (game_id, seq, event.kind, data, now, event_crc(game_id, seq, event.kind, data)))

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

    def _snapshot_if_due(self, game_id: int, seq: int, game: Game) -> None:
        """Every ``snapshot_every`` events, and whenever an undo has taken back events from
        before the latest snapshot (a restore from it would have to read back past it). The
        latest few are kept, and older ones only every ``_SPARSE`` intervals: an undo that
        reaches further back replays from one of those."""
        if not self._snapshot_every:
            return
        in_force = len(game.events)
        try:
            base_seq, base_in_force = self._latest_snapshot(game_id)
            if seq - base_seq < self._snapshot_every and in_force >= base_in_force:
                return
            row = (game_id, seq, in_force, snapshot_format(), encode_state(game.state))
        except SnapshotError as exc:  # a bug, never a reason to lose the event: restore replays
            log.warning("%s: no snapshot of game %d at event %d: %s", self.path, game_id, seq, exc)
            return
        self._conn.execute("INSERT INTO snapshots VALUES (?, ?, ?, ?, ?)", row)
        self._conn.execute(
            "DELETE FROM snapshots WHERE game_id=? AND seq % ? != 0 AND seq < (SELECT min(seq) FROM"
            " (SELECT seq FROM snapshots WHERE game_id=? ORDER BY seq DESC LIMIT ?))",
            (game_id, self._snapshot_every * _SPARSE, game_id, _RECENT))

    def _latest_snapshot(self, game_id: int) -> tuple[int, int]:
        """(seq, events in force) of the game's latest usable snapshot; (0, 0) if none."""
        row = self._conn.execute("SELECT seq, in_force, format FROM snapshots WHERE game_id=?"
                                 " ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
        if row is None or row[2] != snapshot_format() or not _counts(row[0], row[1], row[0]):
            return 0, 0
        return int(row[0]), int(row[1])

    def _now(self) -> str:
        return self._clock().astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")

    # -- reading -------------------------------------------------------------------------

    def events(self, game_id: int) -> list[Event]:
        """Every event journalled for the game, in order, undos included."""
        with self._guard(f"read game {game_id}"):
            self._status(game_id)
            return [event for _, event in self._rows(game_id)]

    def current(self, table: str | None = None) -> Restored | None:
        """The most recently started open game (at ``table`` if given), restored; None if none."""
        sql = "SELECT id, table_name, event_name FROM games WHERE status='open'"
        args: tuple[object, ...] = ()
        if table is not None:
            sql, args = sql + " AND table_name=?", (table,)
        with self._guard("find the open game"):
            row = self._conn.execute(sql + " ORDER BY id DESC LIMIT 1", args).fetchone()
            if row is None:
                return None
            return Restored(row[0], self.restore(row[0]), row[1], row[2])

    def table_settings(self, table: str | None) -> dict[str, Any] | None:
        """The settings last kept for ``table``; None if none (or unreadable: logged)."""
        with self._guard(f"read the settings of table {table}"):
            return read_table_settings(self._conn, self.path, table, self._version)

    def restore(self, game_id: int) -> Game:
        """The game as its journal leaves it, from its latest usable snapshot (replaying only
        the events after it), else replayed from the start. Equal, state and undos alike, to
        :meth:`load`; the events before the snapshot are read back only when an undo reaches
        them, a snapshot at a time."""
        with self._guard(f"read game {game_id}"):
            self._status(game_id)
            last = self._conn.execute("SELECT max(seq) FROM events WHERE game_id=?", (game_id,)).fetchone()[0]
            return self._game_at(game_id, int(last or 0))

    def load(self, game_id: int) -> Game:
        """The game replayed from the first event of its journal (every event read)."""
        with self._guard(f"read game {game_id}"):
            self._status(game_id)
            return self._replay(game_id)

    def game(self, game_id: int) -> dict[str, Any]:
        """One row of the games table, decoded as in :meth:`games`."""
        with self._guard(f"read game {game_id}"):
            cursor = self._conn.execute("SELECT * FROM games WHERE id=?", (game_id,))
            rows = self._decoded(cursor)
        if not rows:
            raise StoreError(f"{self.path} has no game {game_id}")
        return rows[0]

    def games(self, status: str | None = None) -> list[dict[str, Any]]:
        """The rows of the games table (players, rules and summary decoded), oldest first."""
        sql = "SELECT * FROM games" + (" WHERE status=?" if status else "") + " ORDER BY id"
        with self._guard("list the games"):
            return self._decoded(self._conn.execute(sql, (status,) if status else ()))

    def _decoded(self, cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
        names = [d[0] for d in cursor.description]
        rows = [dict(zip(names, row)) for row in cursor.fetchall()]
        for row in rows:
            try:
                for key in ("players", "rules", "summary"):
                    row[key] = loads_json(row[key]) if row[key] is not None else None
            except (ValueError, TypeError) as exc:
                raise JournalDamaged(f"{self.path} is damaged: game {row.get('id')}'s {key} cannot be read "
                                     f"({exc}): move it aside") from None
        return rows

    def _status(self, game_id: int) -> str:
        row = self._conn.execute("SELECT status FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path} has no game {game_id}")
        return str(row[0])

    def _rows(self, game_id: int, after: int = 0, upto: int | None = None) -> Iterator[tuple[int, Event]]:
        crc = "crc" if self._version >= 3 else "NULL"  # an older journal read as it is
        rows = self._conn.execute(
            f"SELECT seq, type, data, {crc} FROM events WHERE game_id=? AND seq>? AND seq<=? ORDER BY seq",
            (game_id, after, upto if upto is not None else 2 ** 62))
        expected = after + 1
        for seq, kind, data, check in rows.fetchall():
            if seq != expected or (check is not None and check != _crc(game_id, seq, kind, data)):
                what = f"is missing (the next is {seq})" if seq != expected else "fails its checksum"
                raise JournalDamaged(f"{self.path} is damaged: game {game_id}, event {expected} {what}: "
                                     "move it aside (keep it: `sqlite3 FILE .recover` may save its games)")
            expected += 1
            try:
                yield seq, event_from_dict(loads_json(data))
            except (ValueError, TypeError) as exc:  # RulesError, JSON errors and TooDeep are ValueErrors
                raise self._unreadable(game_id, seq, "cannot be read", exc) from None

    def _replay(self, game_id: int, length: int | None = None) -> Game:
        """Replay a journal (its first ``length`` events). An event that no longer applies is
        an error, never skipped."""
        game = Game()
        for seq, event in self._rows(game_id, upto=length):
            try:
                game.apply(event)
            except RulesError as exc:
                raise self._unreadable(game_id, seq, f"({event.kind}) no longer applies", exc) from None
        return game

    def _game_at(self, game_id: int, length: int, before: int | None = None) -> Game:
        """The game of the first ``length`` journal events: from the latest usable snapshot
        (taken before event ``before``, if given) and the events after it; else replayed from
        the start. A snapshot that cannot be read is passed over for an older one; one the
        events after it do not follow from makes the journal replay from the start."""
        for seq, in_force in self._snapshots(game_id, length, before):
            state = self._snapshot_state(game_id, seq)
            if state is None:
                continue
            game = Game.resume(state, seq, in_force, functools.partial(self._earlier, game_id, seq))
            try:
                for _, event in self._rows(game_id, after=seq, upto=length):
                    game.apply(event)
            except RulesError as exc:
                log.warning("%s: game %d does not follow from its snapshot at event %d (%s): replaying",
                            self.path, game_id, seq, exc)
                break
            return game
        return self._replay(game_id, length)

    def _snapshots(self, game_id: int, length: int, before: int | None) -> list[tuple[int, int]]:
        """(seq, events in force) of the game's snapshots in this format, latest first."""
        if self._version < 2:  # a schema-1 journal read as it is has none
            return []
        try:
            wanted = snapshot_format()
        except SnapshotError:
            return []
        rows = self._conn.execute("SELECT seq, in_force, format FROM snapshots WHERE game_id=? AND seq<?"
                                  " ORDER BY seq DESC", (game_id, before or length + 1)).fetchall()
        return [(seq, in_force) for seq, in_force, format_ in rows
                if format_ == wanted and _counts(seq, in_force, length)]

    def _snapshot_state(self, game_id: int, seq: int) -> State | None:
        text = self._conn.execute("SELECT state FROM snapshots WHERE game_id=? AND seq=?",
                                  (game_id, seq)).fetchone()[0]
        try:
            if not isinstance(text, str):
                raise SnapshotError(f"a snapshot is text, not {type(text).__name__}")
            return decode_state(text)
        except SnapshotError as exc:
            log.warning("%s: snapshot of game %d at event %d passed over: %s", self.path, game_id, seq, exc)
            return None

    def _earlier(self, game_id: int, length: int) -> Game:
        """The game of the events before a snapshot at ``length`` (for Game.resume)."""
        with self._guard(f"read game {game_id}"):
            return self._game_at(game_id, length, before=length)

    def _unreadable(self, game_id: int, seq: int, what: str, exc: Exception) -> StoreError:
        return StoreError(
            f"{self.path}: game {game_id}, event {seq} {what}: {exc}. The journal is left as it "
            "is; keep a copy of the file and report it with the version of cribpi that wrote it")


def _crc(game_id: int, seq: object, kind: object, data: object) -> int | None:
    """The row's checksum as written; None for a row whose fields are not the types written."""
    if isinstance(seq, int) and isinstance(kind, str) and isinstance(data, str):
        return event_crc(game_id, seq, kind, data)
    return None


def _counts(seq: object, in_force: object, last: int) -> bool:
    """A snapshot's position: after an event the journal holds, no more in force than written."""
    return isinstance(seq, int) and isinstance(in_force, int) and 0 <= in_force <= seq <= last
