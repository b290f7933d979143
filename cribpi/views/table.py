"""Game state -> view models: what the board and the OLED show for a table.

Pure: reads :mod:`cribpi.game` state and effects, returns :mod:`cribpi.views.model` values.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from cribpi.game import (
    Alert, AlertKind, Effect, Event, GameOver, MatchOver, Mode, MoveCard, Pegged, Phase, Reason, State, Undo, Where,
    apply, can_go,
)
from cribpi.game.claims import FALSE_GAME_BACK
from cribpi.game.moves import latest_score
from cribpi.rules import MAX_COUNT, Card, ScoreItem, count_total
from cribpi.views.board import DEFAULT_COLOURS, RGB, Animation, BoardModel, TrackModel, mark_holes
from cribpi.views.model import (
    AlertScreen, MessageScreen, PlayScreen, PromptScreen, ScoreLine, ScoreRow,
    ScoreScreen, ScoresScreen, ShowScreen,
)

__all__ = [
    "board_model", "flash_from", "last_score_line", "last_score_after", "deal_last_score", "phase_screen", "effect_screens",
    "scores_screen", "seat_label", "alert_lines", "game_over_screen", "cut_screen", "in_play",
]

#: A claim waited for: PEG presses (``p SEAT N`` in the simulator) and OK claim them; OK alone
#: asks to claim 0, and a second OK claims it.
CLAIM_HINT = "PEG N, OK; 0: OK, OK"

#: The board's resting screen: what the next press does, as the other screens say it (PEG opens
#: a peg: whose, then the points; OK with nothing to peg passes the deal).
BOARD_HINT = "PEG to peg, OK: next deal"

PHASE_PROMPTS = {
    Phase.CUT: ("Cut for deal", "enter a card per seat, OK: random"),
    Phase.STARTER: ("Starter card", "{dealer} deals"),
}


def seat_label(state: State, seat: int) -> str:
    return state.names[seat] if state.names else f"Seat {seat + 1}"


def board_model(state: State, flash: Sequence[Sequence[int]] = (), colours: Sequence[RGB] = DEFAULT_COLOURS,
                alert_track: int | None = None, *, brightness: float = 0.5, marks: bool = True) -> BoardModel:
    """The pegs of every track (partners share one), games won, and what to animate: the
    winner's run once the game is won, else the alert on ``alert_track``."""
    target = state.rules.game_length
    won = state.games_won() if state.scores else ()
    tracks = tuple(
        TrackModel(front=min(score, target), rear=min(rear, score, target),
                   colour=colours[t % len(colours)], games_won=won[t] if won else 0)
        for t, (score, rear) in enumerate(zip(state.scores, state.rear))
    ) or (TrackModel(0, 0, colours[0]), TrackModel(0, 0, colours[1]))
    over = state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) and state.winner is not None
    animation = Animation.WINNER if over else (Animation.ALERT if alert_track is not None else None)
    return BoardModel(tracks, game_length=target, brightness=brightness,
                      marks=mark_holes(target) if marks else (), flash=tuple(tuple(f) for f in flash),
                      animation=animation, anim_track=state.winner if over else alert_track,
                      winner_track=state.winner if over else None)


def flash_from(state: State, effects: Iterable[Effect]) -> tuple[tuple[int, ...], ...]:
    """The holes each track just moved through (they blink for a moment)."""
    holes: list[list[int]] = [[] for _ in state.scores]
    target = state.rules.game_length
    for effect in effects:
        if isinstance(effect, Pegged) and effect.points > 0 and effect.team < len(holes):
            moved = holes[effect.team]
            start = effect.score - effect.points + 1
            if effect.score >= target and effect.team < len(state.rear):
                # The peg stopped in the game hole, so the points overshoot it: the move began
                # at the rear peg (where the front stood before this, the side's last score).
                start = state.rear[effect.team] + 1
            if moved:
                start = max(start, moved[-1] + 1)
            moved.extend(range(max(1, start), min(effect.score, target) + 1))
    return tuple(tuple(h) for h in holes)


