"""A card laid for the wrong seat, moved to the seat that laid it: the play is scored again.

Entering cards, the table credits each one to whoever's turn it is, so a go nobody entered, or
a card keyed for the wrong player, gives its points to the wrong seat. ``MoveCard`` says whose
the card was. The deal keeps the table as it was just after the starter (``DealState.base``)
and every input since, as entered (``DealState.log``); a move plays those inputs again from
the base, each card and go credited to the seat whose turn it is, the moved cards
(``DealState.moved``) to the seats named, each seat passed over to reach one saying go. The
corrected play is the engine's own: a card that could not have been laid there, or an input
after it that no longer fits, refuses the move and nothing changes. Undo takes a move back.

A move (or an undo) tells no score of its own, so :func:`latest_score` finds what the table
shows as the last score: the deal's inputs played again from the base, as :func:`replay` does,
give the latest score with the reasons the rules gave it ("thirty-one is two", not "play").
When nothing has scored since the starter, the latest score is one made before the play (his
heels, a judge's penalty at the starter, five-card's three to start): it is rebuilt from the
base as it was pegged, a penalty's reason from its event, which only the game's events keep.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from cribpi.exc import RulesError
from cribpi.game import events as ev
from cribpi.game.queries import cards_left
from cribpi.game.state import (
    Alert, AlertKind, DealState, Effect, GameOver, MatchOver, Pegged, Phase, PlayInput, Reason, State, evolve,
)
from cribpi.game.transaction import Tx, check_seat, need_phase, who
from cribpi.rules import MAX_COUNT, Card, ScoreItem

__all__ = ["move_card", "latest_score", "replay", "steps", "Apply"]

Apply = Callable[[State, ev.Event], tuple[State, tuple[Effect, ...]]]


def move_card(tx: Tx, event: ev.MoveCard, apply: Apply) -> None:
    state = tx.state
    need_phase(state, event, Phase.PLAY, Phase.SHOW, Phase.DONE)
    seat = check_seat(state, event.seat)
    deal = tx.deal
    laid = {card: s for s, card in deal.played}
    if event.card not in laid or deal.base is None:
        shown = " ".join(f"{c}" for _, c in deal.played) or "none yet"
        raise RulesError(f"{event.card} was not laid in this deal's play: move one of the cards laid ({shown})")
    if laid[event.card] == seat:
        raise RulesError(f"{event.card} is already {who(state, seat)}'s card: name another seat")
    moved = tuple((c, s) for c, s in deal.moved if c != event.card) + ((event.card, seat),)
    after, effects = replay(deal.base, deal.log, dict(moved), apply)
    tx.state = evolve(after, deal=evolve(after.deal, base=deal.base, log=deal.log, moved=moved))
    changes = ", ".join(f"{state.team_name(t)} {old}->{new}"
                        for t, (old, new) in enumerate(zip(state.scores, after.scores)) if old != new)
    tx.alert(AlertKind.MOVED, f"{event.card} moved from {state.names[laid[event.card]]} to {state.names[seat]}: "
             f"the play scored again ({changes or 'no score changes'})", seat, other=laid[event.card])
    tx.effects.extend(e for e in effects if isinstance(e, (GameOver, MatchOver)) or _new_renege(e, deal, after))


def latest_score(state: State, apply: Apply, said: Sequence[ev.Event] = ()) -> Pegged | None:
    """The deal's latest score, as it was pegged (its items, its note), or None: no deal under
    way, no base to play from (before the starter) or nothing scored in the deal. ``said``: the
    events in force that led to ``state`` (``Game.events``), where a penalty given before the
    starter keeps its reason; only the deal's last events are read, and only for such a penalty.
    Without them that penalty is rebuilt without its reason."""
    deal = state.deal
    if deal is None or deal.base is None:
        return None
    if deal.log:
        try:
            _, effects = replay(deal.base, deal.log, dict(deal.moved), apply)
        except RulesError:
            return None  # the state's own inputs always play again; a hand-made state may not
        pegged = next((e for e in reversed(effects) if isinstance(e, Pegged)), None)
        if pegged is not None:
            return pegged
    return _before_play(deal.base, said)


def _before_play(base: State, said: Sequence[ev.Event]) -> Pegged | None:
    """The last score pegged before the play, rebuilt as the starter (his heels), a judge's
    penalty or five-card's start pegged it (tests/game/test_latest_score.py holds each to the
    engine's own). The base is the table just after it, so its score is the side's score there."""
    deal = base.deal
    if deal is None or not deal.pegged:
        return None
    seat, points, reason = deal.pegged[-1]
    team = base.team_of(seat)
    items: tuple[ScoreItem, ...] = ()
    note = ""
    if reason is Reason.HEELS and deal.starter is not None:
        items = (ScoreItem("heels", (deal.starter,), points),)
    elif reason is Reason.PENALTY:
        note = _penalty_reason(said, seat, points)
        items = (ScoreItem("penalty", (), points),) if note else ()  # no reason: "penalty", not its items' count
    elif reason is Reason.THREE_FOR_LAST:
        items, note = (ScoreItem("three for last", (), points),), "three to start"
    return Pegged(seat, team, points, reason, items, base.scores[team], note)


def _penalty_reason(said: Sequence[ev.Event], seat: int, points: int) -> str:
    """The reason of the penalty just before the deal's starter, if it is this one (else "")."""
    for back in range(len(said) - 1, 0, -1):  # from the latest event: the starter is a deal back at most
        if isinstance(said[back], ev.Starter):
            penalty = said[back - 1]
            if isinstance(penalty, ev.Penalty) and (penalty.seat, penalty.points) == (seat, points):
                return penalty.reason
            return ""
    return ""


