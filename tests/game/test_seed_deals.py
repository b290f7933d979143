"""Deals scripted from the seed rule texts, with the scores the texts state."""

from cribpi.game import Crib, Go, Lay, Mode, NewGame, Pegged, Phase, Reason, Starter
from cribpi.rules import ACC

from game_script import C, Script, cards, play_out, set_scores

PONE, DEALER = 0, 1


def new_two_player(mode=Mode.COUNT, rules=ACC):
    return Script(NewGame(("Pone", "Dealer"), rules, mode, first_dealer=DEALER))


def test_003_interesting_play_dealer_pegs_11_then_24_and_24():
    s = new_two_player()
    s(Starter(C("6S")))
    play = [(PONE, "QH"), (DEALER, "5C"), (PONE, "TD"), (DEALER, "6D"),
            (PONE, "2C"), (DEALER, "4H"), (PONE, "4S"), (DEALER, "4D")]
    for seat, card in play:
        s(Lay(seat, C(card)))
    assert s.points(DEALER, "play") == 11
    assert s.points(PONE, "play") == 2
    assert s.state.phase is Phase.SHOW  # waiting for the crib; both hands already counted
    assert s.points(PONE, "hand") == 0
    assert s.points(DEALER, "hand") == 24
    s(Crib(cards("7C 8H 7D 8S")))
    assert s.points(DEALER, "crib") == 24
    assert s.state.scores == (2, 59)  # "Dealer has outscored his opponent 59-2"
    assert s.state.phase is Phase.DONE


def test_003_pegging_reasons_are_spoken():
    s = new_two_player()
    s(Starter(C("6S")))
    for seat, card in [(PONE, "QH"), (DEALER, "5C"), (PONE, "TD"), (DEALER, "6D"),
                       (PONE, "2C"), (DEALER, "4H"), (PONE, "4S"), (DEALER, "4D")]:
        s(Lay(seat, C(card)))
    explained = [e.explain for e in s.effects if isinstance(e, Pegged) and e.reason is Reason.PLAY]
    assert explained == ["fifteen two", "thirty-one is two", "a pair is two",
                         "a pair royal is six, and one for last is seven"]


def test_000_example_1():
    # A (pone) has 10 10 9 6; B (dealer) has 7 6 5 4.
    s = new_two_player()
    s(Starter(C("KS")))
    A, B = PONE, DEALER
    s(Lay(A, C("9C")), Lay(B, C("6D")))  # fifteen two
    assert s.points(B) == 2
    s(Lay(A, C("6H")))  # pair
    assert s.points(A) == 2
    s(Lay(B, C("5D")))  # 26
    s(Go(A), Lay(B, C("4D")))  # run of three
    assert s.points(B) == 5
    s(Go(B))  # B cannot lay the 7 at 30: one for the go
    assert s.points(B) == 6
    assert s.state.deal.turn == A  # "A begins again"
    s(Lay(A, C("TC")), Lay(B, C("7D")), Lay(A, C("TH")))
    assert s.points(A, "play") == 3  # the pair and one for last
    assert s.points(B, "play") == 6


def test_000_example_2_no_run_across_a_restart():
    # A (pone) has 10 8 7 5; B (dealer) has 7 6 5 4.
    s = new_two_player()
    s(Starter(C("KS")))
    A, B = PONE, DEALER
    s(Lay(A, C("8C")), Lay(B, C("7D")), Lay(A, C("7H")), Lay(B, C("6D")))
    assert (s.points(A), s.points(B)) == (2, 2)
    s(Go(A), Go(B))  # 28: neither can play, B one for last
    assert s.points(B) == 3
    s(Lay(A, C("5C")))  # no run with the 7 and 6 of the previous count
    assert s.points(A) == 2
    assert s.state.deal.count == (C("5C"),)


def _hoyle_deal(start_pone: int, start_dealer: int) -> Script:
    s = new_two_player()
    set_scores(s.game, start_pone, start_dealer)
    s(Starter(C("2S")))
    play_out(s, {PONE: cards("9H 6C 4C 5C"), DEALER: cards("5D 5H 5S JD")})
    return s


def test_hoyle_pone_counts_out_before_the_dealers_bigger_hand():
    trial = _hoyle_deal(0, 0)
    pone_play, dealer_play = trial.points(PONE, "play"), trial.points(DEALER, "play")
    pone_hand, dealer_hand = trial.points(PONE, "hand"), trial.points(DEALER, "hand")
    assert dealer_hand > pone_hand > 0
    # Both would pass 121 on their hands; the pone shows first and wins.
    s = _hoyle_deal(121 - pone_play - pone_hand, 121 - dealer_play - 1)
    over = s.game_over()
    assert over is not None and over.winner == PONE
    assert s.state.scores[PONE] == 121
    assert s.points(DEALER, "hand") == 0  # never counted
    assert s.state.phase is Phase.MATCH_OVER  # a one-game match
