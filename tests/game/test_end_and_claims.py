"""The exact instant of the win, claims, overclaims and muggins, matches."""

import pytest

from cribpi.exc import RulesError
from cribpi.game import (
    Alert, AlertKind, Claim, Crib, CutForDeal, EndDeal, Go, HandCards, Lay, Misdeal, Mode, Muggins, NewGame, NextGame, Peg,
    Pegged, Penalty, Phase, Reason, Starter, Undo, Where,
)
from cribpi.rules import ACC, HOYLE, LEAFLET, MugginsScope, ResultKind, count_total

from game_script import C, Script, cards, play_out, set_scores

PONE, DEALER = 0, 1
PONE_HAND = cards("9H 6C 4C 5C")
DEALER_HAND = cards("5D 5H 5S JD")


def deal(start=(0, 0), starter="2S", mode=Mode.COUNT, rules=ACC, crib="KC QD 8S 7D"):
    s = Script(NewGame(("Pone", "Dealer"), rules, mode, first_dealer=DEALER))
    set_scores(s.game, *start)
    s(Starter(C(starter)))
    if s.state.phase is Phase.PLAY:
        play_out_claiming(s) if mode is Mode.CLAIM else play_out(s, {PONE: PONE_HAND, DEALER: DEALER_HAND})
    if s.state.phase is Phase.SHOW and mode is Mode.COUNT:
        s(Crib(cards(crib)))
    return s


def play_out_claiming(s):
    from cribpi.game import Go, Lay
    hands = {PONE: PONE_HAND, DEALER: DEALER_HAND}
    while s.state.phase is Phase.PLAY:
        deal_ = s.state.deal
        if deal_.unclaimed:
            s(Claim(deal_.unclaimed[0].seat, deal_.unclaimed[0].points))
            continue
        seat = deal_.turn
        room = 31 - count_total(deal_.count)
        fits = [c for c in hands[seat] if c not in deal_.cards_of(seat) and c.value <= room]
        s(Lay(seat, fits[0]) if fits else Go(seat))


def test_peg_out_on_heels_ends_the_game_before_any_card():
    s = deal(start=(50, 119), starter="JC")
    over = s.game_over()
    assert over and over.winner == DEALER
    assert s.state.scores == (50, 121)
    assert s.state.deal.played == ()
    assert over.result.kind is ResultKind.DOUBLE_SKUNK


def test_heels_cannot_peg_out_under_the_house_rule():
    s = deal(start=(50, 119), starter="JC", rules=ACC.replace(heels_peg_out=False))
    assert s.state.scores[DEALER] >= 119
    assert not any(isinstance(e, Pegged) and e.reason is Reason.HEELS for e in s.effects)
    assert any(isinstance(e, Alert) and e.kind is AlertKind.HEELS for e in s.effects)


def _trial():
    return deal()


def test_peg_out_in_the_play_stops_at_that_card():
    trial = _trial()
    first_dealer_peg = next(e for e in trial.effects if getattr(e, "seat", None) == DEALER and getattr(e, "points", 0))
    s = deal(start=(0, 121 - first_dealer_peg.points))
    assert s.game_over().winner == DEALER
    assert s.state.phase is Phase.MATCH_OVER
    assert s.points(PONE, Reason.HAND) == 0 and s.points(DEALER, Reason.HAND) == 0


@pytest.mark.parametrize("where", ["pone hand", "dealer hand", "crib"])
def test_peg_out_in_each_place_of_the_show(where):
    t = _trial()
    play = {seat: t.points(seat, Reason.PLAY) for seat in (PONE, DEALER)}
    hand = {seat: t.points(seat, Reason.HAND) for seat in (PONE, DEALER)}
    crib = t.points(DEALER, Reason.CRIB)
    assert crib > 0 and hand[PONE] > 0 and hand[DEALER] > 0
    if where == "pone hand":
        start = (121 - play[PONE] - hand[PONE], 0)
        winner = PONE
    elif where == "dealer hand":
        start = (121 - play[PONE] - hand[PONE] - 1, 121 - play[DEALER] - hand[DEALER])
        winner = DEALER
    else:
        start = (0, 121 - play[DEALER] - hand[DEALER] - crib)
        winner = DEALER
    s = deal(start=start)
    assert s.game_over().winner == winner
    assert s.state.scores[winner] == 121
    if where != "crib":
        assert s.points(DEALER, Reason.CRIB) == 0


