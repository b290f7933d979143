"""``apply(state, event) -> (state, effects)``: the whole of a cribbage table, pure.

Every event is checked against the state first; impossible input raises ``RulesError``
naming what is wrong and what would be accepted, and nothing changes (the transaction is
simply dropped). Points are pegged strictly in order, so the game ends at the exact instant
a side reaches the target: nothing after that instant in the same event is scored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cribpi.exc import RulesError
from cribpi.game import events as ev
from cribpi.game.events import Mode
from cribpi.game.state import (
    Alert, DealState, Effect, GameOver, GameRecordResult, MatchOver, Missed, Moment, Pegged,
    Phase, State, evolve,
)
from cribpi.rules import MAX_COUNT, Card, Rank, ScoreItem, classify_result, score_hand, score_play

__all__ = ["apply", "show_order", "cards_left", "claimable", "INITIAL", "MAX_CLAIM"]

INITIAL = State()
MAX_CLAIM = 29  # no single score is larger: the most a claim or a muggins call can name


class _GameEnded(Exception):
    """Raised inside a transaction when a side reaches the target: stop scoring at once."""


class _Tx:
    """The state being built by one event, and the effects it has produced so far."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.effects: list[Effect] = []

    @property
    def deal(self) -> DealState:
        deal = self.state.deal
        if deal is None:
            raise RulesError("no deal is in progress")
        return deal

    def set(self, **changes: Any) -> None:
        self.state = evolve(self.state, **changes)

    def set_deal(self, **changes: Any) -> None:
        self.state = evolve(self.state, deal=evolve(self.deal, **changes))

    def alert(self, kind: str, text: str, seat: int | None = None, items: tuple[ScoreItem, ...] = ()) -> None:
        self.effects.append(Alert(kind, text, seat, items))

    def peg(self, seat: int, points: int, reason: str, items: tuple[ScoreItem, ...] = (), note: str = "") -> None:
        """Peg points for a seat's side; ends the game the instant the target is reached."""
        if points == 0:
            return
        state = self.state
        team = state.team_of(seat)
        scores = list(state.scores)
        rear = list(state.rear)
        rear[team] = scores[team]
        scores[team] = max(0, scores[team] + points)
        self.set(scores=tuple(scores), rear=tuple(rear))
        if state.deal is not None:
            self.set_deal(pegged=state.deal.pegged + ((seat, points, reason),))
        self.effects.append(Pegged(seat, team, points, reason, items, scores[team], note))
        if scores[team] >= state.rules.game_length:
            self._end_game(team)

    def _end_game(self, team: int) -> None:
        state = self.state
        others = [s for t, s in enumerate(state.scores) if t != team]
        result = classify_result(state.scores[team], max(others), state.rules)
        record = GameRecordResult(team, state.scores, result, state.first_dealer or 0)
        self.set(phase=Phase.GAME_OVER, winner=team, games=state.games + (record,))
        if state.deal is not None:
            self.set_deal(turn=None, pending=None, unclaimed=(), missed=())  # nothing after this instant counts
        text = f"{state.team_name(team)} wins {min(state.scores[team], state.rules.game_length)}-{max(others)}: {result.kind.value}"
        self.effects.append(GameOver(team, state.scores, result, text))
        champion = _match_winner(self.state)
        if champion is not None:
            self.set(phase=Phase.MATCH_OVER)
            self.effects.append(MatchOver(champion, self.state.match_summary()))
        raise _GameEnded


def _match_winner(state: State) -> int | None:
    won = state.games_won()
    needed = state.match_games // 2 + 1
    if max(won) >= needed or len(state.games) >= state.match_games:
        best = max(won)
        return won.index(best)
    return None


