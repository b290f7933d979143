"""Claim mode: claims checked against what the rules give, overclaims corrected (a false claim
of game set back, ACC rule 8.4), claims left open to muggins until their deadline, and muggins
calls (ACC rule 10).

A claim in a muggins moment stays open to muggins until its deadline: in the play, until its
player pegs again; in the show, until the next hand (or the crib) is counted; at the latest,
until the deal ends. An under-claim's window closing is told (``AlertKind.MUGGINS_CLOSED``). A
call is made on one open claim: the caller takes what it missed (never more than called), or, if
it missed nothing, the call is wrong and the accused pegs the points called. A call with no
opponent's claim open is refused, and so is one that does not say whose claim it is when
claims of two opponents are open (three players).

Games of edition 1 (journals written before: :data:`cribpi.game.events.EDITION`) are judged
as they were played: a false claim of game only corrected, and a call with no under-claim open
a wrong call against the last claimer."""

from __future__ import annotations

from cribpi.exc import RulesError
from cribpi.game import events as ev
from cribpi.game.events import Mode
from cribpi.game.queries import claimable, muggins_targets
from cribpi.game.show import advance_show, start_show
from cribpi.game.state import AlertKind, Missed, Moment, Phase, Reason, State
from cribpi.game.transaction import Tx, check_seat, need_phase, who
from cribpi.rules import MugginsScope, ScoreItem
from cribpi.rules.presets import PRESETS

__all__ = ["MAX_CLAIM", "FALSE_GAME_BACK", "claim", "settle_unclaimed", "muggins", "close_all_muggins",
           "next_opponent", "nothing_open_words", "set_muggins", "muggins_switch_refusal"]

MAX_CLAIM = 29  # no single score is larger: the most a claim or a muggins call can name
FALSE_GAME_BACK = 15  # ACC rule 8.4.b: the offender's backward penalty for a false claim of game


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
        _resolve(tx, moment, 0, f"{tx.state.names[seat]} has laid another card")


def _resolve(tx: Tx, moment: Moment, claimed: int, moved_on: str = "") -> None:
    """``moved_on``: why the moment is settled without a claim (said as the muggins windows it
    closes are)."""
    state = tx.state
    _close_muggins(tx, moment, moved_on)
    if moment is tx.deal.pending:
        tx.set_deal(pending=None)
    else:
        tx.set_deal(unclaimed=tuple(m for m in tx.deal.unclaimed if m is not moment), last_claim=moment.seat)
    if _claims_false_game(state, moment, claimed):
        _false_claim_of_game(tx, moment, claimed)
        return
    penalty = state.rules.overclaim_penalty if claimed > moment.points else 0
    if claimed > moment.points:
        _alert_overclaim(tx, moment, claimed)
    pegged = min(claimed, moment.points)
    missed = moment.points - pegged
    if missed:
        _record_underclaim(tx, moment, missed, moved_on)
    elif claimed:
        _open_window(tx, moment, 0)  # a claim of nothing (a card that scored nothing) is no claim to call on
    tx.peg(moment.seat, pegged, moment.where.reason, moment.items, "" if pegged == moment.points else f"claimed {pegged}",
           moment.count)
    if penalty:
        tx.peg(next_opponent(state, moment.seat), penalty, Reason.OVERCLAIM_PENALTY)
    _after_moment(tx, moment)


def _claims_false_game(state: State, moment: Moment, claimed: int) -> bool:
    """A claim that would take its side to the game hole, which the points it has do not
    (ACC rule 8.4.a: pegging into the game hole is claiming the game)."""
    if state.edition < 2 or claimed <= moment.points:
        return False
    score = state.scores[state.team_of(moment.seat)]
    return score + claimed >= state.rules.game_length > score + moment.points


