"""``cribpi replay game.crib``: check a game record and show every score it makes.

Each scoring event is printed with its line in the record, who pegged, the points, the
reason in the words players use and the running scores after it; alerts (muggins, an
overclaim, a penalty) and the result follow where they happen. A record that cannot be
read, or that the engine refuses, exits with status 2 and one line naming the line at fault.
See docs/record-format.md for the format.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cribpi.commands.wrapping import output_columns, wrap
from cribpi.game.engine import INITIAL, apply
from cribpi.game.events import Event, Misdeal, NewGame, NextGame, Setup
from cribpi.game.legal import describe_expected
from cribpi.game.state import Alert, AlertKind, Effect, GameOver, MatchOver, Pegged, Phase, State
from cribpi.inputs import MAX_FILE_BYTES, read_user_text, user_text
from cribpi.record import Record, RecordFileError, parse_record


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="check a game record and print every score in it", description=__doc__)
    p.add_argument("file", metavar="FILE", help="a game record (.crib); - reads standard input")
    p.add_argument("--json", action="store_true",
                   help="print JSON: the game (players, rules, mode, tags), every row the text shows (scores "
                        "with reasons, alerts, results with skunks, the match), and the final standing")
    p.set_defaults(run=run)


def read_record(path: str) -> Record:
    """Parse the record in ``path`` (``-``: standard input); errors name the file as well as the line."""
    if path == "-":
        source = "standard input"
        text = user_text(sys.stdin.buffer.read(MAX_FILE_BYTES + 1), source, "game record", RecordFileError)
    else:
        source = path
        text = read_user_text(path, "game record", RecordFileError)
    return parse_record(text, source=source)


def run(args: argparse.Namespace) -> int:
    record = read_record(args.file)
    rows, lines, state = replay_rows(record, None if args.json else output_columns())
    if args.json:
        print(json.dumps(replay_json(record, rows, state), ensure_ascii=False))
        return 0
    columns = output_columns()
    print("\n".join(wrap(_title(record), columns)))
    print("\n".join(lines))
    print("\n".join(wrap(_summary(record, state), columns)))
    return 0


def replay_json(record: Record, rows: list[dict[str, Any]], state: State) -> dict[str, Any]:
    """What the text output says, as data: the title, every row, and the summary line."""
    first = record.events[0]
    assert isinstance(first, NewGame)
    return {"players": list(first.names), "rules": first.rules.name, "mode": first.mode.value,
            "tags": dict(record.tags), "rows": rows, "events": len(record.events),
            "scores": _by_team(state, state.scores), "end": _end(state),
            "match": _standing(state, state.match_summary())}


def replay_rows(record: Record, columns: int | None = None) -> tuple[list[dict[str, Any]], list[str], State]:
    """Replay a parsed record: scoring rows (for JSON), printed lines (fitted to ``columns``,
    None: a line a row), and the final state."""
    rows: list[dict[str, Any]] = []
    out: list[str] = []
    state = INITIAL
    shown: tuple[int, int | None] = (0, None)
    for event, line in zip(record.events, record.lines):
        before = state
        state, effects = apply(state, event)
        scores = _scores_before(event, before, state)
        _cancelled(scores, state, effects)
        for effect in effects:
            row = _row(effect, line, state, scores)
            if row is None:
                continue
            if (row["game"], row["deal"]) != shown:
                shown = (row["game"], row["deal"])
                out.append(_heading(row["game"], row["deal"]))
            rows.append(row)
            out.extend(_text(row, columns))
    return rows, out, state


def _heading(game: int, deal: int | None) -> str:
    """``-- game 1, deal 3``; before the first deal, the cut for it (a tie to cut again)."""
    return f"-- game {game}, " + (f"deal {deal}" if deal is not None else "the cut")


def _scores_before(event: Event, before: State, after: State) -> list[int]:
    """The running scores an event's pegs start from (a new game and a misdeal reset them)."""
    if isinstance(event, (NewGame, NextGame)):
        return [0] * len(after.scores)
    if isinstance(event, Setup) and after.deal is not None:
        return list(after.deal.scores_at_start)
    if isinstance(event, Misdeal) and before.deal is not None:
        return list(before.deal.scores_at_start)
    return list(before.scores)


def _cancelled(scores: list[int], after: State, effects: tuple[Effect, ...]) -> None:
    """A side the event pegs nothing for ends it on the table's score: a renege claim (or a
    moved card) takes back points pegged earlier without a peg of its own, and the running
    scores must lose them too (they showed a cancelled go point still counted)."""
    pegged = {effect.team for effect in effects if isinstance(effect, Pegged)}
    for team in range(min(len(scores), len(after.scores))):
        if team not in pegged:
            scores[team] = after.scores[team]