def test_claim_mode_pegs_claims_corrects_overclaims_hoyle_gives_two():
    s = Script(NewGame(("Pone", "Dealer"), HOYLE, Mode.CLAIM, first_dealer=DEALER))
    s(Starter(C("2S")), Lay(PONE, C("5C")), Lay(DEALER, C("TD")))
    s(Claim(DEALER, 4))  # a fifteen is 2
    assert s.state.scores == (2, 2)  # corrected to 2, and the pone pegs 2 (Hoyle)
    alert = next(e for e in s.effects if isinstance(e, Alert) and e.kind is AlertKind.OVERCLAIM)
    assert (alert.seat, alert.where, alert.points, alert.claimed, alert.other) == (DEALER, Where.PLAY, 2, 4, PONE)
    assert [(e.seat, e.points, e.reason) for e in s.effects if isinstance(e, Pegged)][-2:] == [
        (DEALER, 2, Reason.PLAY), (PONE, 2, Reason.OVERCLAIM_PENALTY)]


def test_acc_overclaim_is_corrected_without_penalty():
    s = Script(NewGame(("Pone", "Dealer"), ACC, Mode.CLAIM, first_dealer=DEALER))
    s(Starter(C("2S")), Lay(PONE, C("5C")), Lay(DEALER, C("TD")), Claim(DEALER, 4))
    assert s.state.scores == (0, 2)
    alert = next(e for e in s.effects if isinstance(e, Alert) and e.kind is AlertKind.OVERCLAIM)
    assert alert.other is None  # nobody pegs a penalty


MUGGINS = ACC.replace(muggins=MugginsScope.ACC)


def _underclaimed_show(rules):
    s = Script(NewGame(("Pone", "Dealer"), rules, Mode.CLAIM, first_dealer=DEALER))
    s(Starter(C("2S")))
    play_out_claiming(s)
    pending = s.state.deal.pending
    assert pending.where is Where.HAND and pending.seat == PONE
    s(Claim(PONE, pending.points - 2))
    return s, pending


def test_muggins_offers_the_missed_items_and_the_caller_takes_them():
    s, pending = _underclaimed_show(MUGGINS)
    alert = next(e for e in s.effects if isinstance(e, Alert) and e.kind is AlertKind.MUGGINS)
    assert alert.items == pending.items and f"claimed {pending.points - 2} of {pending.points}" in alert.text
    assert (alert.seat, alert.where, alert.points, alert.claimed) == (PONE, Where.HAND, pending.points, pending.points - 2)
    before = s.state.scores[DEALER]
    s(Muggins(DEALER, 5))  # never more than the true amount
    assert s.state.scores[DEALER] == before + 2
    with pytest.raises(RulesError):
        s.game.apply(Muggins(PONE, 0))


def test_wrong_muggins_gives_the_other_player_the_points():
    s, _ = _underclaimed_show(MUGGINS)
    dealer_pending = s.state.deal.pending
    s(Claim(DEALER, dealer_pending.points))  # closes the pone's muggins window; the dealer's right claim is open
    with pytest.raises(RulesError, match="nothing is open to muggins"):
        s.game.apply(Muggins(DEALER, 3))  # the dealer's only opponent has nothing open any more
    before = s.state.scores[DEALER]
    effects = s.game.apply(Muggins(PONE, 3))  # on the dealer's hand, claimed right
    assert s.state.scores[DEALER] == before + 3
    alert = next(e for e in effects if isinstance(e, Alert))
    assert (alert.kind, alert.seat, alert.other, alert.points) == (AlertKind.WRONG_MUGGINS, PONE, DEALER, 3)
    assert [(e.seat, e.reason) for e in effects if isinstance(e, Pegged)] == [(DEALER, Reason.WRONG_MUGGINS)]


def test_muggins_off_records_the_underclaim_and_refuses_a_call():
    s, _ = _underclaimed_show(ACC)
    assert any(getattr(e, "kind", "") == "underclaim" for e in s.effects)
    with pytest.raises(RulesError, match="muggins"):
        s.game.apply(Muggins(DEALER, 2))


