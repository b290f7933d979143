"""The keypad's PEG and MUGGINS keys (the controller's key matrix has no key per seat): a suit
key says whose peg or call it is, rank keys add its points, OK makes it, and the OLED says at
each step what the next press does. The keys end in the table's own peg and muggins actions:
the game gets the same events as from the Pi's seat buttons or the simulator's entries."""

import random

import pytest

from cribpi.app import TableSettings, TableUI
from cribpi.game import Mode
from cribpi.hal import Action
from cribpi.hal.controller.keys import KEY_NAMES
from cribpi.views.model import AlertScreen, PromptScreen
from tests.firmware.keyplay import KeysInProcess, Player, board_game, claim_game, fixes_game, three_muggins


def table(mode=Mode.BOARD, players=2, **kw):
    names = ("Ann", "Bob", "Cy", "Di")[:players]
    ui = TableUI(TableSettings(names=names, mode=mode, players=players, **kw), rng=random.Random(1))
    keys(ui, "ok")  # the cut, at random
    ui.screens.clear()
    return ui


def keys(ui, *texts):
    """Each key's action, handled; the screen after the last."""
    for text in texts:
        ui.handle(Action.parse(text))
    return ui.screen()


def refused(ui, *texts):
    screen = keys(ui, *texts)
    assert isinstance(screen, AlertScreen) and screen.title == "Not allowed", screen
    keys(ui, "undo")  # takes back the refusal only
    return screen.lines[0]


def test_board_mode_peg_whose_then_points_then_ok():
    ui = table()
    assert keys(ui, "peg") == PromptScreen("Peg: whose?", "", "suit key: ♣Ann red ♦Bob blue", cursor=False)
    assert keys(ui, "suit D") == PromptScreen("Peg Bob (blue)", "", "A-9,T add points, a suit: another seat")
    assert keys(ui, "rank T", "rank 2") == PromptScreen("Peg Bob (blue)", "12", "A-T add more; OK pegs 12; UNDO -2")
    keys(ui, "ok")
    assert ui.state.scores == (0, 12) and not ui.pegkeys.open and ui.tally is None
    keys(ui, "ok")  # the score's screen
    keys(ui, "peg", "suit C", "rank K", "rank 9", "ok")  # face cards add 10
    assert ui.state.scores == (19, 12)


def test_the_keys_make_the_same_events_as_seat_buttons_and_the_simulator():
    by_keys, by_actions = table(), table()
    keys(by_keys, "peg", "suit D", "rank 5", "rank 3", "ok")
    for action in (Action.peg(1, 5), Action.peg(1, 3), Action.parse("ok")):  # the simulator's p 2 8 Enter
        by_actions.handle(action)
    assert by_keys.session.game.events == by_actions.session.game.events
    assert by_keys.state == by_actions.state


def test_undo_takes_back_a_rank_then_the_seat_then_the_entry():
    ui = table()
    keys(ui, "peg", "suit D", "rank 4", "rank 6")
    assert keys(ui, "undo").entry == "4" and ui.tally == (1, 4)
    assert keys(ui, "undo").entry == "" and ui.tally is None and ui.pegkeys.seat == 1
    assert keys(ui, "undo").prompt == "Peg: whose?"
    keys(ui, "undo")
    assert not ui.pegkeys.open and ui.screen().title == "Board"
    keys(ui, "peg", "suit C", "rank 7", "undo_long")  # held: the whole entry goes
    assert not ui.pegkeys.open and ui.tally is None and ui.state.scores == (0, 0)


