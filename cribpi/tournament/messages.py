"""The topics and messages of a tournament room (documented in ``docs/tournament.md``).

Under ``cribpi/<event>/tables/<table>/``: ``state`` (retained JSON: the board now),
``events`` (one message per game event, with the table's monotonic ``id``), ``result`` (QoS 1:
a finished game, confirmed or disputed) and ``status`` (``online``, or the last will
``offline``; both retained). Building a message lives here beside checking one: the director
treats every message as untrusted, and :func:`parse` is the only way one gets in.

The director says who it is on ``cribpi/<event>/director`` (retained): ``{"session": ...}``,
the session the tables replay their outboxes to (see :mod:`cribpi.tournament.table.publisher`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cribpi.exc import CribpiError
from cribpi.nesting import TooDeep, loads_json
from cribpi.game import Pegged, Phase, State, apply
from cribpi.game.moves import latest_score
from cribpi.rules import ACC, classify_result

__all__ = ["MAX_PAYLOAD", "NAME", "KINDS", "BadMessage", "Message", "topic", "subscription", "parse",
           "state_body", "result_body", "last_score", "last_score_now", "director_topic", "director_body", "director_session",
           "GAME_LENGTHS", "result_problem", "acks_topic", "acks_body", "parse_acks", "MAX_DEPTH", "loads"]

MAX_PAYLOAD = 8192  # bytes; a table's largest message (a 4-player state) is well under 1 KiB
# Brackets open at once: a table's deepest message (a board's last score, an event's cards) has
# 3. A payload is scanned for its depth before json.loads runs: json.loads recurses once a
# bracket, and 8 KiB of "[" is past Python's recursion limit (a RecursionError, not a ValueError).
MAX_DEPTH = 16
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")  # an event or table id (also an MQTT username)
KINDS = ("state", "events", "result", "status")
RESULT_STATUSES = ("confirmed", "disputed")
RESULT_KINDS = ("win", "skunk", "double_skunk", "lurch")
MAX_ID = 2**53
GAME_LENGTHS = (121, 61)  # a winner's score: the game hole of a game to 121 or to 61
SESSION = re.compile(r"[A-Za-z0-9_-]{8,64}")  # the director's session id


class BadMessage(CribpiError, ValueError):
    """A message the director will not take: it is counted under ``reason`` and logged."""

    def __init__(self, reason: str, detail: str, *, final: bool = True) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.final = final  # the director's last word on it (acknowledged to the table); False: send it again


@dataclass(frozen=True)
class Message:
    table: str
    kind: str
    body: dict[str, Any]  # checked against the kind's schema; empty for a status


def topic(event: str, table: str, kind: str) -> str:
    return f"cribpi/{event}/tables/{table}/{kind}"


def subscription(event: str) -> str:
    """Everything every table of ``event`` publishes."""
    return f"cribpi/{event}/tables/+/+"


def director_topic(event: str) -> str:
    """Where the director announces its session (retained): tables read it, only it writes."""
    return f"cribpi/{event}/director"


def acks_topic(event: str, table: str) -> str:
    """Where the director tells one table which of its messages it has, durably (only it
    writes there, only that table reads)."""
    return f"cribpi/{event}/acks/{table}"


def loads(payload: bytes, what: str, *, limit: int = MAX_PAYLOAD) -> Any:
    """The JSON in ``payload`` (named ``what`` in a refusal), bounded before it is read: at most
    ``limit`` bytes (``too_large``) and ``MAX_DEPTH`` brackets deep (``too_deep``); ``bad_json``
    for anything else json.loads cannot read. Never another exception."""
    if len(payload) > limit:
        raise BadMessage("too_large", f"{what}: {len(payload)} bytes (limit {limit})")
    try:
        return loads_json(payload, MAX_DEPTH)  # the nesting scanned first: no recursion error
    except TooDeep:
        raise BadMessage("too_deep", f"{what}: brackets nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:  # json's own refusals, UnicodeDecodeError among them
        raise BadMessage("bad_json", f"{what}: {str(exc)[:120]}") from None


def acks_body(session: str, ids: list[int]) -> bytes:
    return json.dumps({"session": session, "ids": ids}, separators=(",", ":")).encode()


def parse_acks(payload: bytes) -> tuple[str, list[int]] | None:
    """The director's session and the ids an acknowledgement names; None if it is not one."""
    try:
        body = loads(payload, "acknowledgement", limit=64 * MAX_PAYLOAD)  # 500 ids of 16 digits: 8.5 KB
    except BadMessage:
        return None
    if type(body) is not dict or type(body.get("ids")) is not list or not all(_int(i, 1) for i in body["ids"]):
        return None
    session = body.get("session")
    return (session, body["ids"]) if type(session) is str and SESSION.fullmatch(session) else None


