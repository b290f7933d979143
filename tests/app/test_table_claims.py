"""Pegs and claims keyed at the table: PEG presses add up until OK pegs (board mode) or claims
(claim mode) the sum; UNDO drops a tally not yet confirmed."""

import random
from contextlib import contextmanager

import pytest
from table_keys import card, dismiss, mock_table, press, starter

from cribpi.app import TableSettings, TableUI
from cribpi.game import Mode, Phase
from cribpi.hal import Action, Kind
from cribpi.views.model import AlertScreen, PlayScreen, PromptScreen


def test_claim_mode_pegs_claims_from_peg_actions(table):
    parts, ui, app = table
    ui.settings = TableSettings(mode=Mode.CLAIM)
    ui.new_game()
    starter(parts, ui, app, "KS")
    dealer = ui.state.deal.dealer
    card(parts, app, "5C")
    card(parts, app, "TD")
    ui.handle(Action.peg(dealer, 1))
    press(parts, app, "peg", dealer, 1)  # the +1 key: presses add up until OK
    assert ui.state.scores[dealer] == 0 and ui.tally == (dealer, 2)
    press(parts, app, "ok")
    assert ui.state.scores[dealer] == 2


def test_board_mode_pegs_with_buttons():
    with mock_table(TableSettings(mode=Mode.BOARD)) as (parts, ui, app):
        ui.handle(Action.parse("ok"))  # cut at random
        dismiss(parts, ui, app)
        ui.handle(Action.peg(0, 12))
        ui.handle(Action.parse("ok"))
        ui.handle(Action.peg(1, 5))
        ui.handle(Action.parse("ok"))
        assert ui.state.scores == (12, 5) and ui.state.rear == (0, 0)


def test_board_mode_shows_the_cut_cards_and_who_deals():
    ui = TableUI(TableSettings(names=("Ann", "Bob"), mode=Mode.BOARD), rng=random.Random(1))
    ui.handle(Action.of_card("5H"))
    ui.handle(Action.of_card("KD"))
    assert ui.screens == [AlertScreen("Cut", ("Ann 5H, Bob KD", "Ann cuts low and deals first"))]
    ui.handle(Action.parse("ok"))
    assert ui.state.phase is Phase.BOARD and ui.screens == []
    tie = TableUI(TableSettings(names=("Ann", "Bob"), mode=Mode.BOARD), rng=random.Random(1))
    tie.handle(Action.of_card("5H"))
    tie.handle(Action.of_card("5D"))
    assert tie.screens[0].title == "Cut again" and tie.screens[0].lines[0] == "Ann 5H, Bob 5D"
    assert len(tie.screens) == 1 and tie.state.phase is Phase.CUT


def test_claim_mode_says_whose_score_is_open_but_never_how_much(table):
    parts, ui, app = table
    ui.settings = TableSettings(mode=Mode.CLAIM, names=("Ann", "Bob"))
    ui.new_game()
    starter(parts, ui, app, "KS")
    card(parts, app, "5C")
    card(parts, app, "TD")  # a fifteen, not claimed yet
    screen = ui.screen()
    assert isinstance(screen, PlayScreen) and screen.count == 15
    seat = ui.state.deal.dealer
    # the dealer's name and seat number (what a claim keys), never the points; the pone's 5C scored nothing
    assert screen.note == f"to claim: {ui.state.names[seat]} (seat {seat + 1})"


def test_a_new_game_with_fewer_seats_drops_an_unconfirmed_peg():
    ui = TableUI(TableSettings(players=4, mode=Mode.BOARD), rng=random.Random(1))
    ui.handle(Action.parse("ok"))
    ui.screens.clear()
    ui.handle(Action.peg(3, 2))  # no OK yet
    ui.settings = TableSettings(players=2, mode=Mode.BOARD)
    ui.new_game()
    ui.screen()  # must not fail
    assert ui.tally is None


def _board(names=("Ann", "Bob")):
    ui = TableUI(TableSettings(names=names, mode=Mode.BOARD), rng=random.Random(1))
    ui.handle(Action.parse("ok"))
    ui.screens.clear()
    return ui