def test_a_play_score_can_be_claimed_until_its_player_lays_again():
    s = Script(NewGame(("Pone", "Dealer"), MUGGINS, Mode.CLAIM, first_dealer=DEALER))
    s(Starter(C("2S")), Lay(PONE, C("5C")), Lay(DEALER, C("TD")))
    s(Lay(PONE, C("5H")))  # the pone's card does not take the dealer's fifteen away
    assert not s.state.deal.missed
    s(Claim(DEALER, 2))
    assert s.state.scores == (0, 2)


def test_play_underclaim_muggins_window_closes_when_the_player_pegs_again():
    s = Script(NewGame(("Pone", "Dealer"), MUGGINS, Mode.CLAIM, first_dealer=DEALER))
    s(Starter(C("2S")), Lay(PONE, C("5C")), Lay(DEALER, C("TD")))
    s(Lay(PONE, C("5H")), Lay(DEALER, C("AD")))  # the dealer lays again: the fifteen is missed
    assert s.state.deal.missed and s.state.deal.missed[0].seat == DEALER
    s(Muggins(PONE, 2))
    assert s.state.scores[PONE] == 2


def test_heels_are_lost_only_once_the_dealer_plays():
    s = Script(NewGame(("Pone", "Dealer"), ACC, Mode.CLAIM, first_dealer=DEALER))
    s(Starter(C("JD")), Lay(PONE, C("5C")))
    assert s.state.deal.unclaimed[0].where is Where.HEELS
    s(Claim(DEALER, 2))
    assert s.state.scores == (0, 2)
    s2 = Script(NewGame(("Pone", "Dealer"), ACC, Mode.CLAIM, first_dealer=DEALER))
    s2(Starter(C("JD")), Lay(PONE, C("5C")), Lay(DEALER, C("5D")))
    assert any(isinstance(e, Alert) and e.kind is AlertKind.UNDERCLAIM and e.where is Where.HEELS and "heels" in e.text
               for e in s2.effects)
    assert s2.state.scores == (0, 0)


def test_the_show_waits_for_the_plays_last_claims():
    s = Script(NewGame(("Pone", "Dealer"), ACC, Mode.CLAIM, first_dealer=DEALER))
    s(Starter(C("KS")))
    hands = {PONE: cards("AC 2C 3C 4C"), DEALER: cards("AD 2D 3D 4D")}
    play_out(s, hands)
    assert s.state.phase is Phase.PLAY and s.state.deal.turn is None and s.state.deal.unclaimed
    waiting = {m.seat for m in s.state.deal.unclaimed}
    for seat in {PONE, DEALER} - waiting:
        with pytest.raises(RulesError, match="nothing to claim"):
            s.game.apply(Claim(seat, 1))
    while s.state.deal.unclaimed:
        m = s.state.deal.unclaimed[0]
        s(Claim(m.seat, m.points))
    assert s.state.phase is Phase.SHOW


def test_a_wrong_muggins_call_is_capped_and_accuses_the_last_claimant():
    s, _ = _underclaimed_show(MUGGINS)
    with pytest.raises(RulesError, match="1-29"):
        s.game.apply(Muggins(DEALER, 60))


def test_the_same_card_cannot_be_laid_twice_from_an_entered_hand():
    from cribpi.game import HandCards
    s = Script(NewGame(("A", "B"), ACC, Mode.COUNT, first_dealer=0))
    s(HandCards(1, cards("KH QH 7H 8H")), Starter(C("2S")))
    s(Lay(1, C("KH")), Lay(0, C("KC")), Lay(1, C("QH")))
    s(Go(0), Go(1), Lay(0, C("5C")))
    with pytest.raises(RulesError, match="already been seen"):
        s.game.apply(Lay(1, C("KH")))