def _new_renege(effect: Effect, before: DealState, after: State) -> bool:
    """A renege the corrected play shows and the play as entered did not: a card laid after a
    go the move put in, which would have fitted at that go (the replay's other alerts were
    told when their inputs were entered)."""
    if not isinstance(effect, Alert) or effect.kind is not AlertKind.RENEGE or not effect.items:
        return False
    gos = set(after.deal.gone_at if after.deal is not None else ()) - set(before.gone_at)
    card = effect.items[0].cards[0]
    return any(seat == effect.seat and count + card.value <= MAX_COUNT for seat, count in gos)


def replay(base: State, log: Iterable[PlayInput], moved: dict[Card, int], apply: Apply) -> tuple[State, list[Effect]]:
    """The deal's inputs applied again from ``base``, each card and go credited to the seat
    whose turn it is, a moved card to its seat after a go from each seat passed over."""
    state, effects = base, list[Effect]()
    for state in steps(base, log, moved, apply, effects):
        pass
    return state, effects


def steps(base: State, log: Iterable[PlayInput], moved: dict[Card, int], apply: Apply,
          effects: list[Effect]) -> Iterator[State]:
    """:func:`replay` an input at a time: the table after each input of ``log`` (the goes
    nobody entered before a moved card included), its effects added to ``effects``."""
    state = base
    for raw in log:
        owner = _owner(state, raw, moved)
        while owner is not None and (turn := _turn(state)) is not None and turn != owner:
            state = _step(state, ev.Go(turn), base, moved, apply, effects)  # the go nobody entered
        state = _step(state, _credited(state, raw), base, moved, apply, effects)
        yield state
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            break  # nothing after the winning instant counts


def _step(state: State, event: ev.Event, base: State, moved: dict[Card, int], apply: Apply,
          effects: list[Effect]) -> State:
    try:
        state, out = apply(state, event)
    except RulesError as exc:
        raise RulesError(f"the play cannot be scored again with {_moves(base, moved)}: {_said(base, event)} "
                         f"is refused ({exc}); undo back to the card instead") from None
    effects.extend(out)
    return state


def _turn(state: State) -> int | None:
    return state.deal.turn if state.deal is not None else None


def _credited(state: State, raw: PlayInput) -> ev.Event:
    """A card or a go is the turn's (a moved card's seat has the turn by now); the rest as entered."""
    turn = _turn(state)
    if turn is None or not isinstance(raw, (ev.Lay, ev.Go)):
        return raw  # the engine says what is wrong with it, if anything
    return ev.Lay(turn, raw.card) if isinstance(raw, ev.Lay) else ev.Go(turn)


def _owner(state: State, raw: PlayInput, moved: dict[Card, int]) -> int | None:
    """The seat a moved card was laid by, when that seat can have laid it here."""
    if not isinstance(raw, ev.Lay) or raw.card not in moved or _turn(state) is None:
        return None
    seat = moved[raw.card]
    deal = state.deal
    assert deal is not None
    if seat in deal.gone or cards_left(state, seat) <= 0:
        why = "had said go on this count" if seat in deal.gone else "had no card left"
        raise RulesError(f"{who(state, seat)} cannot have laid {raw.card}: {why}")
    return seat


def _moves(state: State, moved: dict[Card, int]) -> str:
    return ", ".join(f"{card} laid by {state.names[seat]}" for card, seat in moved.items())


def _said(state: State, event: ev.Event) -> str:
    seat = getattr(event, "seat", None)
    name = state.names[seat] if isinstance(seat, int) and 0 <= seat < state.seats else "the table"
    card = getattr(event, "card", None)
    return f"{name}'s {event.kind}" + (f" of {card}" if card is not None else "")