def apply(state: State, event: ev.Event) -> tuple[State, tuple[Effect, ...]]:
    """Apply one event. Raises RulesError (state unchanged) when the event is impossible."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise RulesError(f"{type(event).__name__} cannot be applied to a table (undo belongs to Game)")
    tx = _Tx(state)
    try:
        handler(tx, event)
    except _GameEnded:
        pass
    return tx.state, tuple(tx.effects)


# -- helpers ---------------------------------------------------------------------------


def _need_phase(state: State, event: ev.Event, *phases: Phase) -> None:
    if state.phase not in phases:
        wanted = " or ".join(p.value for p in phases)
        raise RulesError(f"{event.kind} is not possible now: the table is in the {state.phase.value} phase, "
                         f"{event.kind} needs {wanted}{_awaiting(state)}")


def _awaiting(state: State) -> str:
    from cribpi.game.legal import describe_expected  # local: legal imports this module

    return f" (waiting for {describe_expected(state)})"


def _check_seat(state: State, seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
        raise RulesError(f"seat {seat!r} does not exist: seats are 0-{state.seats - 1} (1-{state.seats} at the table)")
    return seat


def _who(state: State, seat: int) -> str:
    return f"{state.names[seat]} (seat {seat + 1})"  # people count seats from 1


def show_order(state: State) -> tuple[int, ...]:
    """Seats in showing order: from the dealer's left round to the dealer."""
    dealer = state.deal.dealer if state.deal else 0
    return tuple((dealer + i) % state.seats for i in range(1, state.seats + 1))


def cards_left(state: State, seat: int) -> int:
    """Cards a seat still holds in the play."""
    deal = state.deal
    if deal is None:
        return 0
    return state.rules.cards_held - sum(1 for s, _ in deal.played if s == seat)


def _next_seat(state: State, after: int, active: set[int]) -> int | None:
    for i in range(1, state.seats + 1):
        seat = (after + i) % state.seats
        if seat in active:
            return seat
    return None


def _active(state: State, deal: DealState) -> set[int]:
    """Seats that may still lay a card on the current count."""
    return {s for s in range(state.seats) if s not in deal.gone and cards_left(state, s) > 0}


def _check_unseen(deal: DealState, cards: tuple[Card, ...], what: str,
                  allowed: set[Card] | frozenset[Card] = frozenset()) -> None:
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise RulesError(f"{dup} appears twice in the {what}: every card must be different")
    seen = deal.seen() - allowed
    for card in cards:
        if card in seen:
            raise RulesError(f"{card} has already been seen this deal: the {what} must be cards not yet shown")


# -- game set-up -----------------------------------------------------------------------


def _new_game(tx: _Tx, event: ev.NewGame) -> None:
    _need_phase(tx.state, event, Phase.NEW)
    rules = event.rules
    names = tuple(str(n).strip() for n in event.names)
    if len(names) != rules.players:
        raise RulesError(f"{len(names)} names given but the rules are for {rules.players} players")
    if any(not n for n in names) or len(set(names)) != len(names):
        raise RulesError(f"player names must be distinct and not empty: {list(names)!r}")
    if event.review and rules.tournament:
        raise RulesError(f"the discard review is a coaching aid: the {rules.name} rules do not allow it")
    if event.match_games < 1 or event.match_games % 2 == 0:
        raise RulesError(f"a match is best of an odd number of games, not {event.match_games}")
    teams = rules.teams
    tx.set(names=names, rules=rules, mode=event.mode, scores=(0,) * teams, rear=(0,) * teams,
           match_games=event.match_games, review=event.review, game_number=1, phase=Phase.CUT)
    if event.first_dealer is not None:
        _start_game(tx, _check_seat(tx.state, event.first_dealer))


def _cut(tx: _Tx, event: ev.CutForDeal) -> None:
    state = tx.state
    _need_phase(state, event, Phase.CUT)
    cards = tuple(event.cards)
    if len(cards) != state.seats or len(set(cards)) != len(cards):
        raise RulesError(f"the cut needs {state.seats} different cards, one per seat in order, not {list(map(str, cards))}")
    low = min(c.rank for c in cards)
    lowest = [seat for seat, c in enumerate(cards) if c.rank == low]
    if len(lowest) > 1:
        names = " and ".join(state.names[s] for s in lowest)
        tx.alert("recut", f"{names} cut equal low cards ({Rank(low).symbol}): cut again")
        return
    tx.alert("cut", f"{state.names[lowest[0]]} cuts low and deals first", lowest[0])
    _start_game(tx, lowest[0])


def _start_game(tx: _Tx, dealer: int) -> None:
    tx.set(first_dealer=dealer)
    if tx.state.mode is Mode.BOARD:
        tx.set(phase=Phase.BOARD, deal=DealState(number=1, dealer=dealer, scores_at_start=tx.state.scores))
        return
    _start_deal(tx, 1, dealer)


