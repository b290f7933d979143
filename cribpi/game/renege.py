"""A renege claimed, as ACC rule 7.3 rules it: the play goes back to the false go.

A player who says go holding a card that fits has reneged. The table cannot see hands, so it
finds out when that card is laid later (or the hand is entered) and says so (``AlertKind.RENEGE``,
:func:`cribpi.game.play.check_renege`). The opponent may then claim it, up to the time he lays
his next card or his hand is counted. A claim (the ``Renege`` event) takes the play back to the
go: the cards laid since return to the hands, every point pegged since is cancelled, and the
claimer pegs 2 for each renege card (each card of the offender's the table has seen that would
have fitted at that go). The play then goes on from the go, correctly: it is the offender's
turn, and the cards are laid again.

It is done as a moved card is (:mod:`cribpi.game.moves`): the deal's inputs since the starter
are played again from the table just after it, only those before the go, then the cards entered
beside the play since (a hand, a discard, the crib) and any judge's penalty, then the renege's
penalty, which stays in the deal's inputs so that a later move plays it again. Undo takes a
claim back like any event.
"""

from __future__ import annotations

import dataclasses

from cribpi.exc import RulesError
from cribpi.game import events as ev
from cribpi.game.moves import Apply, replay, steps
from cribpi.game.play import RENEGE_POINTS, RENEGE_RULE, renege_opponent
from cribpi.game.queries import known_hand
from cribpi.game.state import Alert, AlertKind, Effect, GameOver, MatchOver, Pegged, Phase, State, evolve
from cribpi.game.transaction import Tx, check_seat, need_phase, who
from cribpi.rules import MAX_COUNT, Card, ScoreItem

__all__ = ["RenegeFound", "find_renege", "claim_renege", "claimers", "open_reneges"]

#: What a claim keeps of the inputs after the go: cards entered beside the play, a judge's ruling.
_KEPT = (ev.HandCards, ev.Discard, ev.Crib, ev.Penalty, ev.MugginsSet)  # a rule switched stays switched


@dataclasses.dataclass(frozen=True)
class RenegeFound:
    """A seat's false go: the count it was said at, the cards that would have fitted, how many
    of the deal's inputs came before it, and the table after each input (``tables[0]`` is the
    table just after the starter)."""

    seat: int
    count: int
    cards: tuple[Card, ...]
    before: int  # inputs of the deal's log before the go: the play goes back to tables[before]
    seen: int  # the input after which the table first saw a renege card: the claim's deadline runs from it
    tables: tuple[State, ...]


def find_renege(state: State, seat: int, apply: Apply) -> RenegeFound | None:
    """The first go of ``seat`` in this deal's play at which a card of its the table has seen
    (laid later, or in its hand entered) would have fitted; None if there is none."""
    deal = state.deal
    if deal is None or deal.base is None or state.phase not in (Phase.PLAY, Phase.SHOW):
        return None
    if not any(s == seat for s, _ in deal.gone_at):
        return None
    effects: list[Effect] = []
    tables = (deal.base, *steps(deal.base, deal.log, dict(deal.moved), apply, effects))
    known = known_hand(state, seat)
    for i in range(1, len(tables)):
        before, after = tables[i - 1].deal, tables[i].deal
        assert before is not None and after is not None
        for s, count in after.gone_at[len(before.gone_at):]:
            if s != seat:
                continue
            laid = set(before.cards_of(seat))
            cards = tuple(c for c in known if c not in laid and count + c.value <= MAX_COUNT)
            if cards:
                seen = next((j for j in range(i, len(tables)) if _shows(tables[j], seat, cards)), len(tables) - 1)
                return RenegeFound(seat, count, cards, i - 1, seen, tables)
    return None


def _shows(table: State, seat: int, cards: tuple[Card, ...]) -> bool:
    deal = table.deal
    assert deal is not None
    declared = deal.declared[seat] or ()
    return any(c in declared or c in deal.cards_of(seat) for c in cards)


def claimers(state: State, seat: int) -> tuple[int, ...]:
    """Who may claim a renege by ``seat``: the opponent (two hands, partners), else each other seat."""
    other = renege_opponent(state, seat)
    if other is not None:
        return (other,)
    return tuple(s for s in range(state.seats) if state.team_of(s) != state.team_of(seat))