def scores_screen(state: State, title: str = "Scores") -> ScoresScreen:
    won = state.games_won() if state.scores else ()
    rows = tuple(ScoreRow(state.team_name(t), s, won[t] if won else 0) for t, s in enumerate(state.scores))
    return ScoresScreen(rows, title)


def last_score_line(state: State, effects: Iterable[Effect], previous: ScoreLine | None = None) -> ScoreLine | None:
    """The last score among ``effects`` with its spoken reason (else ``previous``)."""
    for effect in reversed(list(effects)):
        if isinstance(effect, Pegged):
            return ScoreLine(seat_label(state, effect.seat), effect.points, effect.explain or effect.reason.value)
    return previous


def last_score_after(state: State, event: Event, effects: Iterable[Effect], previous: ScoreLine | None,
                     said: Sequence[Event] = ()) -> ScoreLine | None:
    """The last score the table shows once ``event`` is applied: the latest among its
    ``effects``, else ``previous``. A move or an undo scores the play again, so ``previous``
    may be gone: the deal's latest score is found again in the words it was made with
    (:func:`cribpi.game.moves.latest_score`; ``said``, the events in force, keep a penalty's
    reason), only when the play's screen will show it (the deal is played again for it)."""
    if not isinstance(event, (MoveCard, Undo)):
        return last_score_line(state, effects, previous)
    line = last_score_line(state, effects, None)
    return line if line is not None else deal_last_score(state, said)


def deal_last_score(state: State, said: Sequence[Event] = ()) -> ScoreLine | None:
    """The deal's latest score in the words it was made with, found again from the state (after
    a move or an undo, or for a table resumed from its journal); only while the play's screen
    shows one, as the deal is played again for it."""
    if state.phase is not Phase.PLAY:
        return None
    pegged = latest_score(state, apply, said)
    return None if pegged is None else last_score_line(state, (pegged,))


def phase_screen(state: State, entry: str = "", hint: str = "",
                 last: ScoreLine | None = None) -> PlayScreen | PromptScreen | ScoresScreen | MessageScreen | AlertScreen:
    """The resting screen of the phase the table is in (``last``: the latest score to show)."""
    deal = state.deal
    if state.phase in PHASE_PROMPTS:
        prompt, default_hint = PHASE_PROMPTS[state.phase]
        default_hint = default_hint.format(dealer=seat_label(state, deal.dealer) if deal else "")
        if state.phase is Phase.CUT and entry:
            prompt = f"Cut: {entry}"
            entry = ""
        return PromptScreen(prompt, entry, hint or default_hint)
    if state.phase is Phase.PLAY and deal is not None:
        if deal.turn is None and deal.unclaimed:  # the play is over but for its claims: the count they were made at
            moment = deal.unclaimed[0]
            count = moment.count if moment.count is not None else count_total(deal.count)
            return PromptScreen(f"{seat_label(state, moment.seat)} claims", entry, hint or f"count {count}; {CLAIM_HINT}")
        turn = seat_label(state, deal.turn) if deal.turn is not None else ""
        count = count_total(deal.count)
        if entry:  # the card goes to the turn's seat; where the turn could pass, GO first passes it
            passing = f", GO if {turn} said go" if can_go(state) else ""
            return PromptScreen(f"{turn} lays", entry, hint or f"count {count}{passing}")
        note = ""
        scored = [m.seat for m in deal.unclaimed if m.points]
        if scored:  # claim mode: say whose score is open (with the seat a claim names), never how much
            note = "to claim: " + ", ".join(f"{seat_label(state, seat)} (seat {seat + 1})" for seat in scored)
        laid = (seat_label(state, deal.played[-1][0]), deal.played[-1][1]) if deal.played else None
        return PlayScreen(count, turn, last if last is not None and deal.pegged else _last_play_score(state), note,
                          deal.starter, laid)
    if state.phase is Phase.SHOW and deal is not None:
        return _show_prompt(state, entry, hint)
    if state.phase is Phase.DONE:
        open_ = [m for m in deal.missed if m.missed] if deal is not None else []
        if open_:  # the deal's end closes them: said here, so the OK that does it is no surprise
            on = ", ".join(f"{state.names[m.seat]}'s {m.where.value}" for m in open_)
            return MessageScreen(("Deal counted.", f"muggins open on {on}", "OK: next deal, closes it"), "Deal done")
        return MessageScreen(("Deal counted.", "OK: next deal"), "Deal done")
    if state.phase is Phase.BOARD:
        if entry:
            return PromptScreen("Peg", entry, hint or "more pegs add up; OK pegs")
        return dataclasses.replace(scores_screen(state, "Board"), hint=BOARD_HINT)
    if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) and state.games:
        return game_over_screen(state)
    return MessageScreen(("MENU: new game",), "cribpi")


