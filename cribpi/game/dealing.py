"""Games and deals: set-up, the cut, misdeals, the end of a deal and of a game; and the two
ways points are pegged outside the count, board-mode pegs and a judge's penalties."""

from __future__ import annotations

from typing import Final

from cribpi.exc import RulesError
from cribpi.game import events as ev
from cribpi.game.claims import close_all_muggins
from cribpi.game.events import Mode
from cribpi.game.state import AlertKind, DealState, Phase, Reason, State, changed
from cribpi.game.transaction import Tx, check_seat, need_phase, who
from cribpi.rules import Rank, ScoreItem

__all__ = ["new_game", "cut", "misdeal", "end_deal", "next_game", "manual_peg", "penalty"]


def new_game(tx: Tx, event: ev.NewGame) -> None:
    need_phase(tx.state, event, Phase.NEW)
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
    if event.edition not in (1, ev.EDITION):
        raise RulesError(f"edition {event.edition!r} of the table's rulings is not known: 1-{ev.EDITION}")
    teams = rules.teams
    tx.set(names=names, rules=rules, mode=event.mode, scores=(0,) * teams, rear=(0,) * teams,
           match_games=event.match_games, review=event.review, game_number=1, phase=Phase.CUT,
           edition=event.edition)
    if event.first_dealer is not None:
        _start_game(tx, check_seat(tx.state, event.first_dealer))


def cut(tx: Tx, event: ev.CutForDeal) -> None:
    state = tx.state
    need_phase(state, event, Phase.CUT)
    cards = tuple(event.cards)
    if len(cards) != state.seats or len(set(cards)) != len(cards):
        raise RulesError(f"the cut needs {state.seats} different cards, one per seat in order, not {list(map(str, cards))}")
    low = min(c.rank for c in cards)
    lowest = [seat for seat, c in enumerate(cards) if c.rank == low]
    if len(lowest) > 1:
        names = " and ".join(state.names[s] for s in lowest)
        tx.alert(AlertKind.RECUT, f"{names} cut equal low cards ({Rank(low).symbol}): cut again")
        return
    tx.alert(AlertKind.CUT, f"{state.names[lowest[0]]} cuts low and deals first", lowest[0])
    _start_game(tx, lowest[0])


def _start_game(tx: Tx, dealer: int) -> None:
    tx.set(first_dealer=dealer)
    if tx.state.mode is Mode.BOARD:
        tx.set(phase=Phase.BOARD, deal=DealState(number=1, dealer=dealer, scores_at_start=tx.state.scores,
                                                 held=_full_hands(tx.state)))
        return
    _start_deal(tx, 1, dealer)


def _start_deal(tx: Tx, number: int, dealer: int) -> None:
    state = tx.state
    tx.set(phase=Phase.STARTER, deal=changed(_NO_DEAL, dict(
        number=number, dealer=dealer, declared=(None,) * state.seats, discards=(None,) * state.seats,
        scores_at_start=state.scores, held=_full_hands(state))))
    if state.rules.five_card and number == 1:
        pone = (dealer + 1) % state.seats
        tx.peg(pone, 3, Reason.THREE_FOR_LAST, (ScoreItem("three for last", (), 3),), "three to start")


#: Every field at its default: a new deal is this with a few fields changed, a dict copy
#: where ``DealState(...)`` runs the frozen ``__init__`` over every field (4 µs a deal).
_NO_DEAL: Final = DealState(number=0, dealer=0)


def _full_hands(state: State) -> tuple[int, ...]:
    return (state.rules.cards_held,) * state.seats


def misdeal(tx: Tx, event: ev.Misdeal) -> None:
    state = tx.state
    need_phase(state, event, Phase.STARTER, Phase.PLAY)
    deal = tx.deal
    if deal.played:
        raise RulesError("a misdeal must be called before the first card is laid")
    tx.set(scores=deal.scores_at_start, rear=deal.scores_at_start)
    tx.alert(AlertKind.MISDEAL, f"misdeal: {state.names[deal.dealer]} deals again")
    _start_deal(tx, deal.number, deal.dealer)


def end_deal(tx: Tx, event: ev.EndDeal) -> None:
    state = tx.state
    need_phase(state, event, Phase.DONE, Phase.BOARD)
    deal = tx.deal
    dealer = (deal.dealer + 1) % state.seats
    if deal.missed:
        close_all_muggins(tx, "the deal is over")
    if state.phase is Phase.BOARD:
        tx.set_deal(number=deal.number + 1, dealer=dealer, scores_at_start=state.scores)
        return
    _start_deal(tx, deal.number + 1, dealer)


def next_game(tx: Tx, event: ev.NextGame) -> None:
    state = tx.state
    need_phase(state, event, Phase.GAME_OVER)
    teams = len(state.scores)
    tx.set(scores=(0,) * teams, rear=(0,) * teams, winner=None, deal=None,
           game_number=state.game_number + 1, phase=Phase.CUT)
    deciding = state.match_games > 1 and state.game_number + 1 == state.match_games
    if deciding:
        tx.alert(AlertKind.RECUT, "deciding game: cut for the deal")
        return
    _start_game(tx, ((state.first_dealer or 0) + 1) % state.seats)


def manual_peg(tx: Tx, event: ev.Peg) -> None:
    state = tx.state
    need_phase(state, event, Phase.BOARD)
    seat = check_seat(state, event.seat)
    if not isinstance(event.points, int) or not 1 <= event.points <= state.rules.game_length:
        raise RulesError(f"a peg is 1-{state.rules.game_length} points, not {event.points!r} (use undo to take points back)")
    tx.peg(seat, event.points, Reason.PEG)


def penalty(tx: Tx, event: ev.Penalty) -> None:
    state = tx.state
    need_phase(state, event, Phase.STARTER, Phase.PLAY, Phase.SHOW, Phase.DONE, Phase.BOARD)
    seat = check_seat(state, event.seat)
    if not isinstance(event.points, int) or event.points == 0 or abs(event.points) > state.rules.game_length:
        raise RulesError(f"a penalty is a non-zero number of points, not {event.points!r}")
    if not event.reason.strip():
        raise RulesError("a penalty needs a reason (e.g. renege, exposed card, overpeg)")
    if state.scores[state.team_of(seat)] + event.points < 0:
        raise RulesError(f"{who(state, seat)} has only {state.scores[state.team_of(seat)]} to go back from")
    items = (ScoreItem("penalty", (), event.points),)
    tx.alert(AlertKind.PENALTY, f"penalty: {state.names[seat]} {event.points:+d} for {event.reason}", seat)
    tx.peg(seat, event.points, Reason.PENALTY, items, event.reason)