def director_body(session: str) -> bytes:
    return json.dumps({"session": session}).encode()


def director_session(payload: bytes) -> str | None:
    """The session a director's announcement names; None if it is not one (an empty retained
    message clears the topic)."""
    try:
        body = loads(payload, "director's announcement")
    except BadMessage:
        return None
    session = body.get("session") if type(body) is dict else None
    return session if type(session) is str and SESSION.fullmatch(session) else None


# -- building (the table) ---------------------------------------------------------------


def state_body(state: State, game: int, status: str, last: dict[str, Any] | None, at: float) -> dict[str, Any]:
    """The board now: players, front and rear pegs, dealer, game of the match, the last score."""
    deal = state.deal
    return {
        "game": game, "players": [state.team_name(t) for t in range(len(state.scores))],
        "scores": list(state.scores), "rear": list(state.rear),
        "dealer": deal.dealer if deal is not None else None,
        "game_number": state.game_number, "match_games": state.match_games,
        "games_won": list(state.games_won()), "last": last, "phase": state.phase.value,
        "status": status, "at": at,
    }


def last_score(effects: tuple[Any, ...]) -> dict[str, Any] | None:
    """The last points pegged among ``effects``, with their reason, as the state shows it."""
    pegs = [e for e in effects if isinstance(e, Pegged)]
    if not pegs:
        return None
    peg = pegs[-1]
    return {"seat": peg.seat, "points": peg.points, "reason": peg.reason.value, "text": peg.explain}


def last_score_now(state: State) -> dict[str, Any] | None:
    """The deal's latest score as it stands after a move or an undo (which score the play again
    and may take the last score away): in the play, in the words it was made with (the deal is
    played again for them); later, its seat, points and reason; None if the deal has none."""
    if state.phase is Phase.PLAY:
        return last_score((p,) if (p := latest_score(state, apply)) is not None else ())
    if state.deal is None or not state.deal.pegged:
        return None
    seat, points, reason = state.deal.pegged[-1]
    return {"seat": seat, "points": points, "reason": reason.value, "text": ""}


def result_body(state: State, game: int, winner: int, scores: tuple[int, ...], kind: str,
                game_points: int, margin: int, at: float) -> dict[str, Any]:
    """A finished game; ``kind`` as the rules grade it ("double skunk" goes as ``double_skunk``)."""
    kind = kind.replace(" ", "_")
    return {
        "game": game, "game_number": state.game_number,
        "players": [state.team_name(t) for t in range(len(scores))], "scores": list(scores),
        "winner": winner, "kind": kind, "game_points": game_points, "margin": margin,
        "status": "confirmed", "at": at,
    }


# -- checking (the director) ------------------------------------------------------------


def _int(v: Any, lo: int = 0, hi: int = MAX_ID) -> bool:
    return type(v) is int and lo <= v <= hi


def _num(v: Any) -> bool:
    """A time (seconds): bounded, so an int past a float's range (math.isfinite would raise
    OverflowError) or a float whose microseconds are no int are refused, not raised on."""
    return type(v) in (int, float) and 0 <= v <= MAX_ID


def _ints(v: Any, lo: int = 0, hi: int = 10_000) -> bool:
    return type(v) is list and 2 <= len(v) <= 4 and all(_int(x, lo, hi) for x in v)


def _names(v: Any) -> bool:
    return type(v) is list and 2 <= len(v) <= 4 and all(type(x) is str and 0 < len(x) <= 64 for x in v)


def _opt(check: Any) -> Any:
    return lambda v: v is None or check(v)


def _last(v: Any) -> bool:
    return type(v) is dict and set(v) == {"seat", "points", "reason", "text"} and _int(v["seat"], 0, 3) \
        and _int(v["points"], 0, 200) and type(v["reason"]) is str and len(v["reason"]) <= 32 \
        and type(v["text"]) is str and len(v["text"]) <= 600


def _event(v: Any) -> bool:
    return type(v) is dict and type(v.get("type")) is str and len(v) <= 8


def _str(*allowed: str) -> Any:
    return lambda v: type(v) is str and v in allowed