def _show_prompt(state: State, entry: str, hint: str) -> PromptScreen:
    deal = state.deal
    assert deal is not None
    if deal.pending is not None:
        what = "crib" if deal.pending.where is Where.CRIB else "hand"
        return PromptScreen(f"{seat_label(state, deal.pending.seat)} {what}?", entry, hint or CLAIM_HINT)
    if len(deal.crib) < 4 and deal.show_step >= state.seats:
        return PromptScreen("Crib cards", entry, hint or f"{len(entry.split())}/4 entered")
    return PromptScreen("Hand cards", entry, hint or "enter the rest of the hand")


def _last_play_score(state: State) -> ScoreLine | None:
    deal = state.deal
    if deal is None or not deal.pegged:
        return None
    seat, points, reason = deal.pegged[-1]
    return ScoreLine(seat_label(state, seat), points, reason.value)


def effect_screens(state: State, effects: Iterable[Effect],
                   before: State | None = None) -> list[AlertScreen | ScoreScreen | ShowScreen]:
    """Screens to page through after an event: each score with its reason, show breakdowns and
    alerts. None once the game is won: the resting screen (:func:`game_over_screen`) says who
    won and how, and one OK starts the next game. Given the table ``before`` the event, a hand
    or crib it counted that scores nothing has its page too, in its place in the show (the game
    pegs no points for it, so no effect says it was counted)."""
    screens: list[AlertScreen | ScoreScreen | ShowScreen] = []
    effects = list(effects)
    if any(isinstance(e, (GameOver, MatchOver)) for e in effects):
        return screens
    counted = _counted_now(before, state) if before is not None else []
    for effect in effects:
        if isinstance(effect, Pegged):
            if effect.reason.in_show:
                screens.extend(_zero_shows_until(state, counted, effect))
            screens.append(_pegged_screen(state, effect))
        elif isinstance(effect, Alert) and effect.kind is not AlertKind.CUT:  # the cut shows as the starter prompt
            screens.append(in_play(state, AlertScreen(ALERT_TITLES[effect.kind], alert_lines(state, effect))))
    screens.extend(_zero_shows_until(state, counted, None))
    return screens


Covering = TypeVar("Covering", AlertScreen, MessageScreen, ScoreScreen)


def in_play(state: State, screen: Covering) -> Covering:
    """``screen`` with the play's running count and whose turn it is, when it covers the
    play's screen (an alert, an undo, a muggins award...): every screen of the play shows the
    count. A play score keeps the count it was made at; outside the play, as it is."""
    deal = state.deal
    if state.phase is not Phase.PLAY or deal is None or screen.count is not None:
        return screen
    turn = seat_label(state, deal.turn) if deal.turn is not None else ""
    return dataclasses.replace(screen, count=count_total(deal.count), turn=turn)


Counted = tuple[int, Reason, int]  # a hand or the crib counted: (seat, hand or crib, total)


def _counted_now(before: State, after: State) -> list[Counted]:
    """The hands and crib counted between ``before`` and ``after``, in the order of the show.
    Claim mode asks each for its claim instead (a zero is claimed like any total)."""
    deal, old = after.deal, before.deal
    if deal is None or after.mode is Mode.CLAIM:
        return []
    same = old is not None and old.number == deal.number and before.game_number == after.game_number
    done = len(old.hand_totals) if same and old is not None else 0
    counted: list[Counted] = [(seat, Reason.HAND, total) for seat, total in deal.hand_totals[done:]]
    if deal.crib_total is not None and not (same and old is not None and old.crib_total is not None):
        counted.append((deal.dealer, Reason.CRIB, deal.crib_total))
    return counted


