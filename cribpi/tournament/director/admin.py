"""The director's admin actions: register, withdraw or rename a player, correct a result, count
or reject a result kept for the admin, seat a round."""

from __future__ import annotations

import random
from typing import Any

from cribpi.exc import ConfigError
from cribpi.tournament.director.base import NoSuchResult
from cribpi.tournament.director.intake import KEPT, Intake
from cribpi.tournament.messages import BadMessage, parse, result_problem
from cribpi.tournament.director.pairing import METHODS, seat_pairs, seat_random, seat_swiss


class Admin(Intake):
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

    def kept(self) -> list[dict[str, Any]]:
        """The results kept uncounted for the admin to rule on, oldest first, each with its
        ``reason`` in words: those kept in the database (``status``: no_seating, not_seated,
        too_many; counted or rejected by id), then those waiting for their players to be
        registered (``status`` waiting, no id: registering them checks them again)."""
        marks = ", ".join("?" * len(KEPT))
        rows = [{**row, "reason": _reason(row)} for row in self.db.results(f"status IN ({marks})", KEPT)]
        for table, msg_id, topic_name, payload in self.db.waiting():
            try:
                body = parse(self.event, topic_name, payload).body
            except BadMessage:  # kept by an older director with other rules: it is refused when checked again
                continue
            unknown = [p for p in body["players"] if self._side(p) is None]
            rows.append({"id": None, "table_id": table, "msg_id": msg_id, "round": None, "status": "waiting",
                         **{k: body[k] for k in ("game", "game_number", "players", "scores", "winner", "kind",
                                                 "margin")},
                         "reason": f"{', '.join(unknown) or 'a player'} not registered: registering them checks it"
                                   " again"})
        return rows

    def count(self, result_id: int, *, by: str, why: str) -> None:
        """Count a kept (or rejected) result with the figures its table sent: a correction with
        them (audited). ConfigError for a result that counts already or waits for its table."""
        with self.lock:
            row = self._ruled(result_id, (*KEPT, "rejected"), "count")
            self.correct(result_id, row["scores"], row["winner"], row["kind"], row["margin"], by=by,
                         why=why or f"counted ({row['status']})")

    def reject(self, result_id: int, *, by: str, why: str) -> None:
        """Reject a kept (or disputed) result: it never counts, and the table's sending it again
        changes nothing. Written to the audit trail, as a correction is; a correction can still
        count it. ConfigError for a result that counts (correct it instead)."""
        with self.lock:
            row = self._ruled(result_id, (*KEPT, "disputed"), "reject")
            self.db.update_result(result_id, {"status": "rejected"}, by=by, why=why or f"rejected ({row['status']})")
            self.db.sync()
        self._notify("result", {"table": row["table_id"], "status": "rejected"})

    def _ruled(self, result_id: int, statuses: tuple[str, ...], action: str) -> dict[str, Any]:
        row = self.db.result(result_id)
        if row is None:
            raise NoSuchResult(f"result {result_id} does not exist")
        if row["status"] not in statuses:
            raise ConfigError(f"result {result_id} is {row['status']}: only a result that is"
                              f" {', '.join(statuses[:-1])} or {statuses[-1]} can be {action}ed here"
                              + ("; a correction changes its figures" if row["status"] == "confirmed" else ""))
        return row

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
            # who has met: the games that count or wait for their table's confirmation, never a
            # result kept for the admin or rejected (a table's forgery would steer the pairings)
            met = {frozenset(r["players"]) for r in self.db.results("status IN ('confirmed', 'disputed')")}
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


def _reason(row: dict[str, Any]) -> str:
    """Why a kept result is not counted, in words."""
    players, table, number = " v ".join(row["players"]), row["table_id"], row["round"]
    if row["status"] == "no_seating":
        return (f"no round was seated when {table} sent it, and the event is not open play: a table's result counts"
                " only where a seating expects it")
    if row["status"] == "too_many":
        return f"one game more than round {number}'s match of {players} at {table} has"
    return f"{players} were not the players seated at {table}" + (f" (kept in round {number})" if number else "")