def _row(effect: Effect, line: int, state: State, scores: list[int]) -> dict[str, Any] | None:
    deal = state.deal.number if state.deal else None
    where = {"line": line, "game": state.game_number, "deal": deal}
    if isinstance(effect, Pegged):
        scores[effect.team] = effect.score
        return {"type": "score", **where, "seat": effect.seat, "name": state.names[effect.seat],
                "team": effect.team, "points": effect.points, "reason": effect.reason,
                "explain": effect.explain, "score": effect.score,
                "scores": {state.team_name(t): s for t, s in enumerate(scores)}}
    if isinstance(effect, Alert) and effect.kind not in (AlertKind.PENALTY, AlertKind.CUT):
        return {"type": "alert", **where, "kind": effect.kind, "text": effect.text, "seat": effect.seat,
                "where": effect.where, "points": effect.points, "claimed": effect.claimed, "other": effect.other}
    if isinstance(effect, GameOver):
        return {"type": "result", **where, "text": effect.text, "winner": state.team_name(effect.winner),
                "scores": _by_team(state, effect.scores), "result": effect.result.kind.value,
                "game_points": effect.result.game_points, "margin": effect.result.margin}
    if isinstance(effect, MatchOver):
        won = "-".join(map(str, effect.summary.get("games_won", [])))
        return {"type": "match", **where, "text": f"match to {state.team_name(effect.winner)}, games {won}",
                "winner": state.team_name(effect.winner), **_standing(state, effect.summary)}
    return None


def _by_team(state: State, values: Any) -> dict[str, Any]:
    return {state.team_name(team): value for team, value in enumerate(values)}


def _standing(state: State, summary: dict[str, Any]) -> dict[str, Any]:
    """A match summary (games won, game points, spread) by team name."""
    return {key: _by_team(state, values) for key, values in summary.items()}


SAID = 48  # a score's words are padded to this, so the running scores after them line up


def _text(row: dict[str, Any], columns: int | None = None) -> list[str]:
    """A row's printed lines: one where it fits ``columns`` (None: always), else wrapped at
    spaces, the lines after the first under its words; a score's running scores then have a
    line of their own."""
    head = f"line {row['line']:>4}  "
    if row["type"] == "score":
        scores = ", ".join(f"{name} {score}" for name, score in row["scores"].items())
        said = f"{row['reason']}: {row['explain']}" if row["explain"] else row["reason"]
        who = f"{head}{row['name']:<10} {row['points']:>+4}  "
        line = f"{who}{said:<{SAID}}  {scores}"
        if columns is None or len(line) <= columns:
            return [line]
        indent = " " * (len(who) if len(who) <= columns // 2 else 4)
        lines = wrap(said, columns, first=who, rest=indent)
        gap = columns - len(lines[-1]) - len(scores)
        if gap >= 2:  # the scores end at the right edge, as a narrower table's last column
            return [*lines[:-1], lines[-1] + " " * gap + scores]
        if len(indent) + len(scores) <= columns:  # at the right edge, on a line of their own
            return [*lines, f"{scores:>{columns}}"]
        return [*lines, *wrap(scores, columns, first=indent, rest=indent)]
    text = f"{head}! {row['kind']}: {row['text']}" if row["type"] == "alert" else f"{head}= {row['text']}"
    if columns is None or len(text) <= columns:
        return [text]
    return wrap(text, columns, rest=" " * (len(head) + 2 if len(head) + 2 <= columns // 2 else 4))


def _title(record: Record) -> str:
    first = record.events[0]
    assert isinstance(first, NewGame)
    tags = [record.tags[t] for t in ("Event", "Date") if t in record.tags]
    who = " v ".join(first.names)
    return f"{who}: {first.rules.name} rules, {first.mode.value} mode" + (f" ({'; '.join(tags)})" if tags else "")


def _summary(record: Record, state: State) -> str:
    scores = ", ".join(f"{state.team_name(t)} {s}" for t, s in enumerate(state.scores))
    return f"valid record: {len(record.events)} events; {scores}; {_end(state)}"


def _end(state: State) -> str:
    if state.phase is Phase.MATCH_OVER:
        return "the match is over"
    if state.phase is Phase.GAME_OVER:
        return "the game is over"
    return f"in progress, waiting for {describe_expected(state)}"