def _zero_shows_until(state: State, counted: list[Counted], pegged: Pegged | None) -> list[ShowScreen]:
    """Pages for the counts of nothing before ``pegged`` (None: all that are left), taken off
    ``counted`` with the count ``pegged`` is for."""
    pages: list[ShowScreen] = []
    if pegged is not None and not any((seat, reason) == (pegged.seat, pegged.reason) for seat, reason, _ in counted):
        return pages  # not a count this event made (a moved card's replay scores the show again)
    while counted:
        seat, reason, total = counted.pop(0)
        if pegged is not None and (seat, reason) == (pegged.seat, pegged.reason):
            break
        if total == 0:
            pages.append(ShowScreen(f"{seat_label(state, seat)} {reason.value}", (), 0))
    return pages


def cut_screen(state: State, cards: Sequence[Card], effects: Iterable[Effect]) -> AlertScreen:
    """The cards cut for the deal, a seat's each, and what they decided (who deals, or a tie
    to cut again): in board mode nothing else at the table shows them."""
    decided = next((e for e in effects if isinstance(e, Alert) and e.kind in (AlertKind.CUT, AlertKind.RECUT)), None)
    shown = ", ".join(f"{seat_label(state, seat)} {card}" for seat, card in enumerate(cards))
    title = ALERT_TITLES[decided.kind] if decided is not None else ALERT_TITLES[AlertKind.CUT]
    return AlertScreen(title, (shown, *(alert_lines(state, decided) if decided is not None else ())))


def _pegged_screen(state: State, effect: Pegged) -> ScoreScreen | ShowScreen:
    who = seat_label(state, effect.seat)
    if effect.reason.in_show and effect.items:
        total = sum(item.points for item in effect.items)
        return ShowScreen(f"{who} {effect.reason.value}", effect.items, total,
                          claimed=effect.points if effect.points != total else None)
    turn, starter, now = "", None, None
    if state.phase is Phase.PLAY and state.deal is not None:
        starter = state.deal.starter
        turn = seat_label(state, state.deal.turn) if state.deal.turn is not None else ""
        now = count_total(state.deal.count)
    # a play score says the count it was made at; another score pegged in the play (a muggins
    # award, a penalty, his heels) the count now, as it covers the play's screen
    return in_play(state, ScoreScreen(who, effect.points, (effect.explain or effect.reason.value,), count=effect.count,
                                      turn=turn if effect.count is not None else "", starter=starter,
                                      now=now if effect.count is not None and turn and now != effect.count else None))


def game_over_screen(state: State) -> AlertScreen:
    """The won game (or match) until the next one starts: who won, the result with its game
    points, the score that won it, and what OK does. Short lines, so a game takes one page on
    a 128x64 display and a single OK goes on; a match's standing follows its last game's."""
    lines = _game_lines(state)
    if state.phase is Phase.MATCH_OVER and state.match_games > 1:
        return AlertScreen("MATCH!", (*lines, *_match_lines(state), "OK: new match"))
    return AlertScreen("GAME!", (*lines, "OK: new game" if state.phase is Phase.MATCH_OVER else "OK: next game"))


def _game_lines(state: State) -> list[str]:
    """``Ann wins 121-85: skunk,``, its game points, and the score that won it."""
    record = state.games[-1]
    others = max(s for t, s in enumerate(record.scores) if t != record.winner)
    points = record.result.game_points
    lines = [f"{state.team_name(record.winner)} wins {record.scores[record.winner]}-{others}: {record.result.kind.value},",
             f"{points} game point{'s' if points != 1 else ''}"]
    deal = state.deal
    if deal is not None and deal.pegged:
        lines.append(_last_peg(state, deal.pegged))
    return lines