def _start_deal(tx: _Tx, number: int, dealer: int) -> None:
    state = tx.state
    tx.set(phase=Phase.STARTER, deal=DealState(
        number=number, dealer=dealer, declared=(None,) * state.seats, discards=(None,) * state.seats,
        scores_at_start=state.scores))
    if state.rules.five_card and number == 1:
        pone = (dealer + 1) % state.seats
        tx.peg(pone, 3, "three for last", (ScoreItem("three for last", (), 3),), "three to start")


# -- the starter and the play ----------------------------------------------------------


def _starter(tx: _Tx, event: ev.Starter) -> None:
    state = tx.state
    _need_phase(state, event, Phase.STARTER)
    _check_unseen(tx.deal, (event.card,), "starter")
    dealer = tx.deal.dealer
    tx.set_deal(starter=event.card)
    _begin_play(tx)
    if event.card.rank == Rank.JACK:
        items = (ScoreItem("heels", (event.card,), 2),)
        if not state.rules.heels_peg_out and state.scores[state.team_of(dealer)] + 2 >= state.rules.game_length:
            tx.alert("heels", "his heels cannot peg out under these rules: not scored", dealer)
        else:
            _score(tx, Moment(dealer, "heels", 2, items))


def _begin_play(tx: _Tx) -> None:
    state = tx.state
    leader = _next_seat(state, tx.deal.dealer, _active(state, tx.deal))
    tx.set(phase=Phase.PLAY)
    tx.set_deal(turn=leader)


def _score(tx: _Tx, moment: Moment) -> None:
    """Count mode pegs at once; claim mode waits for the claim.

    A play or heels score waits without blocking the play, until its player lays his next
    card (Hoyle: a short peg "may not be corrected after he has played the next card"; the
    leaflet: heels are lost once the dealer plays). A hand or the crib blocks the show.
    """
    if tx.state.mode is not Mode.CLAIM:
        tx.peg(moment.seat, moment.points, moment.where, moment.items)
    elif moment.where in ("hand", "crib"):
        tx.set_deal(pending=moment)
    else:
        _add_unclaimed(tx, moment)


def _add_unclaimed(tx: _Tx, moment: Moment) -> None:
    """One unclaimed play score per seat: a second (a go after the card) joins the first."""
    unclaimed = list(tx.deal.unclaimed)
    for i, old in enumerate(unclaimed):
        if old.seat == moment.seat and old.where == moment.where:
            unclaimed[i] = Moment(old.seat, old.where, old.points + moment.points, old.items + moment.items)
            break
    else:
        unclaimed.append(moment)
    tx.set_deal(unclaimed=tuple(unclaimed))


def claimable(state: State, seat: int) -> Moment | None:
    """The score a claim by ``seat`` would be for: its hand or crib, else its play score."""
    deal = state.deal
    if deal is None:
        return None
    if deal.pending is not None and deal.pending.seat == seat:
        return deal.pending
    return next((m for m in deal.unclaimed if m.seat == seat), None)


def _settle_unclaimed(tx: _Tx, seat: int) -> None:
    """The seat lays again: what it did not claim before is a claim of 0."""
    for moment in [m for m in tx.deal.unclaimed if m.seat == seat]:
        _resolve(tx, moment, 0)


def _check_play_turn(tx: _Tx, event: ev.Lay | ev.Go, what: str) -> tuple[int, DealState]:
    """The checks every card and go share: the play is on and it is this seat's turn."""
    state = tx.state
    _need_phase(state, event, Phase.PLAY)
    seat = _check_seat(state, event.seat)
    deal = tx.deal
    _check_turn(state, deal, seat, what)
    return seat, deal