def test_refusals_say_what_would_do_and_keep_the_entry():
    ui = table()
    keys(ui, "peg")
    assert refused(ui, "rank 3") == "first the suit key of whose peg: ♣Ann red ♦Bob blue"
    assert refused(ui, "suit H") == "♥ is seat 3: the seats here are ♣Ann red ♦Bob blue"
    keys(ui, "suit C")
    assert refused(ui, "ok") == "no points keyed for Ann: A-9 and T add them, then OK"
    keys(ui, "rank T", "rank T", "rank 9")
    assert "30 is more than one score can be (29): OK pegs 29" in refused(ui, "rank A")
    assert "Ann's points are keyed" in refused(ui, "suit D")
    assert "go does nothing while a peg is keyed" in refused(ui, "go")
    assert refused(ui, "muggins") == "finish Ann's peg with OK (or UNDO) first"
    keys(ui, "ok")
    assert ui.state.scores == (29, 0)
    assert "muggins is not played in board mode" in refused(ui, "muggins")


def test_a_rank_keyed_before_peg_is_no_longer_a_card():
    ui = table(Mode.CLAIM, muggins=True)
    keys(ui, "rank K", "peg", "undo", "suit S")  # the starter: S alone is no card
    assert ui.state.deal.starter is None


def test_nothing_is_pegged_before_the_cut():
    ui = TableUI(TableSettings(names=("Ann", "Bob"), mode=Mode.BOARD), rng=random.Random(1))
    assert "nothing is pegged before the deal: waiting for the cut" in refused(ui, "peg")
    assert not ui.pegkeys.open


def test_count_mode_has_no_peg_and_says_so():
    ui = table(Mode.COUNT)
    assert "count mode the table pegs every score itself" in refused(ui, "peg")


def test_claim_mode_peg_starts_on_the_seat_whose_claim_is_open():
    ui = table(Mode.CLAIM, muggins=True)
    keys(ui, "rank K", "suit S")  # the starter
    dealer = ui.state.deal.dealer
    pone = 1 - dealer
    keys(ui, "rank 5", "suit H", "rank 5", "suit C")  # the pone leads, the dealer pairs
    screen = keys(ui, "peg")
    name = ui.state.names[dealer]
    assert screen == PromptScreen(f"Claim {name} ({'red' if dealer == 0 else 'blue'})", "", "A-9,T add points, a suit: another seat")
    keys(ui, "rank 2", "ok")
    assert ui.state.scores[dealer] == 2
    keys(ui, "ok")
    keys(ui, "peg", f"suit {'CD'[pone]}")  # the pone's lead is still open to claim (nothing)
    assert refused(ui, "ok") == f"no points keyed for {ui.state.names[pone]}: A-9 and T add them, then OK"


def test_claim_mode_muggins_by_keys_takes_what_was_missed():
    ui = table(Mode.CLAIM, muggins=True)
    keys(ui, "rank K", "suit S")
    dealer = ui.state.deal.dealer
    caller = 1 - dealer
    keys(ui, "rank 5", "suit H", "rank 5", "suit C")
    keys(ui, "peg", "rank A", "ok")  # the dealer claims 1 of the pair's 2
    while ui.screens:
        keys(ui, "ok")
    assert ui.state.scores == tuple(1 if s == dealer else 0 for s in range(2))
    screen = keys(ui, "muggins")
    assert screen.prompt == "Muggins: who calls?" and "suit key" in screen.hint
    suit = "CD"[caller]
    screen = keys(ui, f"suit {suit}")
    name = ui.state.names[caller]
    assert screen == PromptScreen(f"{name} calls muggins", "", "A-9,T add the points called")
    assert f"{name}'s call names no points yet" in refused(ui, "ok")
    screen = keys(ui, "rank A")
    assert screen.entry == "1" and screen.hint == "A-T add more; OK calls 1; UNDO -1"
    keys(ui, "ok")
    assert ui.state.scores[caller] == 1 and not ui.pegkeys.open and ui.tally is None