def _last_peg(state: State, pegged: tuple[tuple[int, int, Reason], ...]) -> str:
    """``last: Ann +2 heels``: the points that counted toward the game hole (``+6 (of 15)``
    when the peg stopped there), and a false claim's award as the offender's overclaim, not
    as a false claim of the player awarded."""
    seat, points, reason = pegged[-1]
    team = state.team_of(seat)
    counted = state.scores[team] - state.rear[team]
    amount = f"+{counted}" + (f" (of {points})" if 0 <= counted < points else "") if points > 0 else f"{points}"
    why = reason.value
    if reason is Reason.FALSE_GAME and points > 0:
        offender = next((s for s, p, r in reversed(pegged) if r is Reason.FALSE_GAME and p < 0), None)
        why = f"{state.names[offender]}'s overclaim" if offender is not None else "overclaimed"
    return f"last: {seat_label(state, seat)} {amount} {why}"


def _match_lines(state: State) -> list[str]:
    """``Ann wins the match``, then games won, game points and spread, a figure a side."""
    summary = state.match_summary()
    won = summary["games_won"]
    best = won.index(max(won))
    return [f"{state.team_name(best)} wins the match", f"games {'-'.join(map(str, won))}, "
            f"points {'-'.join(map(str, summary['game_points']))}",
            f"spread {' '.join(f'{s:+d}' for s in summary['spread'])}"]


def _item_line(item: ScoreItem) -> str:
    """``fifteen 5C TD 2``; a play score names only its kind (its cards are the whole count)."""
    if len(item.cards) > 3 or not item.cards:
        return f"{item.kind} {item.points}"
    return f"{item.kind} {' '.join(map(str, item.cards))} {item.points}"


ALERT_TITLES = {
    AlertKind.CUT: "Cut", AlertKind.RECUT: "Cut again", AlertKind.HEELS: "His heels", AlertKind.RENEGE: "Renege",
    AlertKind.OVERCLAIM: "Overclaim", AlertKind.UNDERCLAIM: "Underclaim", AlertKind.MUGGINS: "MUGGINS!",
    AlertKind.WRONG_MUGGINS: "Wrong muggins", AlertKind.PENALTY: "Penalty", AlertKind.MISDEAL: "Misdeal",
    AlertKind.MOVED: "Card moved", AlertKind.MUGGINS_CLOSED: "Muggins closed", AlertKind.FALSE_GAME: "False game",
    AlertKind.RENEGE_CLAIMED: "Renege claimed",
}


def alert_lines(state: State, alert: Alert) -> tuple[str, ...]:
    """What an alert screen says. A claim's alert is told from its data (who, the points, what
    was claimed) with the items under it; the others as the engine said them."""
    if alert.kind is AlertKind.RENEGE:
        return _renege_lines(state, alert)
    if alert.kind is AlertKind.RENEGE_CLAIMED:
        return _renege_claimed_lines(state, alert)
    if alert.kind is AlertKind.MUGGINS_CLOSED and alert.seat is not None:  # and why: the engine's words after it
        return (_muggins_closed(state, alert, seat_label(state, alert.seat)) + ":",
                alert.text.partition("is closed: ")[2] or "its time has run out")
    if alert.kind is AlertKind.RECUT and state.seats > 2:  # the engine names the tied seats, but every seat cuts
        return (alert.text, f"all {state.seats} cut again, {seat_label(state, 0)} first")
    compose = _CLAIM_SENTENCES.get(alert.kind)
    # a hand's or crib's items name every card (a run of four is not "run 4"); a play score's
    # long items only their kind (their cards are the whole count)
    item_line = _show_item_line if alert.where is not None and alert.where.in_show else _item_line
    if compose is None or alert.seat is None:
        return (alert.text, *map(item_line, alert.items))
    return (compose(state, alert, seat_label(state, alert.seat)), *map(item_line, alert.items))


def _show_item_line(item: ScoreItem) -> str:
    """``run 4C 5D 6H 7S 4``: a show item with all its cards."""
    return " ".join([item.kind, *map(str, item.cards), str(item.points)])