def _lay(tx: _Tx, event: ev.Lay) -> None:
    state = tx.state
    seat, deal = _check_play_turn(tx, event, "lay a card")
    card = event.card
    if cards_left(state, seat) <= 0:
        raise RulesError(f"{_who(state, seat)} has already laid {state.rules.cards_held} cards: no card is left in that hand")
    declared = deal.declared[seat]
    if declared is not None and card not in declared:
        raise RulesError(f"{card} is not in {_who(state, seat)}'s hand: {' '.join(map(str, declared))}")
    _check_unseen(deal, (card,), "play", allowed=set(declared or ()) - set(deal.cards_of(seat)))
    running = sum(c.value for c in deal.count)
    if running + card.value > MAX_COUNT:
        raise RulesError(f"{card} would take the count from {running} to {running + card.value}, past 31: "
                         f"lay a card worth {MAX_COUNT - running} or less, or say go")
    _settle_unclaimed(tx, seat)
    _check_renege(tx, seat, (card,))
    count = deal.count + (card,)
    tx.set_deal(count=count, played=tx.deal.played + ((seat, card),), last_layer=seat)
    scored = score_play(count, rules=state.rules)
    items = scored.items
    active = _active(tx.state, tx.deal)
    ends = scored.running == MAX_COUNT or not active
    if ends and scored.running != MAX_COUNT:
        items += (_go_item(tx.state),)
    _score(tx, Moment(seat, "play", sum(i.points for i in items), items))
    if ends:
        _end_count(tx)
    else:
        tx.set_deal(turn=_next_seat(tx.state, seat, active))


def _check_renege(tx: _Tx, seat: int, cards: tuple[Card, ...]) -> None:
    """A card that fitted when its holder said go is a renege (ACC: 2 a card, on the
    opponent's call): the table is told, and the judge's penalty does the rest."""
    state = tx.state
    for card in cards:
        at = next((count for s, count in tx.deal.gone_at if s == seat and count + card.value <= MAX_COUNT), None)
        if at is not None:
            tx.alert("renege", f"renege: {state.names[seat]} said go at {at} holding {card}, "
                     f"which fitted (ACC: a 2-point penalty per card)", seat)


def _go_item(state: State) -> ScoreItem:
    played_out = all(cards_left(state, s) == 0 for s in range(state.seats))
    return ScoreItem("last card" if played_out else "go", (), 1)


def _check_turn(state: State, deal: DealState, seat: int, what: str) -> None:
    if deal.turn != seat:
        turn = "nobody" if deal.turn is None else _who(state, deal.turn)
        raise RulesError(f"{_who(state, seat)} cannot {what} now: it is {turn}'s turn")


def _go(tx: _Tx, event: ev.Go) -> None:
    state = tx.state
    seat, deal = _check_play_turn(tx, event, "say go")
    running = sum(c.value for c in deal.count)
    if running + 10 <= MAX_COUNT:
        raise RulesError(f"{_who(state, seat)} cannot say go at {running}: every card fits under 31, so a card must be laid")
    declared = deal.declared[seat]
    if declared is not None:
        fits = [c for c in declared if c not in deal.cards_of(seat) and running + c.value <= MAX_COUNT]
        if fits:
            raise RulesError(f"{_who(state, seat)} holds {fits[0]}, which fits at {running}: "
                             f"a player who can lay a card must lay it")
    tx.set_deal(gone=tx.deal.gone | {seat}, gone_at=tx.deal.gone_at + ((seat, running),))
    active = _active(tx.state, tx.deal)
    if active:
        tx.set_deal(turn=_next_seat(tx.state, seat, active))
        return
    last = tx.deal.last_layer
    assert last is not None  # a go on an empty count is refused above
    _score(tx, Moment(last, "play", 1, (_go_item(tx.state),)))
    _end_count(tx)


def _end_count(tx: _Tx) -> None:
    """The count restarts from zero, led by the player left of the last card's player."""
    state = tx.state
    deal = tx.deal
    tx.set_deal(count=(), gone=frozenset())
    with_cards = {s for s in range(state.seats) if cards_left(state, s) > 0}
    if not with_cards or state.rules.five_card:
        tx.set_deal(turn=None, unclaimed=tuple(m for m in tx.deal.unclaimed if m.points))
        if not tx.deal.unclaimed:
            _start_show(tx)  # else the play's last scores are claimed first
        return
    assert deal.last_layer is not None
    tx.set_deal(turn=_next_seat(state, deal.last_layer, with_cards))


# -- the show --------------------------------------------------------------------------


def _start_show(tx: _Tx) -> None:
    tx.set(phase=Phase.SHOW)
    tx.set_deal(show_step=0, turn=None)
    _advance_show(tx)


def known_hand(state: State, seat: int) -> tuple[Card, ...]:
    deal = state.deal
    assert deal is not None
    declared = deal.declared[seat]
    return declared if declared is not None else deal.cards_of(seat)