def _false_claim_of_game(tx: Tx, moment: Moment, claimed: int) -> None:
    """ACC rule 8.4.b, in its order: the offender's peg goes to the points actually scored, the
    opponent is awarded the points overclaimed (up to the game hole), and the offender goes back
    15, even if the opponent reaches the game hole (so the 15 is pegged first: a game the award
    wins is recorded with the offender's score after it). No overclaim penalty on top: a
    penalty is never penalised again."""
    state = tx.state
    seat, name = moment.seat, state.names[moment.seat]
    team = state.team_of(seat)
    reached = state.scores[team] + moment.points
    over = state.rules.game_length - reached
    other = next_opponent(state, seat)
    back = min(FALSE_GAME_BACK, reached)
    text = (f"{name} claimed {claimed}, into the game hole, but has {moment.points}: a false claim of game "
            f"(ACC 8.4). {name} pegs {moment.points}, {state.names[other]} pegs the {over} overclaimed, "
            f"{name} goes back {FALSE_GAME_BACK}")
    tx.alert(AlertKind.FALSE_GAME, text, seat, items=moment.items + (ScoreItem("overclaimed", (), over),),
             where=moment.where, points=moment.points, claimed=claimed, other=other)
    _open_window(tx, moment, 0)
    tx.peg(seat, moment.points, moment.where.reason, moment.items, "" if claimed == moment.points else
           f"claimed {claimed}, has {moment.points}", moment.count)
    tx.peg(seat, -back, Reason.FALSE_GAME, (ScoreItem("false claim of game", (), -back),),
           f"false claim of game: back {back}")
    tx.peg(other, over, Reason.FALSE_GAME, (ScoreItem("overclaimed", (), over),), f"{name}'s overclaim: {over}")
    _after_moment(tx, moment)


def _alert_overclaim(tx: Tx, moment: Moment, claimed: int) -> None:
    state = tx.state
    penalty = state.rules.overclaim_penalty
    other = next_opponent(state, moment.seat) if penalty else None
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


def _record_underclaim(tx: Tx, moment: Moment, missed: int, moved_on: str = "") -> None:
    """``moved_on``: the score was never claimed (its player laid again): said so, not as a
    claim of 0, which no one made."""
    state = tx.state
    name = state.names[moment.seat]
    claimed = moment.points - missed
    if moment.where in state.rules.muggins.moments:
        tx.set_deal(missed=tx.deal.missed + (Missed(moment.seat, moment.where, missed, moment.items),))
        kind = AlertKind.MUGGINS
        what = (f"{name} laid again without claiming {moment.points}" if moved_on and not claimed
                else f"{name} claimed {claimed} of {moment.points}")
        text = f"{what}: muggins for {missed} is open to the other side"
    else:
        kind, text = AlertKind.UNDERCLAIM, f"{name} missed {missed} ({moment.where})"
    tx.alert(kind, text, moment.seat, items=moment.items, where=moment.where, points=moment.points, claimed=claimed)


def _open_window(tx: Tx, moment: Moment, missed: int) -> None:
    """A claim in a muggins moment is open to a call until its deadline (edition 2: a claim of
    points that was right or over too, so that a call on it is a wrong call, not one with
    nothing open)."""
    state = tx.state
    if state.edition >= 2 and moment.where in state.rules.muggins.moments:
        tx.set_deal(missed=tx.deal.missed + (Missed(moment.seat, moment.where, missed, moment.items),))


def _close_muggins(tx: Tx, moment: Moment, moved_on: str = "") -> None:
    """Muggins deadlines: in the play, until the offender pegs again (or lays his next card);
    in the show, until the next hand is counted."""
    keep = tuple(
        m for m in tx.deal.missed
        if not moment.where.in_show and not (m.seat == moment.seat or m.where.in_show)
    )
    why = moved_on or (f"{tx.state.names[moment.seat]} has pegged again" if not moment.where.in_show
                       else f"{tx.state.names[moment.seat]}'s {moment.where} is being counted")
    _closing(tx, keep, why)


def close_all_muggins(tx: Tx, why: str) -> None:
    """Every muggins window closes (the deal ends): each under-claim still open is told."""
    _closing(tx, (), why)


def _closing(tx: Tx, keep: tuple[Missed, ...], why: str) -> None:
    state = tx.state
    for m in tx.deal.missed:
        if m.missed and m not in keep:
            name = state.names[m.seat]
            tx.alert(AlertKind.MUGGINS_CLOSED, f"muggins on {name}'s {m.where} ({m.missed} missed) is closed: {why}",
                     m.seat, where=m.where, points=m.missed)
    tx.set_deal(missed=keep)


def next_opponent(state: State, seat: int) -> int:
    """The first seat clockwise of another side: the one an overclaim's penalty goes to."""
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
    if state.edition < 2:
        _muggins_edition_1(tx, seat, event.points)
        return
    accused = _accused(state, seat, event.accused)
    target = next(m for m in reversed(tx.deal.missed) if m.seat == accused)
    tx.set_deal(missed=tuple(m for m in tx.deal.missed if m is not target))
    if not target.missed:
        tx.alert(AlertKind.WRONG_MUGGINS, f"{state.names[seat]} called muggins wrongly on {state.names[accused]}'s "
                 f"{target.where}, which was claimed right: {state.names[accused]} pegs {event.points}", seat,
                 where=target.where, points=event.points, other=accused)
        tx.peg(accused, event.points, Reason.WRONG_MUGGINS)
        return
    taken = min(event.points, target.missed)
    tx.peg(seat, taken, Reason.MUGGINS, target.items, f"muggins for {taken}")