def open_reneges(state: State, apply: Apply) -> tuple[tuple[int, int], ...]:
    """Each (offender, claimer) a ``Renege`` would be taken for now."""
    deal = state.deal
    if deal is None:
        return ()
    found: list[tuple[int, int]] = []
    for seat in dict.fromkeys(s for s, _ in deal.gone_at):
        renege = find_renege(state, seat, apply)
        if renege is not None:
            found.extend((seat, by) for by in claimers(state, seat) if _too_late(state, renege, by) is None)
    return tuple(found)


def _too_late(state: State, found: RenegeFound, by: int) -> str | None:
    """Why ``by`` may no longer claim it (ACC 7.3: until he plays his next card or announces
    his hand's count), else None."""
    start = found.tables[found.seen].deal
    assert start is not None
    for table in found.tables[found.seen + 1:]:
        deal = table.deal
        assert deal is not None
        if len(deal.cards_of(by)) > len(start.cards_of(by)):
            return f"{state.names[by]} has laid a card since"
        if any(s == by for s, _ in deal.hand_totals[len(start.hand_totals):]):
            return f"{state.names[by]}'s hand has been counted since"
    return None


def claim_renege(tx: Tx, event: ev.Renege, apply: Apply) -> None:
    state = tx.state
    need_phase(state, event, Phase.PLAY, Phase.SHOW)
    seat = check_seat(state, event.seat)
    name = state.names[seat]
    by = _claimer(state, seat, event.by)
    found = find_renege(state, seat, apply)
    if found is None:
        raise RulesError(f"{who(state, seat)} has no renege to claim: no card of {name}'s the table has seen "
                         "would have fitted when they said go")
    late = _too_late(state, found, by)
    if late is not None:
        raise RulesError(f"too late to claim {name}'s renege: {late} ({RENEGE_RULE}: a renege is claimed before "
                         "the claimer lays his next card or his hand is counted)")
    deal = tx.deal
    assert deal.base is not None
    back = found.tables[found.before].deal
    assert back is not None
    kept = tuple(e for e in deal.log[found.before:] if isinstance(e, _KEPT))
    still_laid = {card for _, card in back.played}
    moved = tuple((c, s) for c, s in deal.moved if c in still_laid)
    log = deal.log[:found.before] + kept
    try:
        taken_back, _ = replay(deal.base, log, dict(moved), apply)
        points = RENEGE_POINTS * len(found.cards)
        penalty = ev.Penalty(by, points, "renege")
        after, effects = apply(taken_back, penalty)
    except RulesError as exc:
        raise RulesError(f"the play cannot be taken back to {name}'s go: {exc}; undo back to it instead") from None
    assert after.deal is not None
    tx.state = evolve(after, deal=evolve(after.deal, base=deal.base, log=log + (penalty,), moved=moved))
    back_cards = tuple(card for _, card in deal.played[len(back.played):])
    returned = " ".join(map(str, back_cards)) or "no card"
    cancelled = ", ".join(f"{state.team_name(t)} {old}->{new}"
                          for t, (old, new) in enumerate(zip(state.scores, taken_back.scores)) if old != new)
    cards = " ".join(map(str, found.cards))
    tx.alert(AlertKind.RENEGE_CLAIMED,
             f"renege claimed: {name} said go at {found.count} holding {cards}. The play goes back to that go: "
             f"{returned} back to the hands, the points pegged since cancelled ({cancelled or 'none'}); "
             f"{state.names[by]} pegs {points}, {RENEGE_POINTS} for each card that could have been played "
             f"({RENEGE_RULE}). {name} plays on from {found.count}",
             seat, items=(ScoreItem("renege", found.cards, points), ScoreItem("back to the hands", back_cards, 0)),
             points=points, other=by)
    tx.effects.extend(e for e in effects if isinstance(e, (Pegged, GameOver, MatchOver))
                      or (isinstance(e, Alert) and e.kind is not AlertKind.PENALTY))


def _claimer(state: State, seat: int, by: int | None) -> int:
    if by is None:
        allowed = claimers(state, seat)
        if len(allowed) != 1:
            raise RulesError(f"with {state.seats} players, say who claims {state.names[seat]}'s renege: "
                             f"{' or '.join(who(state, s) for s in allowed)}")
        return allowed[0]
    by = check_seat(state, by)
    if state.team_of(by) == state.team_of(seat):
        raise RulesError(f"{who(state, by)} cannot claim {state.names[seat]}'s renege: it is claimed by an opponent")
    return by
