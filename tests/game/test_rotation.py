"""Who leads, who plays next, and go with three and four players."""

import pytest

from cribpi.exc import RulesError
from cribpi.game import Crib, Discard, EndDeal, Go, HandCards, Lay, Mode, NewGame, Phase, Starter, show_order
from cribpi.rules import ACC

from game_script import C, Script, cards

THREE = ACC.replace(players=3)
FOUR = ACC.replace(players=4)
PAIRS = ACC.replace(players=4, partnerships=True)


def test_three_players_left_of_dealer_leads_and_shows_first():
    s = Script(NewGame(("A", "B", "C"), THREE, Mode.COUNT, first_dealer=2))
    s(Starter(C("KS")))
    assert s.state.deal.turn == 0  # the player on the dealer's left
    assert show_order(s.state) == (0, 1, 2)


def test_three_player_go_passes_to_everyone_then_last_card_pegs_and_left_leads():
    s = Script(NewGame(("A", "B", "C"), THREE, Mode.COUNT, first_dealer=2))
    s(Starter(C("KS")))
    s(Lay(0, C("TC")), Lay(1, C("JD")), Lay(2, C("9H")))  # 29
    s(Go(0))
    assert s.state.deal.turn == 1  # B may still be able to play
    s(Lay(1, C("2C")))  # 31 for two
    assert s.points(1) == 2
    assert s.state.deal.count == ()
    assert s.state.deal.turn == 2  # left of the 31's player leads


def test_three_player_go_after_everyone_cannot_play_gives_one_to_last_layer():
    s = Script(NewGame(("A", "B", "C"), THREE, Mode.COUNT, first_dealer=2))
    s(Starter(C("KS")))
    s(Lay(0, C("TC")), Lay(1, C("JD")), Lay(2, C("8H")))  # 28
    s(Go(0), Go(1))
    assert s.state.deal.turn == 2  # C laid last; may continue
    s(Go(2))
    assert s.points(2, "play") == 1
    assert s.state.deal.turn == 0  # left of C leads the next count


def test_four_individual_players_rotate_clockwise_and_skip_gone_seats():
    s = Script(NewGame(("A", "B", "C", "D"), FOUR, Mode.COUNT, first_dealer=3))
    s(Starter(C("KS")))
    assert s.state.deal.turn == 0
    s(Lay(0, C("TC")), Lay(1, C("JD")), Lay(2, C("5H")))  # 25
    s(Lay(3, C("6H")))  # 31
    assert s.state.deal.turn == 0
    s(Lay(0, C("9C")), Lay(1, C("9D")), Lay(2, C("9H")))  # pair, pair royal at 27
    assert s.points(1) == 2 and s.points(2) == 6
    s(Go(3))
    assert s.state.deal.turn == 0
    s(Go(0), Go(1))
    assert s.state.deal.turn == 2
    s(Lay(2, C("4S")))  # 31
    assert s.points(2) == 6 + 2
    assert s.state.deal.turn == 3


def test_partnership_points_go_to_the_team_track():
    s = Script(NewGame(("A", "B", "C", "D"), PAIRS, Mode.COUNT, first_dealer=3))
    s(Starter(C("JS")))  # heels: dealer D is on team 1
    assert s.state.scores == (0, 2)
    s(Lay(0, C("5C")), Lay(1, C("TD")))  # B (team 1) fifteen two
    s(Lay(2, C("5H")), Lay(3, C("5D")))  # C pairs? no: 5 after 5H → pair for... order 5C TD 5H 5D
    assert s.state.scores == (0, 2 + 2 + 2)  # D pairs C's five
    assert len(s.state.scores) == 2


def test_wrong_seat_is_refused_and_changes_nothing():
    s = Script(NewGame(("A", "B"), ACC, Mode.COUNT, first_dealer=1), Starter(C("KS")))
    before = s.state
    with pytest.raises(RulesError, match="turn"):
        s.game.apply(Lay(1, C("5H")))
    assert s.state is before


@pytest.mark.parametrize("entered, event, message", [
    ((), Lay(0, C("KS")), "already been seen"),  # the starter
    ((Discard(1, cards("QD JD")),), Lay(0, C("QD")), "already been seen"),
    ((Crib(cards("QD JD 4C 4D")),), Lay(0, C("4C")), "already been seen"),
    ((HandCards(1, cards("9H 8H 7H 6H")),), Lay(0, C("9H")), "already been seen"),
    ((), Go(0), "every card fits"),
])
def test_impossible_input_is_refused(entered, event, message):
    s = Script(NewGame(("A", "B"), ACC, Mode.COUNT, first_dealer=1), Starter(C("KS")), *entered)
    with pytest.raises(RulesError, match=message):
        s.game.apply(event)


def test_card_past_31_fifth_card_and_duplicates_are_refused():
    s = Script(NewGame(("A", "B"), ACC, Mode.COUNT, first_dealer=1), Starter(C("KS")))
    s(Lay(0, C("TC")), Lay(1, C("TD")), Lay(0, C("9C")))
    with pytest.raises(RulesError, match="past 31"):
        s.game.apply(Lay(1, C("3D")))
    with pytest.raises(RulesError, match="already been seen"):
        s.game.apply(Lay(1, C("9C")))
    s(Lay(1, C("2D")))  # 31
    s(Lay(0, C("AC")), Lay(1, C("AD")), Lay(0, C("2C")))
    s(Lay(1, C("3D")))
    assert s.state.deal.cards_of(0) == cards("TC 9C AC 2C")
    assert s.state.phase is Phase.SHOW
    with pytest.raises(RulesError):
        s.game.apply(Lay(0, C("4C")))


def test_go_refused_while_an_entered_hand_holds_a_card_that_fits():
    s = Script(NewGame(("A", "B"), ACC, Mode.COUNT, first_dealer=1))
    s(HandCards(0, cards("TC 9C AC 2C")), Starter(C("KS")))
    s(Lay(0, C("TC")), Lay(1, C("TD")))
    s(Lay(0, C("9C")))  # 29
    s(Go(1))
    with pytest.raises(RulesError, match="AC"):
        s.game.apply(Go(0))
    with pytest.raises(RulesError, match="not in"):
        s.game.apply(Lay(0, C("AH")))


def test_deal_passes_left_and_counts_crib_for_the_dealer():
    s = Script(NewGame(("A", "B", "C"), THREE, Mode.COUNT, first_dealer=0))
    s(Starter(C("KS")))
    hands = {1: cards("AC 2C 3C 4C"), 2: cards("AD 2D 3D 4D"), 0: cards("AH 2H 3H 4H")}
    from game_script import play_out
    play_out(s, hands)
    s(Crib(cards("5C 5D 5H 5S")))
    assert s.points(0, "crib") == 28  # double pair royal 12, four 5-5-5 and four K-5 fifteens 16
    assert s.state.phase is Phase.DONE
    s(EndDeal())
    assert s.state.deal.dealer == 1 and s.state.deal.number == 2
