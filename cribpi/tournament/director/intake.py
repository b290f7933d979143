"""The director's messages in: each table's board, events and results, checked and refused by
reason, a result counted once, kept uncounted for the admin when no round is seated (unless the
event is open play), when it is not the seats' or when it is one too many."""

from __future__ import annotations

import heapq
import json
import logging
import sqlite3
from typing import Any

from cribpi.tournament.director.base import WAITING_PER_TABLE
from cribpi.tournament.director.counting import Counting
from cribpi.tournament.director.limits import SeenIds
from cribpi.tournament.messages import BadMessage, Message, parse, topic

log = logging.getLogger("cribpi.tournament.director")  # one logger for the director, whichever part logs
# A table's ids are its outbox's: microseconds from the outbox's making, one more a row, so none
# is ahead of its clock. One more than a day ahead of the clock is made up (a table's clock set a
# day ahead would have its boards refused until the clock caught up). The clock is the director's,
# or the room's when that is further on: the furthest on that at least ``ROOM_AGREE`` tables claim
# to be (each table's furthest id or clock, ``at``, refused or not). A director whose clock is behind
# (a Pi has no RTC, and a hall may have no network) would otherwise refuse every table; and since
# the tables' clocks may be as far apart, the room's is not their median but the second furthest
# on: one table's password moves neither.
AHEAD_MICROSECONDS = 86_400 * 1_000_000
ROOM_AGREE = 2  # tables that must claim to be at least that far on for it to be the room's clock
BEHIND_MOST = 3  # boards in a row refused as out of order, after which the table's order is forgotten
# A result's status: counted (confirmed) or waiting for the table's confirmation (disputed); else
# kept, uncounted, for the admin to rule on (KEPT), or rejected by the admin. A table can move a
# result only from disputed to confirmed; a kept one only the admin counts.
COUNTABLE = ("confirmed", "disputed")
KEPT = ("no_seating", "not_seated", "too_many")