def test_a_renege_is_reported():
    s = Script(NewGame(("A", "B"), ACC, Mode.COUNT, first_dealer=1))
    s(Starter(C("2S")), Lay(0, C("TC")), Lay(1, C("KD")), Lay(0, C("QC")))  # 30
    s(Go(1), Go(0))  # B said go at 30...
    s(Lay(1, C("AD")))  # ...holding an ace
    alert = next(e for e in s.effects if getattr(e, "kind", "") == "renege")
    assert "go at 30" in alert.text and "AD" in alert.text
    # what the rules allow: A may claim it, 2 points a card (ACC rule 7.3)
    assert "ACC rule 7.3" in alert.text and "A may claim it" in alert.text
    assert (alert.seat, alert.other, alert.points) == (1, 0, 2)
    assert [(i.kind, i.cards, i.points) for i in alert.items] == [("renege", (C("AD"),), 2)]


def test_a_go_refused_when_the_hand_is_known_names_the_renege_rule():
    s = Script(NewGame(("A", "B"), ACC, Mode.COUNT, first_dealer=1))
    s(HandCards(1, cards("KD 5H 7H 8H")), Starter(C("2S")), Lay(0, C("TC")), Lay(1, C("KD")), Lay(0, C("5C")))
    with pytest.raises(RulesError, match=r"holds 5H, which fits at 25: .*renege, ACC rule 7.3"):
        s.game.apply(Go(1))  # known at once: the go never happens


def test_misdeal_cancels_heels_and_the_same_dealer_deals_again():
    s = Script(NewGame(("Pone", "Dealer"), ACC, Mode.COUNT, first_dealer=DEALER), Starter(C("JC")))
    assert s.state.scores == (0, 2)
    s(Misdeal())
    assert s.state.scores == (0, 0) and s.state.deal.dealer == DEALER and s.state.phase is Phase.STARTER


def test_penalty_pegs_for_a_reason_and_cannot_go_below_zero():
    s = Script(NewGame(("Pone", "Dealer"), ACC, Mode.COUNT, first_dealer=DEALER), Starter(C("KC")))
    s(Penalty(PONE, 2, "renege"))
    assert s.state.scores == (2, 0)
    with pytest.raises(RulesError, match="go back"):
        s.game.apply(Penalty(DEALER, -15, "claimed a game not won"))
    with pytest.raises(RulesError, match="reason"):
        s.game.apply(Penalty(DEALER, 2, " "))


def test_board_mode_pegs_by_hand_and_passes_the_deal():
    s = Script(NewGame(("A", "B"), ACC, Mode.BOARD, first_dealer=0))
    s(Peg(0, 12), Peg(1, 7), EndDeal())
    assert s.state.scores == (12, 7) and s.state.rear == (0, 0) and s.state.deal.dealer == 1
    s(Peg(0, 5))
    assert s.state.rear[0] == 12  # the rear peg shows the last score


def test_cut_for_deal_low_card_deals_and_ties_cut_again():
    s = Script(NewGame(("A", "B"), ACC, Mode.COUNT))
    s(CutForDeal(cards("5C 5D")))
    assert s.state.phase is Phase.CUT
    s(CutForDeal(cards("KC AD")))
    assert s.state.deal.dealer == 1 and s.state.first_dealer == 1


def test_match_second_game_alternates_first_deal_and_decider_is_cut():
    s = Script(NewGame(("A", "B"), LEAFLET, Mode.BOARD, match_games=3, first_dealer=0))
    s(Peg(0, 121))
    assert s.game_over().result.kind is ResultKind.DOUBLE_SKUNK and s.game_over().result.game_points == 4
    s(NextGame())
    assert s.state.deal.dealer == 1
    s(Peg(1, 121), NextGame())
    assert s.state.phase is Phase.CUT  # deciding game
    s(CutForDeal(cards("2C 9D")), Peg(1, 60), Peg(0, 121))
    assert s.state.phase is Phase.MATCH_OVER
    assert s.state.match_summary()["games_won"] == [2, 1]


def test_undo_back_to_the_start_exactly():
    s = Script(NewGame(("Pone", "Dealer"), ACC, Mode.COUNT, first_dealer=DEALER), Starter(C("JC")))
    states = list(s.game._states)
    s(Lay(PONE, C("5C")), Lay(DEALER, C("TD")))
    s(Undo(2))
    assert s.state == states[-1]
    s(Undo(2))
    assert s.state == states[0]
    with pytest.raises(RulesError):
        s.game.apply(Undo(1))