def test_the_tally_shows_who_pegs_how_much_and_undo_drops_it():
    ui = _board()
    ui.handle(Action.peg(1, 2))
    ui.handle(Action.peg(1, 1))
    assert ui.claims.text() == "Bob 3" and ui.screen().entry == "Bob 3"
    ui.handle(Action.parse("undo"))
    assert ui.tally is None and ui.state.scores == (0, 0)


def test_a_second_seat_waits_for_the_first_peg_to_be_confirmed():
    ui = _board()
    ui.handle(Action.peg(0, 2))
    ui.handle(Action.peg(1, 2))
    assert "finish Ann's peg" in " ".join(ui.screen().lines) and ui.tally == (0, 2)


def test_a_peg_for_a_seat_not_at_the_table_is_refused():
    ui = _board()
    ui.handle(Action.peg(2, 2))
    assert "seat 3 is not at this table" in " ".join(ui.screen().lines) and ui.tally is None


@contextmanager
def pair_claimed_as(points: int):
    """A claim-mode game with muggins on: the pone leads 5H, the dealer pairs it with 5C and
    claims ``points`` of the pair's 2."""
    with mock_table(TableSettings(mode=Mode.CLAIM, muggins=True)) as (parts, ui, app):
        starter(parts, ui, app, "KS")
        dealer = ui.state.deal.dealer
        card(parts, app, "5H")
        card(parts, app, "5C")
        for _ in range(points):
            press(parts, app, "peg", dealer, 1)
        press(parts, app, "ok")
        dismiss(parts, ui, app)
        yield parts, ui, app, dealer


@pytest.fixture
def pair_claimed():
    """The pair claimed in full, so nothing is open to take."""
    with pair_claimed_as(2) as (parts, ui, app, dealer):
        assert ui.state.scores[dealer] == 2 and not any(m.missed for m in ui.state.deal.missed)
        yield parts, ui, app, dealer


def test_a_wrong_muggins_call_gives_the_accused_the_points_it_named(pair_claimed):
    parts, ui, app, dealer = pair_claimed
    caller = 1 - dealer
    press(parts, app, "muggins", caller)  # the call is opened: PEG presses name its points
    for _ in range(3):
        press(parts, app, "peg", caller, 1)
    assert ui.tally == (caller, 3)
    assert ui.screen() == PromptScreen(f"{ui.state.names[caller]} calls muggins", "3 points",
                                       f"on {ui.state.names[dealer]}: PEG adds points, OK calls it, UNDO drops it")
    press(parts, app, "ok")
    assert ui.state.scores[dealer] == 5 and ui.state.scores[caller] == 0
    alert = ui.screen()
    assert isinstance(alert, AlertScreen) and alert.title == "Wrong muggins"
    assert alert.lines[0] == (f"{ui.state.names[caller]} called muggins wrongly on {ui.state.names[dealer]}'s play: "
                              f"{ui.state.names[dealer]} pegs 3")


def test_a_muggins_call_must_name_its_points_and_undo_drops_it(pair_claimed):
    parts, ui, app, dealer = pair_claimed
    caller = 1 - dealer
    press(parts, app, "muggins", caller)
    press(parts, app, "ok")  # no points named: refused, the call stays open
    assert "names no points" in ui.screen().lines[0] and ui.tally == (caller, 0)
    press(parts, app, "undo")  # takes back the refusal
    press(parts, app, "peg", dealer, 1)  # the other seat must wait for the call
    assert "finish" in ui.screen().lines[0] and "muggins call" in ui.screen().lines[0]
    press(parts, app, "undo")
    press(parts, app, "undo")  # drops the call
    assert ui.tally is None and ui.state.scores[caller] == 0 and ui.state.scores[dealer] == 2


def test_a_muggins_call_with_its_points_takes_at_most_what_was_missed():
    with pair_claimed_as(1) as (parts, ui, app, dealer):  # the dealer claims 1 of the pair's 2
        ui.handle(Action(Kind.MUGGINS, seat=1 - dealer, points=5))  # the simulator's x seat points Enter
        assert ui.state.scores[1 - dealer] == 1 and ui.state.scores[dealer] == 1