class Intake(Counting):
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
                if message.table in self.live and not self.rates.within(message.table, message.kind):
                    raise BadMessage("rate", f"{message.table}/{message.kind}: more than {self.rates.said(message.kind)}",
                                     final=False)  # not told: the table sends it again after a reconnect
                if message.kind == "state":
                    self._on_state(message, retained=retained)
                else:
                    getattr(self, f"_on_{message.kind}")(message)
        except BadMessage as exc:
            self.refused[exc.reason] += 1
            self.quiet.warning(exc.reason, "refused: %s", exc)
            return False, (_ackable(message) if exc.final else None)
        except Exception as exc:  # a bug of the director's, never the loop's end: counted, logged, dropped
            self.refused["error"] += 1
            self.quiet.error("error", "a message on %s (%d bytes) could not be taken: %s: %s", str(topic)[:120],
                             len(payload), type(exc).__name__, str(exc)[:200], exc_info=exc)
            return False, None  # not told: a table sends it again after a reconnect, to a director mended
        self.accepted[message.kind] += 1
        return True, _ackable(message)

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
            self.behind.pop(message.table, None)
        self._notify("table", live)

    def _not_ahead(self, table: str, kind: str, number: int, at: float, *, final: bool = True) -> None:
        """Refuse an id no table's outbox can have made yet (see ``AHEAD_MICROSECONDS``): one more
        than a day ahead of the director's clock and of the room's. The table's claim (its id and
        its clock) counts towards the room's first, refused or not: with the director's clock
        behind, every table's would be."""
        claim = max(number, int(at * 1_000_000))
        if claim > self.claims.get(table, -1):
            self.claims[table] = claim
            self.claimed = True
        own = int(self.clock() * 1_000_000)
        if number <= own + AHEAD_MICROSECONDS:
            self.future.pop(table, None)
            return
        room = self._room_clock(number)
        if room is not None and number <= room + AHEAD_MICROSECONDS:
            self.future.pop(table, None)
            if not self.behind_room:
                self.behind_room = True
                log.warning("%s", self._behind_room(own, room))
            return
        why = self._ahead(table, number, own, room)
        if table not in self.future:  # once a table, until one of its ids is taken again (a line a second at most)
            self.quiet.warning(f"ahead:{table}", "%s", why)
        self.future[table] = why
        most = max(own, room or 0) + AHEAD_MICROSECONDS
        raise BadMessage("from_the_future", f"{table}/{kind} id {number} is ahead of any table's ({most})",
                         final=final)

    def _room_clock(self, number: int | None = None) -> int | None:
        """The room's clock (µs): the furthest on that ``ROOM_AGREE`` tables claim, None with fewer
        heard from. Claims only grow, and so does it: it is worked out again only when the one
        known would refuse ``number`` (or, for None, always)."""
        if len(self.claims) < ROOM_AGREE:
            return None
        known = self.room_clock
        if self.claimed and (known is None or number is None or number > known + AHEAD_MICROSECONDS):
            self.room_clock, self.claimed = heapq.nlargest(ROOM_AGREE, self.claims.values())[-1], False
        return self.room_clock

    def _behind_room(self, own: int, room: int) -> str:
        return (f"the tables' clocks are {_days(room - own)} ahead of this machine's clock (at least {ROOM_AGREE}"
                f" of the {len(self.claims)} tables heard from say so): is the director's clock right? Their ids"
                " are measured against their clocks until it is")

    def _ahead(self, table: str, number: int, own: int, room: int | None) -> str:
        """Why ``table``'s id ``number`` is refused as from_the_future, in the director's words (a
        table refused once ``ROOM_AGREE`` tables are heard from is the one furthest on)."""
        said = f"{table}'s ids are {_days(number - own)} ahead of this machine's clock"
        if room is None:
            return (f"{said}: is the director's clock right? (its messages are refused until it is, or until"
                    f" {ROOM_AGREE} tables are heard from and the room's clock is theirs)")
        if room > own + AHEAD_MICROSECONDS:
            said += f" and {_days(number - room)} ahead of every other table's"
        else:
            said += " and of every other table's"
        return f"{said}: is {table}'s clock right? (its messages are refused until its ids are not so far ahead)"

    def warnings(self) -> list[str]:
        """The director's clock behind the room's, and each table whose ids are refused as
        from_the_future now (each logged once, when it starts)."""
        with self.lock:
            found, own = [], int(self.clock() * 1_000_000)
            room = self._room_clock()
            if room is not None and room > own + AHEAD_MICROSECONDS:
                found.append(self._behind_room(own, room))
            else:
                self.behind_room = False  # logged again if it comes back
            return found + [self.future[t] for t in sorted(self.future)]

    def _forget_order(self, table: str) -> None:
        """Forget ``table``'s order (the bar for its boards and events), as its reconnect does:
        its boards kept coming under the bar, which a made-up id ahead could have raised."""
        self.quiet.warning("forgotten", "%s: %d boards in a row older than the one shown; its order is forgotten",
                           table, BEHIND_MOST)  # a forger can make it happen every third board: a line a second
        for ordering in (self.since, self.shown, self.newest, self.behind):
            ordering.pop(table, None)

    def _on_state(self, message: Message, *, retained: bool = False) -> None:
        """A table's board. One the broker kept (``retained``: sent on subscribing, the board
        as it was last) is shown but does not say the table is online; a live one does."""
        live, number = self._table(message), message.body.get("id")
        if number is not None:
            self._order_board(message.table, number, message.body["at"])
        live["state"] = message.body
        if not retained:
            live["online"] = True
        self._notify("table", live)

    def _order_board(self, table: str, number: int, at: float) -> None:
        """Boards are ordered by the table's own ids, never by its clock (``at``, shown only): a
        state's ``id`` is the newest message id the table had handed to the broker when it
        sent it, so its events up to that id come before it. An older board than the one shown
        is refused, but a board's id raises the bar for the next ones no higher than the newest
        event id the director has had from the table. The table's password can make up both
        ids: one past any outbox's is refused (``from_the_future``), and one merely ahead holds
        the table's real boards back ``BEHIND_MOST`` boards at most."""
        self._not_ahead(table, "state", number, at)
        shown, floor = self.shown.setdefault(table, set()), self.since.get(table, 0)
        if number < floor and number in shown:  # delivered again: its ack was lost in a broker restart
            raise BadMessage("replay", f"{table}/state {number} shown before")
        if number < floor:
            self.behind[table] += 1
            if self.behind[table] < BEHIND_MOST:
                raise BadMessage("out_of_order", f"{table}/state {number} older than the one shown ({floor})")
            self._forget_order(table)
            shown, floor = self.shown.setdefault(table, set()), 0
        self.behind.pop(table, None)
        self.since[table] = max(floor, min(number, self.newest.get(table, 0)))
        if len(shown) > 10_000:
            shown.clear()
        shown.add(number)

    def _on_events(self, message: Message) -> None:
        self._table(message)
        table, msg_id = message.table, message.body["id"]
        self._not_ahead(table, "events", msg_id, message.body["at"])
        seen = self.seen.get(table)
        if seen is None:
            seen = self.seen[table] = SeenIds()
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
        self._not_ahead(table, "result", body["id"], body["at"], final=False)  # sent again: kept until the clock is past it
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
        if not seating and not self.open_play:  # no seating expects it: the table's word alone counts nothing
            kept = self._keep(table, body, "no_seating", number)
            raise BadMessage("no_seating", f"{table}/result: {players}: no round seats tables yet and the event is"
                             " not open play" + ("; kept for the admin to rule on" if kept else ""))
        if seating and (seated is None or sorted(seated) != sorted(entrants)):
            kept = self._keep_unseated(table, body, entrants, number)
            raise BadMessage("not_seated", f"{table}/result: {players} are not the players seated there"
                             + ("; kept for the admin to rule on" if kept else ""))
        if kind == "playoff" and len(entrants) != len(players):
            raise BadMessage("not_seated", f"{table}/result: {players}: a playoff match is between entrants")
        known = self.db.result_for_game(table, body["game"], body["game_number"])
        if known is not None:
            if known["status"] not in COUNTABLE:  # kept for the admin, or rejected: the table's word changes nothing
                raise BadMessage(known["status"], f"{table}/result for game {body['game']}.{body['game_number']} is"
                                 f" {known['status']} already (result {known['id']}): only the admin counts it")
            if known["status"] == "confirmed" or body["status"] == "disputed" or known["msg_id"] >= body["id"]:
                raise BadMessage("replay", f"{table}/result for game {body['game']}.{body['game_number']} known")
            if known["players"] != players:  # a confirmation is of the game disputed, not another seating's
                raise BadMessage("not_seated", f"{table}/result for game {body['game']}.{body['game_number']}: {players}"
                                 f" confirm a game disputed by {known['players']}")
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
        held = self.db.results(f"table_id = ? AND status IN ({', '.join('?' * len(KEPT))})", (table, *KEPT))
        if len(held) >= WAITING_PER_TABLE or self.db.result_for_game(table, body["game"], body["game_number"]):
            return False
        try:
            self.db.insert_result(table, {**body, "status": status}, number)
        except sqlite3.IntegrityError:
            return False
        self._notify("result", {"table": table, "status": status})
        return True

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


def _days(microseconds: int) -> str:
    days = microseconds / AHEAD_MICROSECONDS
    return f"{days:,.0f} days" if days >= 10 else f"{days:.1f} days"


def _ackable(message: Message | None) -> tuple[str, int] | None:
    """The (table, id) of a table's event or result, which the director tells it it has."""
    if message is None or message.kind not in ("events", "result"):
        return None
    return message.table, int(message.body["id"])