def _renege_lines(state: State, alert: Alert) -> tuple[str, ...]:
    """Short enough for one page of a 128x64 display: the count of the go, the card, what ACC
    rule 7.3 allows and how the table pegs it (the engine's whole sentence is for records)."""
    if alert.seat is None or not alert.items or not alert.items[0].cards:
        return (alert.text,)
    item, card = alert.items[0], alert.items[0].cards[0]
    gone_at = state.deal.gone_at if state.deal is not None else ()
    at = next((f" at {count}" for seat, count in gone_at if seat == alert.seat and count + card.value <= MAX_COUNT), "")
    claimer = seat_label(state, alert.other) if alert.other is not None else "an opponent"
    return (f"{seat_label(state, alert.seat)} said go{at} holding {card}, which fitted",
            f"ACC 7.3: {claimer} may claim {item.points} a card", "MENU: Renege, play back")


def _renege_claimed_lines(state: State, alert: Alert) -> tuple[str, ...]:
    """The play taken back to the false go: the cards returned, the points cancelled, the
    penalty and whose turn it is (the count shows the go's)."""
    if alert.seat is None or alert.other is None or not alert.items:
        return (alert.text,)
    offender, by = seat_label(state, alert.seat), seat_label(state, alert.other)
    returned = alert.items[1].cards if len(alert.items) > 1 else ()
    deal = state.deal
    at = f" at {deal.running}" if deal is not None and state.phase is Phase.PLAY else ""
    lines = [f"Play back to {offender}'s go{at}",
             f"{' '.join(map(str, returned)) or 'no card'} back to the hands",
             "points pegged since: cancelled",
             f"{by} pegs {alert.points} ({' '.join(map(str, alert.items[0].cards))})"]
    if at:
        lines.append(f"{offender} to play")
    return tuple(lines)


def _muggins_open(state: State, alert: Alert, who: str) -> str:
    """Short, so the items fit under it: ``Bob claimed 4 of 6: muggins for 2?``."""
    return f"{who} claimed {alert.claimed} of {alert.points}: muggins for {alert.points - alert.claimed}?"


def _underclaim(state: State, alert: Alert, who: str) -> str:
    where = f" ({alert.where.value})" if alert.where is not None else ""
    return f"{who} missed {alert.points - alert.claimed}{where}"


def _overclaim(state: State, alert: Alert, who: str) -> str:
    text = f"{who} claimed {alert.claimed} but has {alert.points}: corrected"
    if alert.other is not None:
        text += f"; {seat_label(state, alert.other)} pegs {state.rules.overclaim_penalty}"
    return text


def _wrong_muggins(state: State, alert: Alert, who: str) -> str:
    other = seat_label(state, alert.other) if alert.other is not None else "the other side"
    if alert.where is not None:  # the claim it was called on, which missed nothing
        return f"{who} called muggins wrongly on {other}'s {alert.where.value}: {other} pegs {alert.points}"
    return f"{who} called muggins wrongly: {other} pegs {alert.points}"


def _false_game(state: State, alert: Alert, who: str) -> str:
    """ACC 8.4, the items under it (the last: what was overclaimed, which the opponent pegs)."""
    other = seat_label(state, alert.other) if alert.other is not None else "the other side"
    return (f"{who} claimed {alert.claimed} into the game hole, has {alert.points}: a false claim of game "
            f"(ACC 8.4). {other} pegs the overclaim, {who} goes back {FALSE_GAME_BACK}")


def _muggins_closed(state: State, alert: Alert, who: str) -> str:
    where = f"{alert.where.value} " if alert.where is not None else ""
    return f"Muggins on {who}'s {where}({alert.points} missed) is closed"


_CLAIM_SENTENCES: dict[AlertKind, Callable[[State, Alert, str], str]] = {
    AlertKind.MUGGINS: _muggins_open,
    AlertKind.UNDERCLAIM: _underclaim,
    AlertKind.OVERCLAIM: _overclaim,
    AlertKind.WRONG_MUGGINS: _wrong_muggins,
    AlertKind.FALSE_GAME: _false_game,
    AlertKind.MUGGINS_CLOSED: _muggins_closed,
}