_PHASES = ("new", "cut", "starter", "play", "show", "done", "board", "game_over", "match_over")
_OPTIONAL = {"state": {"id"}}  # a state's id: absent from a table older than ordering by ids
_SCHEMAS: dict[str, Mapping[str, Any]] = {
    "state": {"game": _int, "players": _names, "scores": _ints, "rear": _ints, "dealer": _opt(lambda v: _int(v, 0, 3)),
              "game_number": _int, "match_games": lambda v: _int(v, 1, 99), "games_won": _ints, "last": _opt(_last),
              "phase": _str(*_PHASES), "status": lambda v: type(v) is str and len(v) <= 40, "at": _num,
              "id": lambda v: _int(v, 0)},
    "events": {"id": lambda v: _int(v, 1), "game": _int, "event": _event, "at": _num},
    "result": {"id": lambda v: _int(v, 1), "game": _int, "game_number": _int, "players": _names, "scores": _ints,
               "winner": lambda v: _int(v, 0, 3), "kind": _str(*RESULT_KINDS), "game_points": lambda v: _int(v, 0, 4),
               "margin": lambda v: _int(v, 0, 10_000), "status": _str(*RESULT_STATUSES), "at": _num},
}


def parse(event: str, topic_name: str, payload: bytes) -> Message:
    """The message on ``topic_name``, checked; :class:`BadMessage` says why not."""
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage("too_large", f"{len(payload)} bytes on {topic_name} (limit {MAX_PAYLOAD})")
    parts = topic_name.split("/")
    if len(parts) != 5 or parts[:3] != ["cribpi", event, "tables"] or not NAME.fullmatch(parts[3]) \
            or parts[4] not in KINDS:
        raise BadMessage("bad_topic", f"{topic_name[:120]!r} is not cribpi/{event}/tables/<table>/<{'|'.join(KINDS)}>")
    table, kind = parts[3], parts[4]
    if kind == "status":
        if payload not in (b"online", b"offline"):
            raise BadMessage("bad_status", f"{table}: {payload[:40]!r} (online or offline)")
        return Message(table, kind, {"online": payload == b"online"})
    body = loads(payload, f"{table}/{kind}")
    if type(body) is not dict:
        raise BadMessage("bad_type", f"{table}/{kind}: a JSON object is expected, not {type(body).__name__}")
    if kind == "result" and body.get("kind") == "double skunk":  # as older tables wrote it (and may replay it)
        body["kind"] = "double_skunk"
    schema = _SCHEMAS[kind]
    unknown = set(body) - set(schema)
    if unknown:
        raise BadMessage("unknown_field", f"{table}/{kind}: {', '.join(sorted(unknown))[:80]}")
    optional = _OPTIONAL.get(kind, set())
    for key, check in schema.items():
        if key not in body and key in optional:
            continue
        if key not in body or not check(body[key]):
            raise BadMessage("bad_field", f"{table}/{kind}: {key} = {str(body.get(key))[:40]!r}")
    if kind == "result":
        problem = _players_problem(body) or result_problem(body["scores"], body["winner"], body["kind"], body["margin"])
        if problem:
            raise BadMessage("bad_field", f"{table}/result: {problem}")
    return Message(table, kind, body)


def _players_problem(body: dict[str, Any]) -> str | None:
    players = body["players"]
    if len(body["scores"]) != len(players):
        return f"{len(body['scores'])} scores for {len(players)} players"
    if len(set(players)) != len(players):
        return f"players {players} name someone twice"
    return None


def result_problem(scores: list[int], winner: int, kind: str, margin: int) -> str | None:
    """What makes a finished game's figures impossible under the event's rules (ACC, as its
    standings count them), or None: the winner's score is the game hole (121, or 61 in a game
    to 61), every other side's is below it, and ``kind`` and ``margin`` are what
    :func:`~cribpi.rules.classify_result` makes of the best losing score (the margin stops at
    the game hole). A table's result and the admin's correction are both held to it."""
    if not all(type(v) is int for v in (*scores, winner, margin)) or type(kind) is not str:
        return f"scores {scores}, winner {winner!r} and margin {margin!r} are whole numbers, kind {kind!r} a name"
    if not 0 <= winner < len(scores):
        return f"winner {winner} is not a side: 0-{len(scores) - 1}"
    length = scores[winner]
    if length not in GAME_LENGTHS:
        return f"the winner's score {length} is not a game's end: 121, or 61 in a game to 61"
    losers = [s for n, s in enumerate(scores) if n != winner]
    if not all(0 <= s < length for s in losers):
        return f"scores {scores}: every losing score is 0-{length - 1}"
    graded = classify_result(length, max(losers), ACC if length == ACC.game_length else ACC.replace(game_length=length))
    expected = graded.kind.value.replace(" ", "_")
    if kind != expected:
        return f"kind {kind!r}: a game won {length}-{max(losers)} is a {expected}"
    if margin != graded.margin:
        return f"margin {margin}: a game won {length}-{max(losers)} is won by {graded.margin}"
    return None