def _advance_show(tx: _Tx) -> None:
    """Count every hand that is known, in order, stopping for claims and missing cards."""
    order = show_order(tx.state)
    while tx.deal.pending is None:
        step = tx.deal.show_step
        if step < len(order):
            seat = order[step]
            hand = known_hand(tx.state, seat)
            if len(hand) < tx.state.rules.cards_held:
                return  # waiting for HandCards
            score = _show_score(tx, hand, crib=False)
            tx.set_deal(hand_totals=tx.deal.hand_totals + ((seat, score.total),))
            moment = Moment(seat, "hand", score.total, score.items)
        elif step == len(order):
            if len(tx.deal.crib) < 4:
                return  # waiting for the crib
            score = _show_score(tx, tx.deal.crib, crib=True)
            tx.set_deal(crib_total=score.total)
            moment = Moment(tx.deal.dealer, "crib", score.total, score.items)
        else:
            tx.set(phase=Phase.DONE)
            return
        tx.set_deal(show_step=step + 1)
        _score(tx, moment)


def _show_score(tx: _Tx, hand: tuple[Card, ...], crib: bool) -> Any:
    starter = tx.deal.starter
    assert starter is not None
    return score_hand(hand, starter, crib=crib, rules=tx.state.rules)


def _hand(tx: _Tx, event: ev.HandCards) -> None:
    state = tx.state
    _need_phase(state, event, Phase.STARTER, Phase.PLAY, Phase.SHOW)
    seat = _check_seat(state, event.seat)
    deal = tx.deal
    cards = tuple(event.cards)
    if deal.declared[seat] is not None:
        raise RulesError(f"{_who(state, seat)}'s hand is already entered: undo to change it")
    if len(cards) != state.rules.cards_held:
        raise RulesError(f"a hand has {state.rules.cards_held} cards, not {len(cards)}")
    laid = deal.cards_of(seat)
    missing = [c for c in laid if c not in cards]
    if missing:
        raise RulesError(f"{_who(state, seat)} laid {missing[0]} in the play, so the hand must include it")
    _check_unseen(deal, cards, "hand", allowed=set(laid))
    declared = list(deal.declared)
    declared[seat] = cards
    tx.set_deal(declared=tuple(declared))
    _check_renege(tx, seat, tuple(c for c in cards if c not in laid))
    if state.phase is Phase.SHOW:
        _advance_show(tx)


def _discard(tx: _Tx, event: ev.Discard) -> None:
    state = tx.state
    _need_phase(state, event, Phase.STARTER, Phase.PLAY, Phase.SHOW, Phase.DONE)
    seat = _check_seat(state, event.seat)
    deal = tx.deal
    cards = tuple(event.cards)
    if deal.discards[seat] is not None:
        raise RulesError(f"{_who(state, seat)}'s discard is already entered: undo to change it")
    if len(cards) != state.rules.discards_each:
        raise RulesError(f"a discard is {state.rules.discards_each} card(s) here, not {len(cards)}")
    if deal.crib:
        strays = [c for c in cards if c not in deal.crib]
        if strays:
            raise RulesError(f"{strays[0]} is not in the crib ({' '.join(map(str, deal.crib))}): a discard goes to the crib")
        _check_unseen(deal, cards, "discard", allowed=set(deal.crib))
    else:
        _check_unseen(deal, cards, "discard")
    discards = list(deal.discards)
    discards[seat] = cards
    tx.set_deal(discards=tuple(discards))


def _crib(tx: _Tx, event: ev.Crib) -> None:
    state = tx.state
    _need_phase(state, event, Phase.STARTER, Phase.PLAY, Phase.SHOW)
    cards = tuple(event.cards)
    if tx.deal.crib:
        raise RulesError("the crib is already entered: undo to change it")
    if len(cards) != 4:
        raise RulesError(f"the crib has 4 cards, not {len(cards)}")
    thrown = {c for d in tx.deal.discards if d for c in d}
    if not thrown <= set(cards):
        missing = sorted(thrown - set(cards))
        raise RulesError(f"the crib must hold the discards entered: {' '.join(map(str, missing))} missing")
    _check_unseen(tx.deal, cards, "crib", allowed=thrown)
    tx.set_deal(crib=cards)
    if state.phase is Phase.SHOW:
        _advance_show(tx)


# -- claims and muggins ----------------------------------------------------------------


