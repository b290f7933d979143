"""The director's standings: confirmed results counted into them (or into the playoff games),
the ranking, a player's line, the bracket from the recorded cut, the seating for the room."""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from cribpi.exc import ConfigError
from cribpi.tournament.director.base import SEAT_COLOURS, Base
from cribpi.tournament.director.eventdb import EventDB
from cribpi.tournament.director.standings import (
    ACC_POINTS,
    Outcome,
    Standings,
    bracket,
    cut,
)

log = logging.getLogger("cribpi.tournament.director")  # one logger for the director, whichever part logs


class Counting(Base):
    def __init__(self, db: EventDB) -> None:
        super().__init__(db)
        # Open play (``director init --open``: tables seat themselves, a club night): a result counts
        # with no round seated, on the table's word. Otherwise it is kept for the admin until one is.
        self.open_play = db.get("open_play") == "1"
        kinds = db.round_kinds()
        for row in db.results("status = 'confirmed'"):
            self._load(row, kinds.get(row["round"], "qualifying"))

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

    def _recount(self) -> None:
        """The standings and the playoff games again from the database (after a rename)."""
        self.standings, self.playoff_games, self.left_out = Standings(self.db.players()), {}, set()
        kinds = self.db.round_kinds()
        for row in self.db.results("status = 'confirmed'"):
            self._load(row, kinds.get(row["round"], "qualifying"))

    def ranked(self) -> list[dict[str, Any]]:
        """The standings, best first, by the ACC's tie-breakers (:meth:`Standings.ranking`: game
        points, games won, spread, plus points, head-to-head); players still level share a rank
        (1, 2, 2, 4), listed by name. A player who has played no game yet (registered late) has
        no rank (None) and is listed after every player who has."""
        with self.lock:
            out, rows, rank, level = self.db.withdrawn(), [], 0, None
            for n, (line, key) in enumerate(self.standings.ranking(), 1):
                if key != level:
                    rank, level = n, key
                rows.append({"rank": rank, **line.as_dict(), "withdrawn": line.name in out})
            rows += [{"rank": None, **line.as_dict(), "withdrawn": line.name in out}
                     for line in self.standings.ranked() if not line.games]
            return rows

    def player(self, name: str) -> dict[str, Any] | None:
        with self.lock:
            line = self.standings.lines.get(name)
            if line is None:
                return None
            rank = next(x["rank"] for x in self.ranked() if x["name"] == name)
        games = [r for r in self.db.results() if any(name in (self._side(side) or (side,)) for side in r["players"])]
        return {"rank": rank, **line.as_dict(), "results": games}

    def bracket(self) -> dict[str, Any]:
        """The playoff bracket: from the recorded seeds once qualifying is closed, until then
        from the standings as they are (a preview that moves with them)."""
        with self.lock:
            recorded = self.db.get("seeds")
            tied: list[str] = []
            if recorded:
                seeds = list(json.loads(recorded))
            else:
                seeds, tied = self._cut()
            rounds = bracket(seeds, self.playoff_games, best_of=int(self.db.get("best_of", "3")),
                             final_best_of=int(self.db.get("final_best_of", "5")))
        return {"qualifiers": len(seeds), "closed": bool(recorded), "seeds": seeds, "tie_at_cut": tied,
                "rounds": [[m.as_dict() for m in r] for r in rounds]}

    def _cut(self) -> tuple[list[str], list[str]]:
        """(the qualifiers as the standings order them, the players level across the cut): the
        top quarter of the entrants, in the leaderboard's order with a withdrawn player passed
        over; the second list names every player still level (after every tie-breaker the
        standings have, head-to-head included) with the last qualifier when one of them falls
        below the cut, else it is empty. A player who has played no game is not in it."""
        out = self.db.withdrawn()
        lines = [(line.name, key) for line, key in self.standings.ranking() if line.name not in out]  # played, in
        size = cut(len(self.standings.lines))
        seeds = [name for name, _ in lines[:size]]
        if 0 < size < len(lines) and lines[size - 1][1] == lines[size][1]:
            return seeds, [name for name, key in lines if key == lines[size - 1][1]]
        return seeds, []

    def close_qualifying(self, order: list[str] | None = None) -> list[str]:
        """Take the cut: the qualifiers, best first, as the standings have them now, recorded
        (and synced) once; from then on the bracket is seeded from them whatever happens to the
        qualifying standings (a correction, a late registration), and no qualifying round is
        seated. Seating the bracket the first time closes qualifying. The seeds.

        Players still level across the cut (game points, games won, spread, plus points, and
        head-to-head did not separate them) are not split by name: a ConfigError names them;
        the director has them play the ACC's last tie-breaker, a one-game playoff (cut for
        first deal), and gives ``order``, the tied players best first."""
        with self.lock:
            recorded = self.db.get("seeds")
            if recorded:
                return list(json.loads(recorded))
            seeds, tied = self._cut()
            if tied and order is None:
                places = sum(1 for name in seeds if name in tied)
                raise ConfigError(f"a tie at the cut: {', '.join(tied)} are level on game points, games won, spread and"
                                  f" plus points, and head-to-head does not separate them, for {places}"
                                  f" place{'s' * (places != 1)}; a one-game playoff (cut for first deal) decides:"
                                  " give their order, best first")
            if tied and order is not None:
                if sorted(order) != sorted(tied):
                    raise ConfigError(f"order {', '.join(map(str, order))[:200]}: the tied players are"
                                      f" {', '.join(tied)}, each once")
                above = [name for name in seeds if name not in tied]
                seeds = above + order[:len(seeds) - len(above)]
            if len(seeds) < 2:
                raise ConfigError(f"{len(self.standings.lines)} entrants: the playoffs need at least 5 (a cut of 2)")
            self.db.put("seeds", json.dumps(seeds))
            self.db.put("qualifying_closed", str(time.time()))
            self.db.sync()
        log.info("qualifying closed: the playoffs' seeds are %s", ", ".join(seeds))
        self._notify("standings", {})
        return seeds

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
        tables = [{"table": t, **({"room": room} if (room := self.reach.room_of(t)) else {}),
                   "players": names, "colours": seat_colours(len(names)),
                   "games": best_of.get(frozenset(names), int(self.db.get("best_of", "3"))) if kind == "playoff" else games}
                  for t, names in sorted(seats.items(), key=lambda item: order.get(item[0], len(order)))]
        return {"round": number, "kind": kind, "games": games if kind == "qualifying" else None, "tables": tables}


def seat_colours(seats: int) -> list[str]:
    """The colour of the track each seat pegs on: a four-handed table plays as partners (seats 1
    and 3 against 2 and 4), so partners share their side's track; otherwise a track a seat."""
    sides = 2 if seats == 4 else seats
    return [SEAT_COLOURS[n % sides % len(SEAT_COLOURS)] for n in range(seats)]


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

