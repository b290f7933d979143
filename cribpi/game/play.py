"""The starter and the play: cards laid and goes said in turn, each count to its end."""

from __future__ import annotations

from cribpi.exc import RulesError
from cribpi.game import events as ev
from cribpi.game.claims import settle_unclaimed
from cribpi.game.queries import next_to_play
from cribpi.game.show import start_show
from cribpi.game.state import AlertKind, DealState, Phase, State, Where
from cribpi.game.transaction import Tx, check_seat, check_unseen, need_phase, who
from cribpi.rules import MAX_COUNT, Card, Rank, ScoreItem, score_play

__all__ = ["starter", "lay", "go", "check_renege", "renege_opponent", "RENEGE_RULE", "RENEGE_POINTS"]


def starter(tx: Tx, event: ev.Starter) -> None:
    state = tx.state
    need_phase(state, event, Phase.STARTER)
    check_unseen(tx.deal, (event.card,), "starter")
    dealer = tx.deal.dealer
    tx.set_deal(starter=event.card, seen_bits=tx.deal.seeing((event.card,)))
    _begin_play(tx)
    if event.card.rank == Rank.JACK:
        items = (ScoreItem("heels", (event.card,), 2),)
        if not state.rules.heels_peg_out and state.scores[state.team_of(dealer)] + 2 >= state.rules.game_length:
            tx.alert(AlertKind.HEELS, "his heels cannot peg out under these rules: not scored", dealer)
        else:
            tx.score(dealer, Where.HEELS, 2, items)
    tx.set_deal(base=tx.freeze())  # what a moved card's replay starts from: the play about to begin


def _begin_play(tx: Tx) -> None:
    state = tx.state
    leader = next_to_play(state, tx.deal, tx.deal.dealer)
    tx.set(phase=Phase.PLAY)
    tx.set_deal(turn=leader)


def _check_play_turn(tx: Tx, event: ev.Lay | ev.Go, what: str) -> tuple[int, DealState]:
    """The checks every card and go share: the play is on and it is this seat's turn."""
    state = tx.state
    deal = state.deal
    seat = event.seat
    if state.phase is Phase.PLAY and deal is not None and type(seat) is int and deal.turn == seat:
        return seat, deal  # the turn is a seat, so every check below would pass
    need_phase(state, event, Phase.PLAY)
    seat = check_seat(state, seat)
    deal = tx.deal
    if deal.turn != seat:
        turn = "nobody" if deal.turn is None else who(state, deal.turn)
        raise RulesError(f"{who(state, seat)} cannot {what} now: it is {turn}'s turn")
    return seat, deal


def lay(tx: Tx, event: ev.Lay) -> None:
    state = tx.state
    seat, deal = _check_play_turn(tx, event, "lay a card")
    card = event.card
    _check_card(state, deal, seat, card)
    if deal.unclaimed:
        settle_unclaimed(tx, seat)
    if deal.gone_at:
        check_renege(tx, seat, (card,))
    count = deal.count + (card,)
    scored = score_play(count, rules=state.rules)
    running = scored.running
    held = list(deal.held)
    held[seat] -= 1
    tx.set_deal(count=count, running=running, played=deal.played + ((seat, card),), last_layer=seat, held=tuple(held),
                seen_bits=deal.seen_bits | card.bit)
    items, points = scored.items, scored.total
    turn = next_to_play(tx.state, tx.deal, seat)
    ends = running == MAX_COUNT or turn is None
    if ends and running != MAX_COUNT:
        items += (_go_item(tx.deal),)
        points += 1
    tx.score(seat, Where.PLAY, points, items, running)
    if ends:
        _end_count(tx)
    else:
        tx.set_deal(turn=turn)


