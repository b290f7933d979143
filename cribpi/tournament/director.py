"""The director: every table's messages in, the event's standings, bracket and live boards out.

Every message is untrusted. :func:`~cribpi.tournament.messages.parse` refuses anything
malformed; here a replay (a (table, id) already seen, or a game already resulted), an id
older than the table's newest, a player who is not registered or not seated at that table,
are refused too. Each refusal is counted by its reason and logged, and none reaches a
standing. Only a confirmed result counts; a disputed one waits for the director's correction.

On the broker, a result is never lost: the director acknowledges each message (QoS 1, manual
acks, in order) only once what it wrote is on the disk. It commits each message at once, but
without waiting for the disk (a commit that only the director's death could not lose); a flusher
thread then makes the commits durable, one fsync for all that came in the last few
milliseconds, and acknowledges them. So taking a result costs no fsync on the message thread,
and a power cut before that fsync loses nothing either: those messages were not acknowledged,
and the director's persistent session at the broker delivers them again (counted once: a
result already stored is a replay).

What the broker acknowledged to a table before the director's session existed there (the
director started after the tables, or the broker lost its store) or that the director's
database lost, the tables send again: the director announces a session id on a retained topic,
new whenever the broker kept no session for it or its database has none, and each table
replays its outbox to a session it has not served (see :mod:`cribpi.tournament.publisher`).

And end to end: after the same fsync, the director tells each table which of its events and
results it has had its last word on (``cribpi/<event>/acks/<table>``); a table sends again,
after any reconnect of either side, whatever it was not told of. So a result the broker
acknowledged and then lost (killed before saving it) still arrives.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from cribpi.exc import ConfigError
from cribpi.tournament.broker import Broker, new_client
from cribpi.tournament.eventdb import EventDB
from cribpi.tournament.messages import (BadMessage, Message, acks_body, acks_topic, director_body, director_topic, parse,
                                        result_problem, subscription, topic)
from cribpi.tournament.pairing import METHODS, seat_pairs, seat_random, seat_swiss
from cribpi.tournament.standings import ACC_POINTS, Outcome, Standings, bracket, cut

__all__ = ["Director", "NoSuchResult", "NAME_MAX"]

log = logging.getLogger(__name__)

Notify = Callable[[str, dict[str, Any]], None]  # (what changed: "table" or "standings", its data)
WAITING_PER_TABLE = 200  # results a table may have waiting for their players to be registered
NAME_MAX = 64  # a player's name, in characters
SEAT_COLOURS = ("Red", "Blue", "Green", "Yellow")  # seat 1, 2, 3, 4: the pages' colours of each side


class NoSuchResult(ConfigError, LookupError):
    """A correction names a result the event does not have."""


class Director:
    def __init__(self, db: EventDB) -> None:
        self.db = db
        self.event = db.get("event")
        self.lock = threading.RLock()
        self.refused: Counter[str] = Counter()
        self.accepted: Counter[str] = Counter()
        self.live: dict[str, dict[str, Any]] = {t: {"table": t, "online": False, "state": None} for t in db.tables()}
        self.newest: dict[str, int] = {}  # table -> newest event id
        self.since: dict[str, int] = {}  # table -> the id no older board may come under (reset on connect)
        self.shown: dict[str, set[int]] = {}  # table -> the ids of its states shown since then
        self.seen: dict[str, set[int]] = {}
        self.listeners: list[Notify] = []
        self.standings = Standings(db.players())
        self.playoff_games: dict[frozenset[str], Counter[str]] = {}
        self.client: mqtt.Client | None = None
        self.drops = 0  # connections to the broker lost (a takeover of its client id would show here)
        # Set once the broker holds the director's subscription (from then on its persistent
        # session keeps every message for it) and the director announced its session.
        self.subscribed = threading.Event()
        self.acks = threading.Lock()  # the order of acknowledgements
        self.unacked: list[tuple[int, int]] = []  # (mid, qos) waiting for the fsync, oldest first
        self.undone: list[tuple[str, int]] = []  # (table, id) to tell each table once the fsync is made
        self.told = 0  # ids the tables were told the director has
        self.syncing = False  # the flusher holds acknowledgements older than any in unacked
        self.flush_wanted = threading.Event()
        self.flusher: threading.Thread | None = None
        self.stopping = False
        self.left_out: set[int] = set()  # stored results the standings could not use (logged at start)
        kinds = db.round_kinds()
        for row in db.results("status = 'confirmed'"):
            self._load(row, kinds.get(row["round"], "qualifying"))

    # -- messages in ------------------------------------------------------------------------

    def handle(self, topic: str, payload: bytes, *, retained: bool = False) -> bool:
        """Take one message from the broker (``retained``: one it kept, sent on subscribing);
        False (counted and logged) if it was refused."""
        return self._take(topic, payload, retained=retained)[0]

    def _take(self, topic: str, payload: bytes, *, retained: bool = False) -> tuple[bool, tuple[str, int] | None]:
        """As :meth:`handle`, and the (table, id) of a table's event or result that the
        director has now had its last word on, taken or refused (None for a board, a status,
        a message too malformed to name its id, or a result kept for nobody)."""
        message: Message | None = None
        try:
            message = parse(self.event, topic, payload)
            with self.lock:
                if message.kind == "state":
                    self._on_state(message, retained=retained)
                else:
                    getattr(self, f"_on_{message.kind}")(message)
        except BadMessage as exc:
            self.refused[exc.reason] += 1
            log.warning("refused: %s", exc)
            return False, (_ackable(message) if exc.final else None)
        self.accepted[message.kind] += 1
        return True, _ackable(message)

    @property
    def game_length(self) -> int:
        """The event's game: to 121, or to 61 (set at init)."""
        return int(self.db.get("game_length", "121"))

    def _table(self, message: Message) -> dict[str, Any]:
        live = self.live.get(message.table)
        if live is None:
            raise BadMessage("unknown_table", f"{message.table} is not a table of this event")
        return live

    def _on_status(self, message: Message) -> None:
        live = self._table(message)
        live["online"] = message.body["online"]
        if live["online"]:  # a table that restarted may have a clock set back (a Pi has no RTC)
            self.since.pop(message.table, None)
            self.shown.pop(message.table, None)
        self._notify("table", live)

    def _on_state(self, message: Message, *, retained: bool = False) -> None:
        """A table's board. One the broker kept (``retained``: sent on subscribing, the board
        as it was last) is shown but does not say the table is online; a live one does.

        Boards are ordered by the table's own ids, never by its clock (``at``, shown only): a
        state's ``id`` is the newest message id the table had handed to the broker when it
        sent it, so its events up to that id come before it. An older board than the one shown
        is refused, but a board's id raises the bar for the next ones no higher than the newest
        event id the director has had from the table: a board with a made-up id far ahead
        (the table's password can publish one) is shown until the next board, and freezes
        nothing."""
        table, body = message.table, message.body
        live, number = self._table(message), body.get("id")
        if number is not None:
            shown, floor = self.shown.setdefault(table, set()), self.since.get(table, 0)
            if number < floor:
                if number in shown:  # delivered again: its acknowledgement was lost in a broker restart
                    raise BadMessage("replay", f"{table}/state {number} shown before")
                raise BadMessage("out_of_order", f"{table}/state {number} older than the one shown ({floor})")
            self.since[table] = max(floor, min(number, self.newest.get(table, 0)))
            if len(shown) > 10_000:
                shown.clear()
            shown.add(number)
        live["state"] = body
        if not retained:
            live["online"] = True
        self._notify("table", live)

    def _on_events(self, message: Message) -> None:
        self._table(message)
        table, msg_id = message.table, message.body["id"]
        seen = self.seen.setdefault(table, set())
        if msg_id in seen:
            raise BadMessage("replay", f"{table}/events id {msg_id} seen before")
        newest = self.newest.get(table, 0)
        seen.add(msg_id)
        if msg_id < newest:
            raise BadMessage("out_of_order", f"{table}/events id {msg_id} after {newest}")
        self.newest[table] = msg_id

    def _on_result(self, message: Message) -> None:
        self._table(message)
        body, table = message.body, message.table
        if body["scores"][body["winner"]] != self.game_length:
            raise BadMessage("game_length", f"{table}/result: a game won with {body['scores'][body['winner']]} in an"
                             f" event of games to {self.game_length}")
        number, kind = self.db.current_round()
        players = body["players"]
        unknown = [p for p in players if self._side(p) is None]
        if unknown:  # kept: a replay to a new database may come before the players are registered
            kept = self.db.add_waiting(table, body["id"], topic(self.event, table, "result"), json.dumps(body).encode(),
                                most=WAITING_PER_TABLE)
            raise BadMessage("unknown_player", f"{table}/result: {', '.join(unknown)[:80]} not registered"
                             + ("; it waits for them" if kept else ""), final=kept)
        seating = self.db.seating(number)  # a round that seats tables: only its seats play
        seated, entrants = seating.get(table), [name for side in players for name in self._side(side) or ()]
        if seating and (seated is None or sorted(seated) != sorted(entrants)):
            kept = self._keep_unseated(table, body, entrants, number)
            raise BadMessage("not_seated", f"{table}/result: {players} are not the players seated there"
                             + ("; kept for the admin to rule on" if kept else ""))
        if kind == "playoff" and len(entrants) != len(players):
            raise BadMessage("not_seated", f"{table}/result: {players}: a playoff match is between entrants")
        known = self.db.result_for_game(table, body["game"], body["game_number"])
        if known is not None:
            if known["status"] == "confirmed" or body["status"] == "disputed" or known["msg_id"] >= body["id"]:
                raise BadMessage("replay", f"{table}/result for game {body['game']}.{body['game_number']} known")
            self.db.update_result(known["id"], {**body, "msg_id": body["id"]}, by=table, why="confirmed at the table")
            self._count(self.db.result(known["id"]) or {}, kind)
            return
        if seating:
            past = self._past_match(table, number, kind, entrants)
            if past is not None:
                kept = self._keep(table, body, "too_many", number)
                raise BadMessage("too_many", f"{table}/result: {past}" + ("; kept for the admin to rule on" if kept else ""))
        try:
            self.db.insert_result(table, body, number)
        except sqlite3.IntegrityError:
            raise BadMessage("replay", f"{table}/result id {body['id']} seen before") from None
        if body["status"] == "confirmed":
            self._count({**body, "table_id": table, "msg_id": body["id"]}, kind)
        else:
            self._notify("result", {"table": table, "status": "disputed"})

    def _past_match(self, table: str, number: int, kind: str, entrants: list[str]) -> str | None:
        """Why a new result from ``table`` for the match round ``number`` seats there is one
        more than that match can have, or None. A qualifying round's match has the games it
        was seated with (the event's ``round_games`` when not said); a playoff match is over
        once a side has won it, and has at most its best-of games."""
        had = self.db.count_results(table, number, ("confirmed", "disputed"))
        if kind == "playoff":
            pair = frozenset(entrants)
            match = next((m for r in self.bracket()["rounds"] for m in r if frozenset((m["a"], m["b"])) == pair), None)
            most = match["best_of"] if match else int(self.db.get("best_of", "3"))
            if match and match["winner"] is not None:
                return f"{' v '.join(sorted(pair))}: the match is won already by {match['winner']}"
        else:
            most = self.db.round_games(number) or int(self.db.get("round_games", "1"))
        if had >= most:
            return f"round {number} seats a match of {most} game{'s' * (most != 1)} there, and it has {had} results"
        return None

    def _keep_unseated(self, table: str, body: dict[str, Any], entrants: list[str], current: int) -> bool:
        """Keep a result of players not seated at ``table`` now (a game finished after the next
        round was seated) as ``not_seated``, uncounted, in the latest round that seated them
        there: /admin/results shows it and a correction confirms it. Whether it is kept."""
        number = next((n for n in range(current - 1, 0, -1)
                       if sorted(self.db.seating(n).get(table, ())) == sorted(entrants)), current)
        return self._keep(table, body, "not_seated", number)

    def _keep(self, table: str, body: dict[str, Any], status: str, number: int) -> bool:
        """Keep a result the standings do not count, as ``status`` in round ``number``, for the
        admin to rule on (/admin/results shows it; a correction confirms it). At most
        ``WAITING_PER_TABLE`` a table; whether it is kept."""
        held = self.db.results("table_id = ? AND status IN ('not_seated', 'too_many')", (table,))
        if len(held) >= WAITING_PER_TABLE or self.db.result_for_game(table, body["game"], body["game_number"]):
            return False
        try:
            self.db.insert_result(table, {**body, "status": status}, number)
        except sqlite3.IntegrityError:
            return False
        self._notify("result", {"table": table, "status": status})
        return True

    # -- standings ---------------------------------------------------------------------------

    def _count(self, row: dict[str, Any], kind: str, sign: int = 1) -> None:
        """One confirmed result into the standings (or the bracket, in a playoff round)."""
        players, winner = row["players"], row["players"][row["winner"]]
        if kind == "playoff":
            pair = self.playoff_games.setdefault(frozenset(players), Counter())
            pair[winner] += sign
        else:
            sides = [self._side(p) or () for p in players]
            losers = tuple(name for n, side in enumerate(sides) if n != row["winner"] for name in side)
            self.standings.add(Outcome(sides[row["winner"]], losers, row["kind"], row["margin"], len(sides)), sign)
        # which table's message changed them (the pages refetch; a benchmark times results by it)
        self._notify("standings", {"table": row["table_id"], "id": row["msg_id"]} if "table_id" in row else {})

    def _load(self, row: dict[str, Any], kind: str) -> None:
        """A stored confirmed result into the standings at start; one they cannot use (written
        by an older director, or by hand) is left out with a log line: the event is served."""
        problem = _unusable(row, self._side)
        if problem is not None:
            log.error("result %s (table %s) left out of the standings: %s; correct it at /admin", row["id"],
                      row["table_id"], problem)
            self.left_out.add(row["id"])
            return
        self._count(row, kind)

    def _side(self, name: str) -> tuple[str, ...] | None:
        """The entrants a result's side stands for: itself when registered (a partnership
        entered as a team, "Ann & Cy"), else each partner of "Ann & Cy" when both entered one
        by one; None when neither."""
        if name in self.standings.lines:
            return (name,)
        partners = tuple(part.strip() for part in name.split(" & "))
        if len(partners) == 2 and len(set(partners)) == 2 and all(p in self.standings.lines for p in partners):
            return partners
        return None

    def register(self, name: str) -> bool:
        with self.lock:
            added = self.db.add_player(name)
            self.standings.register(name)
            self._waited_for(name)
            self.db.sync()  # the admin's change is durable before the page says so
        self._notify("standings", {})
        return added

    def withdraw(self, name: str, withdrawn: bool = True) -> None:
        """``name`` withdraws (or plays again): a withdrawn player keeps the games played, which
        count for both sides as ever, is seated in no further round and is passed over for the
        cut (the next player takes the place). ConfigError for a name not registered."""
        with self.lock:
            if not self.db.withdraw(name, withdrawn):
                raise ConfigError(f"{name[:80]!r} is not registered")
            self.db.sync()
        self._notify("standings", {})

    def rename(self, old: str, new: str) -> None:
        """``old`` is called ``new`` from now on, in the standings, the seats and every result
        (a misspelt name at registration). ConfigError if ``old`` is not registered or ``new``
        is."""
        with self.lock:
            players = set(self.db.players())
            if old not in players:
                raise ConfigError(f"{old[:80]!r} is not registered")
            if new in players:
                raise ConfigError(f"{new[:80]!r} is registered already: a rename does not merge two players")
            self.db.rename_player(old, new)
            self.db.sync()
            self._recount()
        self._notify("standings", {})

    def _recount(self) -> None:
        """The standings and the playoff games again from the database (after a rename)."""
        self.standings, self.playoff_games, self.left_out = Standings(self.db.players()), {}, set()
        kinds = self.db.round_kinds()
        for row in self.db.results("status = 'confirmed'"):
            self._load(row, kinds.get(row["round"], "qualifying"))

    def _waited_for(self, name: str) -> None:
        """Take the results that waited for ``name`` to be registered, in the order they came;
        those that still name someone unknown wait on."""
        for table, msg_id, topic_name, payload in self.db.waiting(json.dumps(name)[1:-1].encode()):
            try:
                self._on_result(parse(self.event, topic_name, payload))
            except BadMessage as exc:
                if exc.reason == "unknown_player":
                    continue
                self.refused[exc.reason] += 1
                log.warning("refused: %s", exc)
            else:
                self.accepted["result"] += 1
            self.db.done_waiting(table, msg_id)

    def correct(self, result_id: int, scores: list[int], winner: int, kind: str, margin: int, *, by: str,
                why: str) -> None:
        """The director's ruling on a result: it is confirmed with these figures (audited).
        Figures the table's own result could not carry are refused (ConfigError naming the
        field; :class:`NoSuchResult` for an unknown id) and nothing changes."""
        with self.lock:
            row = self.db.result(result_id)
            if row is None:
                raise NoSuchResult(f"result {result_id} does not exist")
            players = row["players"]
            if len(scores) != len(players):
                raise ConfigError(f"scores: {len(scores)} given; result {result_id} has {len(players)} sides {players}")
            problem = result_problem(scores, winner, kind, margin)
            if problem is None and scores[winner] != self.game_length:
                problem = f"a game won with {scores[winner]} in an event of games to {self.game_length}"
            if problem is not None:
                raise ConfigError(f"result {result_id}: {problem}")
            if any(self._side(p) is None for p in players):
                raise ConfigError(f"result {result_id}: {players} are not all registered; register them first")
            round_kind = self.db.round_kinds().get(row["round"], "qualifying")
            if row["status"] == "confirmed" and row["id"] not in self.left_out:
                self._count(row, round_kind, -1)
            self.left_out.discard(row["id"])
            self.db.update_result(result_id, {"scores": scores, "winner": winner, "kind": kind, "margin": margin,
                                              "status": "confirmed"}, by=by, why=why)
            self.db.sync()
            self._count(self.db.result(result_id) or {}, round_kind)

    def seat_round(self, method: str, rng: random.Random, games: int | None = None) -> tuple[int, dict[str, list[str]]]:
        """Seat the next round (``random``, ``swiss`` or ``bracket``: the playoff matches waiting
        for their players); its number and who sits where. ``games``: the games of each
        qualifying match (default: the event's ``round_games``); a playoff match has its
        bracket's best-of."""
        tables = self.db.tables()
        if method in ("random", "swiss") and self.db.get("seeds"):
            raise ConfigError("qualifying is closed (the playoffs' seeds are recorded): seat the bracket")
        if method == "bracket":
            self.close_qualifying()
            waiting = [[m["a"], m["b"]] for r in self.bracket()["rounds"] for m in r
                       if m["a"] and m["b"] and m["winner"] is None]
            if not waiting:
                raise ConfigError("no playoff match is waiting for its players")
            seating, kind = seat_pairs(waiting, tables), "playoff"
        elif method == "random":
            seating, kind = seat_random(self.db.playing(), tables, rng), "qualifying"
        elif method == "swiss":
            met = {frozenset(r["players"]) for r in self.db.results()}
            seating, kind = seat_swiss([x["name"] for x in self.ranked() if not x["withdrawn"]], tables, met), \
                "qualifying"
        else:
            raise ConfigError(f"method {method!r} is not valid: one of {', '.join(METHODS)}")
        if games is not None and not (kind == "qualifying" and 1 <= games <= 15):
            raise ConfigError(f"games {games!r} is not valid: 1-15 games a qualifying match (a playoff match has its"
                              " bracket's best-of)")
        with self.lock:
            number = self.db.add_round(kind, seating, games)
            self.db.sync()
        self._notify("seating", {"round": number})
        return number, seating

    def seating(self) -> dict[str, Any]:
        """The round seated last, for the room: its number, kind and games a match, and at each
        table its players in seat order with their seat colours (the board's tracks)."""
        with self.lock:
            number, kind = self.db.current_round()
            seats = self.db.seating(number) if number else {}
            games = self.db.round_games(number) or int(self.db.get("round_games", "1")) if number else 0
        order = {t: n for n, t in enumerate(self.db.tables())}
        best_of = {frozenset((m["a"], m["b"])): m["best_of"] for r in self.bracket()["rounds"] for m in r} \
            if kind == "playoff" else {}
        tables = [{"table": t, "players": names, "colours": [SEAT_COLOURS[n % len(SEAT_COLOURS)] for n in range(len(names))],
                   "games": best_of.get(frozenset(names), int(self.db.get("best_of", "3"))) if kind == "playoff" else games}
                  for t, names in sorted(seats.items(), key=lambda item: order.get(item[0], len(order)))]
        return {"round": number, "kind": kind, "games": games if kind == "qualifying" else None, "tables": tables}

    def ranked(self) -> list[dict[str, Any]]:
        with self.lock:
            out = self.db.withdrawn()
            return [{"rank": n, **line.as_dict(), "withdrawn": line.name in out}
                    for n, line in enumerate(self.standings.ranked(), 1)]

    def close_qualifying(self) -> list[str]:
        """Take the cut: the qualifiers, best first, as the standings have them now, recorded
        (and synced) once; from then on the bracket is seeded from them whatever happens to the
        qualifying standings (a correction, a late registration), and no qualifying round is
        seated. Seating the bracket the first time closes qualifying. The seeds."""
        with self.lock:
            recorded = self.db.get("seeds")
            if recorded:
                return list(json.loads(recorded))
            ranked, out = [line.name for line in self.standings.ranked()], self.db.withdrawn()
            seeds = [name for name in ranked if name not in out][:cut(len(ranked))]  # a withdrawn player is passed over
            if len(seeds) < 2:
                raise ConfigError(f"{len(ranked)} entrants: the playoffs need at least 5 (a cut of 2)")
            self.db.put("seeds", json.dumps(seeds))
            self.db.put("qualifying_closed", str(time.time()))
            self.db.sync()
        log.info("qualifying closed: the playoffs' seeds are %s", ", ".join(seeds))
        self._notify("standings", {})
        return seeds

    def bracket(self) -> dict[str, Any]:
        """The playoff bracket: from the recorded seeds once qualifying is closed, until then
        from the standings as they are (a preview that moves with them)."""
        with self.lock:
            recorded = self.db.get("seeds")
            if recorded:
                seeds = list(json.loads(recorded))
            else:
                ranked, out = [line.name for line in self.standings.ranked()], self.db.withdrawn()
                seeds = [name for name in ranked if name not in out][:cut(len(ranked))]
            rounds = bracket(seeds, self.playoff_games, best_of=int(self.db.get("best_of", "3")),
                             final_best_of=int(self.db.get("final_best_of", "5")))
        return {"qualifiers": len(seeds), "closed": bool(recorded), "seeds": seeds,
                "rounds": [[m.as_dict() for m in r] for r in rounds]}

    def player(self, name: str) -> dict[str, Any] | None:
        with self.lock:
            line = self.standings.lines.get(name)
            if line is None:
                return None
            rank = next(n for n, x in enumerate(self.standings.ranked(), 1) if x.name == name)
        games = [r for r in self.db.results() if name in r["players"]]
        return {"rank": rank, **line.as_dict(), "results": games}

    def health(self) -> dict[str, Any]:
        return {"accepted": dict(self.accepted), "refused": dict(self.refused), "session": self.db.get("session"),
                "drops": self.drops}

    # -- listeners (the pages) and the broker ---------------------------------------------------

    def _notify(self, what: str, data: dict[str, Any]) -> None:
        for listener in self.listeners:
            listener(what, data)

    def connect(self, broker: Broker, *, group_seconds: float = 0.005) -> None:
        """Follow the event on ``broker``: a persistent session, so nothing sent while the
        director or the broker was away is missed (the broker keeps it, QoS 1). Messages are
        made durable in groups gathered over ``group_seconds``, and acknowledged after."""
        client = new_client(broker, f"cribpi-director-{self.event}", max_delay=2, clean_session=False)
        client.manual_ack_set(True)
        self.group_commits(group_seconds)
        client.on_connect = self._on_connect
        client.on_message = self._on_message
        client.on_subscribe = self._on_subscribe
        client.on_disconnect = self._on_disconnect
        client.connect_async(broker.host, broker.port, keepalive=15)
        client.loop_start()
        self.client = client

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("broker refused the director: %s", reason)
            return
        self.session(kept=flags.session_present)
        client.subscribe(subscription(self.event), qos=1)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not self.stopping:
            self.drops += 1
            log.warning("lost the broker: %s", reason)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, codes: Any, props: Any) -> None:
        """The broker holds the subscription: from now on it keeps what the tables send, so the
        session is announced (retained) for the tables to replay what came before."""
        client.publish(director_topic(self.event), director_body(self.session()), qos=1, retain=True)
        self.subscribed.set()

    def session(self, *, kept: bool = True) -> str:
        """The session the tables replay to. A new one when the database has none (a new
        database) or the broker kept no session for the director (its first connection, or a
        broker that lost its store): what the tables sent before may be missing either way."""
        with self.lock:
            session = self.db.get("session")
            if not kept or not session:
                session = secrets.token_hex(16)
                self.db.put("session", session)
                self.db.sync()
                log.info("director's session %s: the tables replay their outboxes to it", session)
        return session

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        _, done = self._take(message.topic, bytes(message.payload), retained=bool(message.retain))
        with self.acks:  # acknowledged now only if nothing it wrote, or before it, waits for the disk
            if self.unacked or self.syncing or self.db.unsynced():
                self.unacked.append((message.mid, message.qos))
                if done is not None:
                    self.undone.append(done)
                self.flush_wanted.set()
            else:
                client.ack(message.mid, message.qos)
                if done is not None:
                    self._tell([done])

    def _tell(self, done: list[tuple[str, int]]) -> None:
        """Tell each table which of its messages the director has, durably (end to end: a
        table sends again, after a reconnect of either side, whatever it was not told of)."""
        if self.client is None or not done:
            return
        session = self.db.get("session")
        if not session:
            return
        ids: dict[str, list[int]] = {}
        for table, number in done:
            ids.setdefault(table, []).append(number)
        for table, numbers in ids.items():
            for start in range(0, len(numbers), 500):
                self.client.publish(acks_topic(self.event, table), acks_body(session, numbers[start:start + 500]),
                                    qos=1)
        self.told += len(done)

    def group_commits(self, group_seconds: float = 0.005) -> None:
        """From now on, commit without waiting for the disk and make the commits durable in
        groups from a flusher thread (``connect`` does this)."""
        self.db.defer_sync()
        self.flusher = threading.Thread(target=self._flush_loop, args=(group_seconds,), daemon=True,
                                        name="cribpi-director-flush")
        self.flusher.start()

    def _flush_loop(self, group_seconds: float) -> None:
        while not self.stopping:
            if self.flush_wanted.wait(0.5):
                time.sleep(group_seconds)  # gather what else comes in the meantime
                self.flush_wanted.clear()
                if not self.stopping:  # close() flushes last itself
                    self.flush()
                    self.db.checkpoint()

    def flush(self) -> None:
        """Make the commits so far durable, then acknowledge their messages (in order). The
        fsync holds no lock the message thread needs: messages meanwhile wait for the next."""
        with self.acks:
            waiting, self.unacked = self.unacked, []
            done, self.undone = self.undone, []
            self.syncing = bool(waiting)
        self.db.sync()
        with self.acks:
            if self.client is not None:
                for mid, qos in waiting:
                    self.client.ack(mid, qos)
                self._tell(done)
            self.syncing = False

    def close(self) -> None:
        self.stopping = True
        if self.flusher is not None:
            self.flusher.join(2)
        self.flush()
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()


def _ackable(message: Message | None) -> tuple[str, int] | None:
    """The (table, id) of a table's event or result, which the director tells it it has."""
    if message is None or message.kind not in ("events", "result"):
        return None
    return message.table, int(message.body["id"])


def _unusable(row: dict[str, Any], side: Callable[[str], tuple[str, ...] | None]) -> str | None:
    """Why the standings cannot count a stored result (``side``: the entrants a side stands
    for), or None."""
    players, scores, winner = row["players"], row["scores"], row["winner"]
    if type(players) is not list or type(scores) is not list or len(players) != len(scores) or len(players) < 2 \
            or not all(type(p) is str for p in players):
        return f"players {str(players)[:80]} and scores {str(scores)[:80]} do not pair up"
    if type(winner) is not int or not 0 <= winner < len(players):
        return f"winner {winner!r} is not a side"
    if row["kind"] not in ACC_POINTS:
        return f"kind {str(row['kind'])[:40]!r} is not one of {', '.join(ACC_POINTS)}"
    if type(row["margin"]) is not int or row["margin"] < 0:
        return f"margin {row['margin']!r} is not a whole number of points"
    if not all(side(p) for p in players):
        return f"{players} are not all registered"
    return None
