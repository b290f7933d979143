"""The director's admin actions: register, withdraw or rename a player, correct a result,
seat a round."""

from __future__ import annotations

import random

from cribpi.exc import ConfigError
from cribpi.tournament.director.base import NoSuchResult
from cribpi.tournament.director.intake import Intake
from cribpi.tournament.messages import result_problem
from cribpi.tournament.pairing import METHODS, seat_pairs, seat_random, seat_swiss


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