def _claim(tx: _Tx, event: ev.Claim) -> None:
    state = tx.state
    _need_phase(state, event, Phase.PLAY, Phase.SHOW)
    seat = _check_seat(state, event.seat)
    if not isinstance(event.points, int) or isinstance(event.points, bool) or not 0 <= event.points <= MAX_CLAIM:
        raise RulesError(f"a claim is 0-{MAX_CLAIM} points, not {event.points!r}")
    moment = claimable(state, seat)
    if moment is None:
        waiting = [f"{_who(state, m.seat)} ({m.where})" for m in tx.deal.unclaimed]
        if tx.deal.pending is not None:
            waiting.append(f"{_who(state, tx.deal.pending.seat)} ({tx.deal.pending.where})")
        raise RulesError(f"{_who(state, seat)} has nothing to claim now: "
                         f"claims are open for {', '.join(waiting) or 'nobody'}")
    _resolve(tx, moment, event.points)


def _resolve(tx: _Tx, moment: Moment, claimed: int) -> None:
    state = tx.state
    _close_muggins(tx, moment)
    if moment is tx.deal.pending:
        tx.set_deal(pending=None)
    else:
        tx.set_deal(unclaimed=tuple(m for m in tx.deal.unclaimed if m is not moment), last_claim=moment.seat)
    name = state.names[moment.seat]
    if claimed > moment.points:
        penalty = state.rules.overclaim_penalty
        extra = f"; {state.names[_next_opponent(state, moment.seat)]} pegs {penalty}" if penalty else ""
        tx.alert("overclaim", f"{name} claimed {claimed} but has {moment.points}: corrected{extra}",
                 moment.seat, moment.items)
    pegged = min(claimed, moment.points)
    missed = moment.points - pegged
    if missed:
        _record_underclaim(tx, moment, missed)
    tx.peg(moment.seat, pegged, moment.where, moment.items, "" if pegged == moment.points else f"claimed {pegged}")
    if claimed > moment.points and state.rules.overclaim_penalty:
        tx.peg(_next_opponent(state, moment.seat), state.rules.overclaim_penalty, "overclaim penalty")
    _after_moment(tx, moment)


def _after_moment(tx: _Tx, moment: Moment) -> None:
    if moment.where in ("hand", "crib"):
        tx.set_deal(last_claim=moment.seat)
        _advance_show(tx)
    elif tx.state.phase is Phase.PLAY and tx.deal.turn is None and not tx.deal.unclaimed:
        _start_show(tx)  # the play ended while its last scores waited for claims


def _record_underclaim(tx: _Tx, moment: Moment, missed: int) -> None:
    state = tx.state
    name = state.names[moment.seat]
    if moment.where in state.rules.muggins.moments:
        tx.set_deal(missed=tx.deal.missed + (Missed(moment.seat, moment.where, missed, moment.items),))
        tx.alert("muggins", f"{name} claimed {moment.points - missed} of {moment.points}: "
                 f"muggins for {missed} is open to the other side", moment.seat, moment.items)
    else:
        tx.alert("underclaim", f"{name} missed {missed} ({moment.where})", moment.seat, moment.items)


def _close_muggins(tx: _Tx, moment: Moment) -> None:
    """Muggins deadlines: in the play, until the offender pegs again; in the show, until the
    next hand is counted."""
    keep = tuple(
        m for m in tx.deal.missed
        if moment.where in ("play", "heels") and not (m.seat == moment.seat or m.where in ("hand", "crib"))
    )
    tx.set_deal(missed=keep)


def _next_opponent(state: State, seat: int) -> int:
    for i in range(1, state.seats):
        other = (seat + i) % state.seats
        if state.team_of(other) != state.team_of(seat):
            return other
    raise AssertionError("no opponent")


def _muggins(tx: _Tx, event: ev.Muggins) -> None:
    state = tx.state
    _need_phase(state, event, Phase.PLAY, Phase.SHOW, Phase.DONE)
    seat = _check_seat(state, event.seat)
    if state.mode is not Mode.CLAIM or not state.rules.muggins.moments:
        raise RulesError("muggins is not played at this table (it needs claim mode and a muggins rule)")
    if not isinstance(event.points, int) or not 1 <= event.points <= MAX_CLAIM:
        raise RulesError(f"muggins is called for 1-{MAX_CLAIM} points, not {event.points!r}")
    team = state.team_of(seat)
    open_ = [m for m in tx.deal.missed if state.team_of(m.seat) != team]
    if not open_:
        last = tx.deal.last_claim
        accused = last if last is not None and state.team_of(last) != team else _next_opponent(state, seat)
        tx.alert("wrong-muggins", f"{state.names[seat]} called muggins wrongly: "
                 f"{state.names[accused]} pegs {event.points}", seat)
        tx.peg(accused, event.points, "wrong muggins")
        return
    target = open_[-1]
    taken = min(event.points, target.missed)
    tx.set_deal(missed=tuple(m for m in tx.deal.missed if m is not target))
    tx.peg(seat, taken, "muggins", target.items, f"muggins for {taken}")