def _accused(state: State, seat: int, named: int | None) -> int:
    """Whose open claim a call is on: the one named, else the only opponent with one open."""
    open_ = muggins_targets(state, seat)
    listed = " or ".join(who(state, s) for s in open_)
    if named is not None:
        accused = check_seat(state, named)
        if state.team_of(accused) == state.team_of(seat):
            raise RulesError(f"{who(state, seat)} cannot call muggins on {state.names[accused]}: "
                             f"muggins is called on an opponent")
        if accused not in open_:
            raise RulesError(f"{who(state, accused)} has no claim open to muggins now"
                             + (f": open to {state.names[seat]} now: {listed}" if open_ else ""))
        return accused
    if not open_:
        raise RulesError(nothing_open_words(state, seat))
    if len(open_) > 1:
        raise RulesError(f"claims of {listed} are open to muggins: say whose claim {state.names[seat]} calls it on")
    return open_[0]


def nothing_open_words(state: State, seat: int) -> str:
    """The refusal of a muggins call by ``seat`` with no opponent's claim open to it."""
    return (f"nothing is open to muggins for {state.names[seat]}: no opponent's claim can be called now "
            "(a play claim until its player pegs again, a hand or crib until the next is counted)")


def _muggins_edition_1(tx: Tx, seat: int, points: int) -> None:
    """A call as journals of edition 1 were played: on the latest under-claim open, else a
    wrong call against the last claimer (or the next opponent)."""
    state = tx.state
    team = state.team_of(seat)
    open_ = [m for m in tx.deal.missed if state.team_of(m.seat) != team and m.missed]
    if not open_:
        last = tx.deal.last_claim
        accused = last if last is not None and state.team_of(last) != team else next_opponent(state, seat)
        tx.alert(AlertKind.WRONG_MUGGINS, f"{state.names[seat]} called muggins wrongly: "
                 f"{state.names[accused]} pegs {points}", seat, points=points, other=accused)
        tx.peg(accused, points, Reason.WRONG_MUGGINS)
        return
    target = open_[-1]
    taken = min(points, target.missed)
    tx.set_deal(missed=tuple(m for m in tx.deal.missed if m is not target))
    tx.peg(seat, taken, Reason.MUGGINS, target.items, f"muggins for {taken}")


def muggins_switch_refusal(state: State, on: bool) -> str | None:
    """Why muggins cannot be switched ``on`` (or off) for the game being played, or None."""
    if state.phase in (Phase.NEW, Phase.MATCH_OVER):
        return "no game is being played: muggins is set for a new game (MENU, Next game setup...)"
    if state.mode is not Mode.CLAIM:
        why = "the table pegs every score itself" if state.mode is Mode.COUNT else "the players peg by hand"
        return f"muggins is played in claim mode only: in {state.mode.value} mode {why}, so there is no claim to take"
    now = bool(state.rules.muggins.moments)
    if state.rules.tournament:
        return (f"the {state.rules.name} rules fix muggins {'on' if now else 'off'} for the whole game (it is "
                "announced before play): it can be changed only for the next game (MENU, Next game setup...)")
    if now == on:
        return f"muggins is already {'on' if on else 'off'} for this game"
    return None


def set_muggins(tx: Tx, event: ev.MugginsSet) -> None:
    """Muggins switched for the game being played: from the next claim on. A claim made before
    is not opened to it; switched off, every window still open closes (and is told)."""
    state = tx.state
    if not isinstance(event.on, bool):
        raise RulesError(f"muggins is switched on (true) or off (false), not {event.on!r}")
    refusal = muggins_switch_refusal(state, event.on)
    if refusal is not None:
        raise RulesError(refusal)
    if not event.on and state.deal is not None and state.deal.missed:
        close_all_muggins(tx, "muggins was switched off")
    tx.set(rules=state.rules.replace(muggins=_scope_on(state) if event.on else MugginsScope.OFF))


def _scope_on(state: State) -> MugginsScope:
    """Muggins switched on keeps the preset's own scope, if it has one, else ACC Rule 10's (the
    play, hands and crib), as the next game's set-up does."""
    preset = PRESETS.get(state.rules.name)
    own = preset.muggins if preset is not None else MugginsScope.OFF
    return own if own is not MugginsScope.OFF else MugginsScope.ACC
