"""What each phone sees, as JSON made from the table's :class:`~cribpi.app.listeners.Update`:
both pegs of every track, the count, whose turn, the starter, the last score in its words, the
OLED's screen in its words (alerts among them), and for each seat which of its keys do
something now, and why not ("Bob lays next"). Made in the table's loop, read by the server."""

from __future__ import annotations

import dataclasses
from typing import Any

from cribpi.app.claims import muggins_off_words
from cribpi.app.ui import OVER, TableUI, is_refusal
from cribpi.game import Mode, Phase, State, describe_expected, expected
from cribpi.rules.cards import Card
from cribpi.views.model import AlertScreen, ScoreLine, ScreenModel
from cribpi.views.oled import score_text

__all__ = ["table_state", "keys_for", "screen_words", "seat_of_event", "card_allowed", "card_refusal"]

_SKIP = {"page", "selected", "pin"}  # the join screen's PIN: the state is for watchers too


def _words(value: Any) -> list[str]:
    if value is None or value == "" or isinstance(value, bool):
        return []
    if isinstance(value, ScoreLine):
        return [score_text(value)]
    if isinstance(value, (str, int, Card)):
        return [str(value)]
    if isinstance(value, tuple):
        return [" ".join(_words(v)) if isinstance(v, tuple) else " ".join(_words(v)) for v in value]
    if dataclasses.is_dataclass(value):
        return [" ".join(w for f in dataclasses.fields(value) for w in _words(getattr(value, f.name)))]
    return [str(value)]


def screen_words(screen: ScreenModel) -> dict[str, Any]:
    """The OLED's screen as its title and lines of words (each field of the screen's model)."""
    title = getattr(screen, "title", "")
    lines: list[str] = []
    for field in dataclasses.fields(screen):  # every screen model is a dataclass
        if field.name in _SKIP or field.name == "title":
            continue
        value = getattr(screen, field.name)
        words = _words(value)
        if field.name in ("count", "now") and words:
            words = [f"count {words[0]}"]
        lines.extend(w for w in words if w)
    return {"kind": type(screen).__name__, "title": title if isinstance(title, str) else "", "lines": lines}


def seat_of_event(event: Any) -> int | None:
    seat = getattr(event, "seat", None)
    return seat if isinstance(seat, int) else None


