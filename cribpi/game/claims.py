"""Claim mode: claims checked against what the rules give, overclaims corrected, under-claims
left open to muggins until their deadline, and muggins calls."""

from __future__ import annotations

from cribpi.exc import RulesError
from cribpi.game import events as ev
from cribpi.game.events import Mode
from cribpi.game.queries import claimable
from cribpi.game.show import advance_show, start_show
from cribpi.game.state import AlertKind, Missed, Moment, Phase, Reason, State
from cribpi.game.transaction import Tx, check_seat, need_phase, who

__all__ = ["MAX_CLAIM", "claim", "settle_unclaimed", "muggins"]

MAX_CLAIM = 29  # no single score is larger: the most a claim or a muggins call can name


def claim(tx: Tx, event: ev.Claim) -> None:
    state = tx.state
    need_phase(state, event, Phase.PLAY, Phase.SHOW)
    seat = check_seat(state, event.seat)
    if not isinstance(event.points, int) or isinstance(event.points, bool) or not 0 <= event.points <= MAX_CLAIM:
        raise RulesError(f"a claim is 0-{MAX_CLAIM} points, not {event.points!r}")
    moment = claimable(state, seat)
    if moment is None:
        waiting = [f"{who(state, m.seat)} ({m.where})" for m in tx.deal.unclaimed]
        if tx.deal.pending is not None:
            waiting.append(f"{who(state, tx.deal.pending.seat)} ({tx.deal.pending.where})")
        raise RulesError(f"{who(state, seat)} has nothing to claim now: "
                         f"claims are open for {', '.join(waiting) or 'nobody'}")
    _resolve(tx, moment, event.points)


def settle_unclaimed(tx: Tx, seat: int) -> None:
    """The seat lays again: what it did not claim before is a claim of 0."""
    for moment in [m for m in tx.deal.unclaimed if m.seat == seat]:
        _resolve(tx, moment, 0)


def _resolve(tx: Tx, moment: Moment, claimed: int) -> None:
    state = tx.state
    _close_muggins(tx, moment)
    if moment is tx.deal.pending:
        tx.set_deal(pending=None)
    else:
        tx.set_deal(unclaimed=tuple(m for m in tx.deal.unclaimed if m is not moment), last_claim=moment.seat)
    penalty = state.rules.overclaim_penalty if claimed > moment.points else 0
    if claimed > moment.points:
        _alert_overclaim(tx, moment, claimed)
    pegged = min(claimed, moment.points)
    missed = moment.points - pegged
    if missed:
        _record_underclaim(tx, moment, missed)
    tx.peg(moment.seat, pegged, moment.where.reason, moment.items, "" if pegged == moment.points else f"claimed {pegged}",
           moment.count)
    if penalty:
        tx.peg(_next_opponent(state, moment.seat), penalty, Reason.OVERCLAIM_PENALTY)
    _after_moment(tx, moment)


def _alert_overclaim(tx: Tx, moment: Moment, claimed: int) -> None:
    state = tx.state
    penalty = state.rules.overclaim_penalty
    other = _next_opponent(state, moment.seat) if penalty else None
    extra = f"; {state.names[other]} pegs {penalty}" if other is not None else ""
    text = f"{state.names[moment.seat]} claimed {claimed} but has {moment.points}: corrected{extra}"
    tx.alert(AlertKind.OVERCLAIM, text, moment.seat,
             items=moment.items, where=moment.where, points=moment.points, claimed=claimed, other=other)


def _after_moment(tx: Tx, moment: Moment) -> None:
    if moment.where.in_show:
        tx.set_deal(last_claim=moment.seat)
        advance_show(tx)
    elif tx.state.phase is Phase.PLAY and tx.deal.turn is None and not tx.deal.unclaimed:
        start_show(tx)  # the play ended while its last scores waited for claims


def _record_underclaim(tx: Tx, moment: Moment, missed: int) -> None:
    state = tx.state
    name = state.names[moment.seat]
    claimed = moment.points - missed
    if moment.where in state.rules.muggins.moments:
        tx.set_deal(missed=tx.deal.missed + (Missed(moment.seat, moment.where, missed, moment.items),))
        kind = AlertKind.MUGGINS
        text = f"{name} claimed {claimed} of {moment.points}: muggins for {missed} is open to the other side"
    else:
        kind, text = AlertKind.UNDERCLAIM, f"{name} missed {missed} ({moment.where})"
    tx.alert(kind, text, moment.seat, items=moment.items, where=moment.where, points=moment.points, claimed=claimed)


def _close_muggins(tx: Tx, moment: Moment) -> None:
    """Muggins deadlines: in the play, until the offender pegs again; in the show, until the
    next hand is counted."""
    keep = tuple(
        m for m in tx.deal.missed
        if not moment.where.in_show and not (m.seat == moment.seat or m.where.in_show)
    )
    tx.set_deal(missed=keep)


def _next_opponent(state: State, seat: int) -> int:
    for i in range(1, state.seats):
        other = (seat + i) % state.seats
        if state.team_of(other) != state.team_of(seat):
            return other
    raise AssertionError("no opponent")


def muggins(tx: Tx, event: ev.Muggins) -> None:
    state = tx.state
    need_phase(state, event, Phase.PLAY, Phase.SHOW, Phase.DONE)
    seat = check_seat(state, event.seat)
    if state.mode is not Mode.CLAIM or not state.rules.muggins.moments:
        raise RulesError("muggins is not played at this table (it needs claim mode and a muggins rule)")
    if not isinstance(event.points, int) or not 1 <= event.points <= MAX_CLAIM:
        raise RulesError(f"muggins is called for 1-{MAX_CLAIM} points, not {event.points!r}")
    team = state.team_of(seat)
    open_ = [m for m in tx.deal.missed if state.team_of(m.seat) != team]
    if not open_:
        last = tx.deal.last_claim
        accused = last if last is not None and state.team_of(last) != team else _next_opponent(state, seat)
        tx.alert(AlertKind.WRONG_MUGGINS, f"{state.names[seat]} called muggins wrongly: "
                 f"{state.names[accused]} pegs {event.points}", seat, points=event.points, other=accused)
        tx.peg(accused, event.points, Reason.WRONG_MUGGINS)
        return
    target = open_[-1]
    taken = min(event.points, target.missed)
    tx.set_deal(missed=tuple(m for m in tx.deal.missed if m is not target))
    tx.peg(seat, taken, Reason.MUGGINS, target.items, f"muggins for {taken}")