# -- board mode, penalties, misdeals, the end of the deal and of the game ---------------


def _manual_peg(tx: _Tx, event: ev.Peg) -> None:
    state = tx.state
    _need_phase(state, event, Phase.BOARD)
    seat = _check_seat(state, event.seat)
    if not isinstance(event.points, int) or not 1 <= event.points <= state.rules.game_length:
        raise RulesError(f"a peg is 1-{state.rules.game_length} points, not {event.points!r} (use undo to take points back)")
    tx.peg(seat, event.points, "peg")


def _penalty(tx: _Tx, event: ev.Penalty) -> None:
    state = tx.state
    _need_phase(state, event, Phase.STARTER, Phase.PLAY, Phase.SHOW, Phase.DONE, Phase.BOARD)
    seat = _check_seat(state, event.seat)
    if not isinstance(event.points, int) or event.points == 0 or abs(event.points) > state.rules.game_length:
        raise RulesError(f"a penalty is a non-zero number of points, not {event.points!r}")
    if not event.reason.strip():
        raise RulesError("a penalty needs a reason (e.g. renege, exposed card, overpeg)")
    if state.scores[state.team_of(seat)] + event.points < 0:
        raise RulesError(f"{_who(state, seat)} has only {state.scores[state.team_of(seat)]} to go back from")
    items = (ScoreItem("penalty", (), event.points),)
    tx.alert("penalty", f"penalty: {state.names[seat]} {event.points:+d} for {event.reason}", seat)
    tx.peg(seat, event.points, "penalty", items, event.reason)


def _misdeal(tx: _Tx, event: ev.Misdeal) -> None:
    state = tx.state
    _need_phase(state, event, Phase.STARTER, Phase.PLAY)
    deal = tx.deal
    if deal.played:
        raise RulesError("a misdeal must be called before the first card is laid")
    tx.set(scores=deal.scores_at_start, rear=deal.scores_at_start)
    tx.alert("misdeal", f"misdeal: {state.names[deal.dealer]} deals again")
    _start_deal(tx, deal.number, deal.dealer)


def _end_deal(tx: _Tx, event: ev.EndDeal) -> None:
    state = tx.state
    _need_phase(state, event, Phase.DONE, Phase.BOARD)
    deal = tx.deal
    dealer = (deal.dealer + 1) % state.seats
    if state.phase is Phase.BOARD:
        tx.set_deal(number=deal.number + 1, dealer=dealer, scores_at_start=state.scores)
        return
    _start_deal(tx, deal.number + 1, dealer)


def _next_game(tx: _Tx, event: ev.NextGame) -> None:
    state = tx.state
    _need_phase(state, event, Phase.GAME_OVER)
    teams = len(state.scores)
    tx.set(scores=(0,) * teams, rear=(0,) * teams, winner=None, deal=None,
           game_number=state.game_number + 1, phase=Phase.CUT)
    deciding = state.match_games > 1 and state.game_number + 1 == state.match_games
    if deciding:
        tx.alert("recut", "deciding game: cut for the deal")
        return
    _start_game(tx, ((state.first_dealer or 0) + 1) % state.seats)


_HANDLERS: dict[type[ev.Event], Callable[[_Tx, Any], None]] = {
    ev.NewGame: _new_game,
    ev.CutForDeal: _cut,
    ev.Starter: _starter,
    ev.HandCards: _hand,
    ev.Lay: _lay,
    ev.Go: _go,
    ev.Claim: _claim,
    ev.Muggins: _muggins,
    ev.Crib: _crib,
    ev.Discard: _discard,
    ev.Peg: _manual_peg,
    ev.Penalty: _penalty,
    ev.Misdeal: _misdeal,
    ev.EndDeal: _end_deal,
    ev.NextGame: _next_game,
}