def _name(state: State, seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return state.names[seat] if seat < len(state.names) else f"seat {seat + 1}"


def card_refusal(state: State, seat: int, cut_keyed: int = 0) -> tuple[str, bool] | None:
    """None: ``seat`` may key a card now; else why not, and whether the card is another seat's
    to key (it lays next, or keys the starter) rather than no seat's now. ``cut_keyed``: the
    cards of the cut for the deal keyed so far (they come in seat order, a card a seat)."""
    want = expected(state)
    deal = state.deal
    if "cut" in want.actions:
        return None if cut_keyed == seat else (f"{_name(state, cut_keyed)} keys the next card of the cut", True)
    if any(a in want.actions for a in ("lay", "hand", "crib")):  # in either mode: the crib is keyed in claim mode too
        if want.seat == seat:
            return None
        verb = "lays" if "lay" in want.actions else "keys the crib" if "crib" in want.actions else "keys the hand"
        return f"{_name(state, want.seat)} {verb} next", True
    if "starter" in want.actions and deal is not None:
        return None if deal.dealer == seat else (f"the dealer ({_name(state, deal.dealer)}) keys the starter", True)
    return f"no card now: waiting for {describe_expected(state)}", False


def card_allowed(state: State, seat: int, cut_keyed: int = 0) -> str | None:
    """None: ``seat`` may key a card now; else why not."""
    refusal = card_refusal(state, seat, cut_keyed)
    return None if refusal is None else refusal[0]


def _claimable(state: State, seat: int) -> str | None:
    """None: ``seat`` may claim now (its play score, its hand, the dealer's crib); else why not."""
    want = expected(state)
    deal = state.deal
    nothing = f"no claim of yours now: waiting for {describe_expected(state)}"
    if state.phase is Phase.BOARD:
        return None  # the board alone: each seat pegs its own
    if deal is None:
        return nothing
    if deal.pending is not None:
        return None if deal.pending.seat == seat else f"{_name(state, deal.pending.seat)} claims next"
    if state.phase is Phase.PLAY:
        if any(m.seat == seat and m.points for m in deal.unclaimed):
            return None
        return None if deal.turn is None and deal.unclaimed and deal.unclaimed[0].seat == seat else nothing
    if state.mode is not Mode.COUNT and want.seat == seat and any(a in want.actions for a in ("hand", "crib")):
        return None
    return nothing


#: The keys of a seat's phone, as :func:`keys_for` tells them.
KEYS = ("card", "go", "ok", "undo", "claim", "muggins", "confirm")


def table_busy(ui: TableUI) -> str | None:
    """Why no phone's key does anything now (the table's menu open, a peg being keyed on the
    table), or None."""
    if ui.menu is not None:
        return "the table's menu is open: close it on the table first"
    if ui.claims.tally is not None or ui.pegkeys.open:
        return "a peg is being keyed on the table: finish it there first"
    return None


def keys_for(ui: TableUI, seat: int) -> dict[str, dict[str, Any]]:
    """Each key of ``seat``'s phone: does it do something now, and if not, why."""
    busy = table_busy(ui)
    if busy is not None:
        return {name: {"on": False, "why": busy} for name in KEYS}
    state = ui.state
    want = expected(state)
    side = state.team_of(seat) if state.names else seat
    asked = ui.confirming()

    def key(why: str | None) -> dict[str, Any]:
        return {"on": why is None, "why": why or ""}

    events = ui.session.game.events
    last = events[-1] if len(events) > 1 else None
    go = None if "go" in want.actions and want.seat == seat else (
        "a card of yours fits the count: go only when none does" if "lay" in want.actions and want.seat == seat
        else f"{_name(state, want.seat)} lays next" if "lay" in want.actions else "no go now")
    ok_why = None if want.seat in (None, seat) or ui.screens or asked == side else f"waiting for {describe_expected(state)}"
    if asked is not None and asked != side:
        ok_why = f"{state.team_name(asked)} confirms the result"
    undo = None if last is not None and seat_of_event(last) == seat else "the last event is not yours"
    muggins = None if state.mode is Mode.CLAIM and state.rules.muggins.moments else muggins_off_words(state)
    confirm = None if asked == side else "no result to confirm now" if asked is None else \
        f"{state.team_name(asked)} confirms the result"
    return {"card": key(card_allowed(state, seat, len(ui.entry.cards))), "go": key(go), "ok": key(ok_why), "undo": key(undo),
            "claim": key(_claimable(state, seat)), "muggins": key(muggins), "confirm": key(confirm)}


def table_state(ui: TableUI, screen: ScreenModel, *, version: int, game: int | None, taken: frozenset[int],
                changed: int | None, colours: tuple[tuple[int, int, int], ...]) -> dict[str, Any]:
    """The state every phone is sent (keys of every seat: each phone shows its own)."""
    state = ui.state
    deal = state.deal
    names = list(state.names)
    tracks = len(state.scores)
    words = screen_words(screen)
    won = state.games_won() if tracks else ()
    alerts = [" ".join([words["title"], *words["lines"]]).strip()] if isinstance(screen, AlertScreen) else []
    return {
        "version": version, "game": game, "phase": state.phase.value, "mode": state.mode.value,
        "length": state.rules.game_length,  # 121 or 61: the pegs' bars are drawn to it
        "names": names,
        "colours": ["#%02x%02x%02x" % colours[t % len(colours)] for t in range(tracks)] if colours else [],
        "tracks": [{"name": state.team_name(t), "front": state.scores[t],
                    "rear": state.rear[t] if t < len(state.rear) else 0,
                    "games": won[t] if t < len(won) else 0} for t in range(tracks)],
        "count": deal.running if deal is not None else None,
        "turn": deal.turn if deal is not None else None,
        "turn_name": _name(state, deal.turn) if deal is not None and deal.turn is not None else "",
        "dealer": deal.dealer if deal is not None else None,
        "starter": str(deal.starter) if deal is not None and deal.starter is not None else None,
        "last_score": score_text(ui.last_score) if ui.last_score is not None else "",
        "waiting": describe_expected(state) if state.phase not in OVER and state.phase is not Phase.NEW else "",
        "screen": words, "alerts": alerts, "refused": is_refusal(screen),
        "seats": [{"seat": s, "name": n, "taken": s in taken} for s, n in enumerate(names)],
        "keys": {str(s): keys_for(ui, s) for s in range(len(names))},
        "muggins": state.mode is Mode.CLAIM and bool(state.rules.muggins.moments),
        "changed_hands": _name(state, changed) if changed is not None else None,
    }