def _check_card(state: State, deal: DealState, seat: int, card: Card) -> None:
    """The seat holds a card, this one if its hand was entered, and it fits under 31."""
    if deal.held[seat] <= 0:
        raise RulesError(f"{who(state, seat)} has already laid {state.rules.cards_held} cards: no card is left in that hand")
    declared = deal.declared[seat]
    if declared is not None and card not in declared:
        raise RulesError(f"{card} is not in {who(state, seat)}'s hand: {' '.join(map(str, declared))}")
    allowed = frozenset() if declared is None else set(declared) - set(deal.cards_of(seat))
    check_unseen(deal, (card,), "play", allowed)
    running = deal.running
    if running + card.value > MAX_COUNT:
        raise RulesError(f"{card} would take the count from {running} to {running + card.value}, past 31: "
                         f"lay a card worth {MAX_COUNT - running} or less, or say go")


RENEGE_RULE = "ACC rule 7.3"
RENEGE_POINTS = 2  # ACC rule 7.3: to the non-offender, for each card that could have been played


def check_renege(tx: Tx, seat: int, cards: tuple[Card, ...]) -> None:
    """A card that fitted when its holder said go is a renege. The table cannot see hands, so
    it finds out when the card is laid later (or the hand is entered): the table is told what
    ACC rule 7.3 allows, and the judge's penalty pegs it if the opponent claims it."""
    state = tx.state
    for card in cards:
        at = next((count for s, count in tx.deal.gone_at if s == seat and count + card.value <= MAX_COUNT), None)
        if at is not None:
            claimer = renege_opponent(state, seat)
            by = state.names[claimer] if claimer is not None else "an opponent"
            tx.alert(AlertKind.RENEGE, f"renege: {state.names[seat]} said go at {at} holding {card}, which fitted. "
                     f"{RENEGE_RULE}: {by} may claim it before playing another card: the play goes back to the go, "
                     f"the points pegged since are cancelled, and {by} pegs {RENEGE_POINTS} "
                     f"for each card that could have been played", seat,
                     items=(ScoreItem("renege", (card,), RENEGE_POINTS),), points=RENEGE_POINTS, other=claimer)


def renege_opponent(state: State, seat: int) -> int | None:
    """The one side that may claim a renege: two hands, or partners (the next seat's side)."""
    if state.seats == 2 or state.rules.partnerships:
        return (seat + 1) % state.seats
    return None


def _go_item(deal: DealState) -> ScoreItem:
    return ScoreItem("go" if any(deal.held) else "last card", (), 1)


def go(tx: Tx, event: ev.Go) -> None:
    state = tx.state
    seat, deal = _check_play_turn(tx, event, "say go")
    running = deal.running
    if running + 10 <= MAX_COUNT:
        raise RulesError(f"{who(state, seat)} cannot say go at {running}: every card fits under 31, so a card must be laid")
    declared = deal.declared[seat]
    if declared is not None:
        fits = [c for c in declared if c not in deal.cards_of(seat) and running + c.value <= MAX_COUNT]
        if fits:
            raise RulesError(f"{who(state, seat)} holds {fits[0]}, which fits at {running}: a player who can lay "
                             f"a card must lay it (a go said anyway is a renege, {RENEGE_RULE})")
    tx.set_deal(gone=tx.deal.gone | {seat}, gone_at=tx.deal.gone_at + ((seat, running),))
    turn = next_to_play(tx.state, tx.deal, seat)
    if turn is not None:
        tx.set_deal(turn=turn)
        return
    last = tx.deal.last_layer
    assert last is not None  # a go on an empty count is refused above
    tx.score(last, Where.PLAY, 1, (_go_item(tx.deal),), running)
    _end_count(tx)


def _end_count(tx: Tx) -> None:
    """The count restarts from zero, led by the player left of the last card's player."""
    state = tx.state
    deal = tx.deal
    tx.set_deal(count=(), running=0, gone=frozenset())
    if not any(deal.held) or state.rules.five_card:
        tx.set_deal(turn=None, unclaimed=tuple(m for m in tx.deal.unclaimed if m.points))
        if not tx.deal.unclaimed:
            start_show(tx)  # else the play's last scores are claimed first
        return
    assert deal.last_layer is not None
    tx.set_deal(turn=next_to_play(state, tx.deal, deal.last_layer))