def test_muggins_keys_end_in_the_simulators_muggins_action():
    def claimed_one():
        ui = table(Mode.CLAIM, muggins=True)
        keys(ui, "rank K", "suit S", "rank 5", "suit H", "rank 5", "suit C", "peg", "rank A", "ok")
        while ui.screens:
            keys(ui, "ok")
        return ui

    by_keys, by_sim = claimed_one(), claimed_one()
    caller = 1 - by_keys.state.deal.dealer
    keys(by_keys, "muggins", f"suit {'CD'[caller]}", "rank A", "ok")
    by_sim.handle(Action.muggins(caller, 1))  # the simulator's x seat 1 Enter
    assert by_keys.session.game.events == by_sim.session.game.events


@pytest.mark.parametrize("players", [3, 4])
def test_every_seat_has_its_suit_key(players):
    ui = table(players=players)
    hint = keys(ui, "peg").hint
    assert all(f"{glyph}{name}" in hint for glyph, name in zip("♣♦♥♠", ("Ann", "Bob", "Cy", "Di")[:players]))
    keys(ui, "suit " + "CDHS"[players - 1], "rank 3", "ok")
    assert ui.state.scores[players - 1] == 3


@pytest.mark.parametrize("game", [board_game, claim_game, fixes_game, three_muggins])
def test_whole_games_on_the_keypads_keys(game):
    """The scripts the firmware's key-play tests tap, here through the host's key mapping
    alone: a board-mode game, and a claim-mode game with a muggins call, to the end; a card
    moved and a penalty pegged from the menu."""
    pad = KeysInProcess()
    game(Player(pad))
    assert set(pad.taps) <= set(KEY_NAMES)


def test_peg_adds_to_a_claim_of_zero_already_keyed():
    ui = table(Mode.CLAIM, muggins=True)
    keys(ui, "rank K", "suit S", "rank 5", "suit H", "rank 5", "suit C")
    dealer = ui.state.deal.dealer
    ui.claims.tally = (dealer, 0)  # a claim of 0 keyed (OK alone asks before it claims 0)
    screen = keys(ui, "peg")
    assert ui.pegkeys.seat == dealer and screen.prompt.startswith(f"Claim {ui.state.names[dealer]}")
    keys(ui, "rank 2", "ok")
    assert ui.state.scores[dealer] == 2 and not ui.pegkeys.open and ui.tally is None


def test_partners_show_their_teams_track_colour():
    ui = table(players=4, partnerships=True)
    assert keys(ui, "peg").hint == "suit key: ♣Ann red ♦Bob blue ♥Cy red ♠Di blue"
    keys(ui, "suit H", "rank 6", "ok")
    assert ui.state.scores == (6, 0)  # Cy pegs on the team's track


def test_undo_takes_back_a_claim_of_zero_peg_continued():
    ui = table(Mode.CLAIM, muggins=True)
    keys(ui, "rank K", "suit S", "rank 5", "suit H", "rank 5", "suit C")
    pone = 1 - ui.state.deal.dealer
    ui.claims.tally = (pone, 0)  # a claim of 0 keyed for the pone's lead
    keys(ui, "peg", "undo")  # the seat, and the claim of 0 with it
    assert ui.tally is None and ui.pegkeys.open and ui.pegkeys.seat is None


def test_a_hand_of_nothing_is_claimed_with_peg_and_ok():
    pad = KeysInProcess(TableSettings(names=("Ann", "Bob"), mode=Mode.CLAIM))
    player, ui = Player(pad), pad.ui
    player.card("AC")  # the cut: Ann deals, Bob shows first
    player.card("KD")
    player.dismiss()
    player.card("KS")
    player.dismiss()
    player.play([("2C", "4D", "6H", "8S"), ("AH", "3D", "7C", "9S")])
    assert ui.state.deal.pending.seat == 1 and ui.state.deal.pending.points == 0  # Bob's hand: nothing
    before = ui.state.scores
    assert player.claim_open()  # PEG (on Bob), OK; the OLED asks "OK claims 0"; OK
    assert pad.taps[-3:] == ["peg", "ok", "ok"] and player.zeros == 1
    assert ui.state.scores == before and ui.state.deal.pending.seat == 0  # Ann's hand is next
