"""cribpi.views.table: real tables (a Game fed real events) -> the screens and board they show,
phase by phase: the cut, the starter, the play, claims, the show, alerts, game and match over."""

from __future__ import annotations

import dataclasses

import pytest

from cribpi.game import (
    Alert, AlertKind, Claim, Crib, CutForDeal, Effect, Event, Game, Go, Lay, Misdeal, Mode, Muggins, NewGame, NextGame, Peg,
    Penalty, Phase, Starter, legal_cards,
)
from cribpi.rules import ACC, HOYLE, Card, MugginsScope, Rules, ScoreItem
from cribpi.views import pages, show_pages
from cribpi.views.board import Animation, DEFAULT_COLOURS
from cribpi.views.model import (
    AlertScreen, MessageScreen, PlayScreen, PromptScreen, ScoreLine, ScoreScreen,
    ShowScreen,
)
from cribpi.views.table import (
    ALERT_TITLES, alert_lines, board_model, effect_screens, flash_from, game_over_screen, last_score_line, phase_screen,
    scores_screen,
)

ANN, BEN = 0, 1  # Ben deals, so Ann (the pone) leads and shows first
ANN_HAND = "9H 6C 4C 5C"
BEN_HAND = "5D 5H 5S JD"
CRIB = "KC QD 8S 7D"
MUGGINS = ACC.replace(muggins=MugginsScope.ACC)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(token) for token in text.split())


class Table:
    """A Game and the effects of the last event applied."""

    def __init__(self, rules: Rules = ACC, mode: Mode = Mode.COUNT, dealer: int | None = BEN,
                 match_games: int = 1) -> None:
        self.game = Game([NewGame(("Ann", "Ben"), rules, mode, match_games, dealer)])
        self.effects: tuple[Effect, ...] = ()

    def __call__(self, *events: Event) -> Table:
        for event in events:
            self.effects = self.game.apply(event)
        return self

    @property
    def state(self):
        return self.game.state

    def screens(self):
        return effect_screens(self.state, self.effects)

    def alert(self, kind: AlertKind) -> Alert:
        return next(e for e in self.effects if isinstance(e, Alert) and e.kind is kind)

    def play_out(self, claim: bool = False) -> list[tuple[Effect, ...]]:
        """Each seat lays its first card that fits, else says go; in claim mode each score is
        claimed in full first. Returns the effects of every event."""
        hands = {ANN: cards(ANN_HAND), BEN: cards(BEN_HAND)}
        out = []
        while self.state.phase is Phase.PLAY and (self.state.deal.turn is not None or self.state.deal.unclaimed):
            deal = self.state.deal
            if claim and deal.unclaimed:
                self(Claim(deal.unclaimed[0].seat, deal.unclaimed[0].points))
            else:
                fits = [c for c in hands[deal.turn] if c in legal_cards(self.state)]
                self(Lay(deal.turn, fits[0]) if fits else Go(deal.turn))
            out.append(self.effects)
        return out


# -- before the play ----------------------------------------------------------------------


def test_before_a_game_the_menu_is_offered():
    assert phase_screen(Game().state) == MessageScreen(("MENU: new game",), "cribpi")


def test_the_cut_asks_for_a_card_per_seat_and_shows_what_is_entered():
    table = Table(dealer=None)
    assert table.state.phase is Phase.CUT
    assert phase_screen(table.state) == PromptScreen("Cut for deal", "", "enter a card per seat, OK: random")
    assert phase_screen(table.state, entry="5H") == PromptScreen("Cut: 5H", "", "enter a card per seat, OK: random")


def test_a_tie_for_low_cuts_again_and_the_winning_cut_is_not_an_alert():
    table = Table(dealer=None)(CutForDeal(cards("AH AS")))
    assert table.screens() == [AlertScreen("Cut again", ("Ann and Ben cut equal low cards (A): cut again",))]
    table(CutForDeal(cards("2H 9S")))
    assert table.alert(AlertKind.CUT).seat == ANN
    assert table.screens() == []  # who deals shows on the starter prompt
    assert phase_screen(table.state) == PromptScreen("Starter card", "", "Ann deals")


def test_the_starter_prompt_names_the_dealer_and_heels_are_pegged():
    table = Table()
    assert phase_screen(table.state) == PromptScreen("Starter card", "", "Ben deals")
    table(Starter(Card.parse("JD")))
    # it covers the play's first screen: the count, whose turn and the starter, as there
    assert table.screens() == [ScoreScreen("Ben", 2, ("two for his heels is two",), count=0, turn="Ann",
                                           starter=Card.parse("JD"))]
    assert last_score_line(table.state, table.effects) == ScoreLine("Ben", 2, "two for his heels is two")


# -- the play -------------------------------------------------------------------------------


def test_the_play_shows_the_count_whose_turn_the_starter_and_the_last_score_with_its_reason():
    starter = Card.parse("2S")
    table = Table()(Starter(starter), Lay(ANN, Card.parse("5C")))
    assert phase_screen(table.state) == PlayScreen(5, "Ben", starter=starter, laid=("Ann", Card.parse("5C")))
    table(Lay(BEN, Card.parse("TD")))
    # the score covers the play screen, so it says the count and whose turn comes next
    assert table.screens() == [ScoreScreen("Ben", 2, ("fifteen two",), count=15, turn="Ann", starter=Card.parse("2S"))]
    assert table.screens()[0].footer == "count 15, Ann next"
    last = last_score_line(table.state, table.effects)
    assert last == ScoreLine("Ben", 2, "fifteen two")
    laid = ("Ben", Card.parse("TD"))  # the last card and whose it was
    assert phase_screen(table.state, last=last) == PlayScreen(15, "Ann", last, starter=starter, laid=laid)
    # with no spoken line kept, the deal's last peg is shown by its reason
    assert phase_screen(table.state) == PlayScreen(15, "Ann", ScoreLine("Ben", 2, "play"), starter=starter, laid=laid)


def test_a_card_being_entered_shows_the_count_as_the_hint():
    table = Table()(Starter(Card.parse("2S")), Lay(ANN, Card.parse("5C")), Lay(BEN, Card.parse("TD")))
    assert phase_screen(table.state, entry="5") == PromptScreen("Ann lays", "5", "count 15")


def test_last_score_line_keeps_the_previous_line_when_nothing_was_pegged():
    table = Table()(Starter(Card.parse("2S")), Lay(ANN, Card.parse("5C")))
    before = ScoreLine("Ben", 2, "fifteen two")
    assert last_score_line(table.state, table.effects, before) is before


def test_go_and_last_card_are_said_in_words():
    table = Table()(Starter(Card.parse("2S")))
    said = [last_score_line(table.state, effects) for effects in table.play_out()]
    assert [line for line in said if line is not None] == [
        ScoreLine("Ann", 3, "a run of three is three"),
        ScoreLine("Ann", 1, "one for the go is one"),
        ScoreLine("Ann", 2, "a pair is two"),
        # the last card ends the play and both hands are counted: the line shows the last of them
        ScoreLine("Ben", 14, "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair royal is fourteen"),
    ]


def test_a_score_screen_says_the_count_went_back_to_0_before_whose_turn_it_is():
    """A go's score screen said "count 30, Blue next" when the count was already back to 0:
    the turn is at the count now, so the footer says both (a 31 too)."""
    table = Table()(Starter(Card.parse("2S")), Lay(ANN, Card.parse("TC")), Lay(BEN, Card.parse("KD")),
                    Lay(ANN, Card.parse("QH")), Go(BEN))
    (screen,) = table(Go(ANN)).screens()  # neither can lay at 30: Ann's go point, the count back to 0
    assert (screen.who, screen.points, screen.count) == ("Ann", 1, 30)
    assert screen.footer == "count 30, now 0, Ben next"
    table(Lay(BEN, Card.parse("9C")), Lay(ANN, Card.parse("KH")), Lay(BEN, Card.parse("QC")), Lay(ANN, Card.parse("2C")))
    (screen,) = table.screens()  # Ann's 31
    assert screen.footer == "count 31, now 0, Ben next"


# -- claims -----------------------------------------------------------------------------------


def test_claim_mode_says_whose_play_score_is_open_never_how_much():
    table = Table(mode=Mode.CLAIM)(Starter(Card.parse("2S")), Lay(ANN, Card.parse("5C")), Lay(BEN, Card.parse("TD")))
    assert table.screens() == []  # nothing pegged until claimed
    # a card that scored is open to claim: the note names its player and seat, never the points;
    # Ann's 5C scored nothing, so she is not asked (issue 24: not after every card)
    assert phase_screen(table.state) == PlayScreen(15, "Ann", None, "to claim: Ben (seat 2)", Card.parse("2S"),
                                                   ("Ben", Card.parse("TD")))
    table(Claim(BEN, 2))
    # a play score claimed later still says the count it was made at
    assert table.screens() == [ScoreScreen("Ben", 2, ("fifteen two",), count=15, turn="Ann", starter=Card.parse("2S"))]


def test_the_table_waits_for_a_card_from_the_turn_and_a_claim_from_the_seat_that_scored():
    """It said "a card or a claim from Ann" while the open claim was Ben's, and Ann had none."""
    from cribpi.game import describe_expected

    table = Table(mode=Mode.CLAIM)(Starter(Card.parse("2S")), Lay(ANN, Card.parse("5C")), Lay(BEN, Card.parse("TD")))
    assert describe_expected(table.state) == "a card from Ann, or a claim from Ben"
    table(Lay(ANN, Card.parse("3H")))  # Ben's fifteen stays open; Ann's 3H scores nothing
    assert describe_expected(table.state) == "a card from Ben, or a claim from Ben"


def test_the_play_s_last_scores_are_claimed_before_the_show():
    table = Table(mode=Mode.CLAIM)(Starter(Card.parse("2S")))
    hands = {ANN: cards(ANN_HAND), BEN: cards(BEN_HAND)}
    while table.state.deal.turn is not None:
        deal = table.state.deal
        fits = [c for c in hands[deal.turn] if c in legal_cards(table.state)]
        table(Lay(deal.turn, fits[0]) if fits else Go(deal.turn))
    assert [(m.seat, m.points) for m in table.state.deal.unclaimed] == [(ANN, 2), (BEN, 1)]  # a pair; last card
    # the count the claim is for, as every screen of the play says it
    assert phase_screen(table.state) == PromptScreen("Ann claims", "", "count 10; PEG N, OK; 0: OK, OK")
    table(Claim(ANN, 2))
    assert phase_screen(table.state, entry="1") == PromptScreen("Ben claims", "1", "count 20; PEG N, OK; 0: OK, OK")


def test_the_show_waits_for_each_hand_and_the_crib_to_be_claimed():
    table = Table(mode=Mode.CLAIM)(Starter(Card.parse("2S")))
    table.play_out(claim=True)
    assert phase_screen(table.state) == PromptScreen("Ann hand?", "", "PEG N, OK; 0: OK, OK")
    table(Claim(ANN, table.state.deal.pending.points))
    assert phase_screen(table.state, entry="1") == PromptScreen("Ben hand?", "1", "PEG N, OK; 0: OK, OK")
    table(Claim(BEN, table.state.deal.pending.points), Crib(cards(CRIB)))
    assert phase_screen(table.state) == PromptScreen("Ben crib?", "", "PEG N, OK; 0: OK, OK")


def test_an_under_claim_opens_muggins_in_words_composed_from_the_alert():
    table = Table(MUGGINS, Mode.CLAIM)(Starter(Card.parse("2S")))
    table.play_out(claim=True)
    assert table.state.deal.pending.points == 9
    table(Claim(ANN, 7))
    alert = table.alert(AlertKind.MUGGINS)
    screens = table.screens()
    assert screens[0] == AlertScreen("MUGGINS!", (
        "Ann claimed 7 of 9: muggins for 2?",
        "fifteen 6C 9H 2", "fifteen 4C 5C 6C 2", "fifteen 4C 9H 2S 2", "run 4C 5C 6C 3",
    ))
    assert screens[1] == ShowScreen("Ann hand", alert.items, 9, claimed=7)  # the true count, and what was pegged
    # the words come from the alert's data, not from the engine's sentence
    assert alert_lines(table.state, dataclasses.replace(alert, text="(not used)")) == screens[0].lines


def test_a_muggins_call_pegs_with_its_note():
    table = Table(MUGGINS, Mode.CLAIM)(Starter(Card.parse("2S")))
    table.play_out(claim=True)
    table(Claim(ANN, table.state.deal.pending.points - 2), Muggins(BEN, 2))
    assert table.screens() == [ScoreScreen("Ben", 2, ("muggins for 2",))]


def test_without_muggins_an_under_claim_is_only_noted():
    table = Table(ACC, Mode.CLAIM)(Starter(Card.parse("2S")))
    table.play_out(claim=True)
    points = table.state.deal.pending.points
    table(Claim(ANN, points - 2))
    assert table.screens()[0].title == "Underclaim"
    assert table.screens()[0].lines[0] == "Ann missed 2 (hand)"


def test_an_overclaim_is_corrected_and_the_penalty_said_where_the_rules_give_one():
    table = Table(HOYLE, Mode.CLAIM)(Starter(Card.parse("2S")), Lay(ANN, Card.parse("5C")), Lay(BEN, Card.parse("TD")))
    table(Claim(BEN, 4))
    assert table.screens() == [  # in the play: every screen says the count (an alert lost it)
        AlertScreen("Overclaim", ("Ben claimed 4 but has 2: corrected; Ann pegs 2", "fifteen 5C TD 2"),
                    count=15, turn="Ann"),
        ScoreScreen("Ben", 2, ("fifteen two",), count=15, turn="Ann", starter=Card.parse("2S")),
        ScoreScreen("Ann", 2, ("overclaim penalty",), count=15, turn="Ann", starter=Card.parse("2S")),
    ]
    acc = Table(ACC, Mode.CLAIM)(Starter(Card.parse("2S")), Lay(ANN, Card.parse("5C")), Lay(BEN, Card.parse("TD")))
    acc(Claim(BEN, 4))
    assert acc.screens()[0] == AlertScreen("Overclaim", ("Ben claimed 4 but has 2: corrected", "fifteen 5C TD 2"),
                                           count=15, turn="Ann")


def test_a_wrong_muggins_call_says_who_pegs():
    table = Table(MUGGINS, Mode.CLAIM)(Starter(Card.parse("2S")), Lay(ANN, Card.parse("5C")), Lay(BEN, Card.parse("TD")))
    table(Claim(BEN, 2), Muggins(ANN, 2))
    assert table.screens() == [
        AlertScreen("Wrong muggins", ("Ann called muggins wrongly on Ben's play: Ben pegs 2",), count=15, turn="Ann"),
        ScoreScreen("Ben", 2, ("wrong muggins",), count=15, turn="Ann", starter=Card.parse("2S")),
    ]


def test_other_alerts_show_the_engine_s_sentence_and_the_penalty_its_reason():
    table = Table()(Misdeal())
    assert table.screens() == [AlertScreen("Misdeal", ("misdeal: Ben deals again",))]
    table(Penalty(ANN, 2, "exposed card"))
    assert table.screens() == [AlertScreen("Penalty", ("penalty: Ann +2 for exposed card",)),
                               ScoreScreen("Ann", 2, ("exposed card",))]


# -- the show ----------------------------------------------------------------------------------


def test_the_show_counts_each_hand_item_by_item_then_asks_for_the_crib():
    table = Table()(Starter(Card.parse("2S")))
    last = table.play_out()[-1]
    screens = effect_screens(table.state, last)
    assert [type(s) for s in screens] == [ScoreScreen, ShowScreen, ShowScreen]
    assert screens[0] == ScoreScreen("Ben", 1, ("one for last is one",), count=20)  # the play is over: no turn, no starter
    ann, ben = screens[1], screens[2]
    assert (ann.title, ann.total, ben.title, ben.total) == ("Ann hand", 9, "Ben hand", 14)
    assert all(isinstance(item, ScoreItem) for item in ann.items + ben.items)
    assert [item.kind for item in ben.items] == ["fifteen"] * 4 + ["pair royal"]
    assert show_pages(ben) == 1 and show_pages(ben, (128, 32)) == 2
    assert phase_screen(table.state) == PromptScreen("Crib cards", "", "0/4 entered")
    assert phase_screen(table.state, entry="KC QD") == PromptScreen("Crib cards", "KC QD", "2/4 entered")
    table(Crib(cards(CRIB)))
    assert table.screens() == [ShowScreen("Ben crib", (ScoreItem("fifteen", cards("7D 8S"), 2),), 2)]
    assert phase_screen(table.state) == MessageScreen(("Deal counted.", "OK: next deal"), "Deal done")


# -- the end of a game and of a match -------------------------------------------------------


def test_game_over_is_one_screen_with_the_result_the_winning_score_and_what_ok_does():
    table = Table(match_games=3)(Penalty(BEN, 119, "set-up"), Penalty(ANN, 85, "set-up"))
    table(Starter(Card.parse("JC")))  # Ben's heels take him out
    assert table.screens() == []  # nothing to page through: the resting screen says it all
    over = AlertScreen("GAME!", ("Ben wins 121-85: skunk,", "3 game points", "last: Ben +2 heels", "OK: next game"))
    assert phase_screen(table.state) == game_over_screen(table.state) == over
    assert pages(over) == 1
    board = board_model(table.state, flash_from(table.state, table.effects))
    assert (board.animation, board.anim_track, board.winner_track) == (Animation.WINNER, BEN, BEN)
    assert [(t.front, t.rear, t.games_won) for t in board.tracks] == [(85, 0, 0), (121, 119, 1)]
    assert board.flash == ((), (120, 121))


def test_a_game_of_one_ends_with_its_result_and_ok_starts_a_new_game():
    table = Table(mode=Mode.BOARD, dealer=ANN)(Peg(BEN, 50))
    assert phase_screen(table.state) == dataclasses.replace(scores_screen(table.state, "Board"), hint="PEG to peg, OK: next deal")
    assert phase_screen(table.state, entry="6") == PromptScreen("Peg", "6", "more pegs add up; OK pegs")
    table(Peg(ANN, 100), Peg(ANN, 25))
    assert table.screens() == []
    assert table.state.phase is Phase.MATCH_OVER
    assert table.state.scores == (121, 50)  # the peg stops in the game hole
    over = AlertScreen("GAME!", ("Ann wins 121-50: double skunk,", "3 game points", "last: Ann +21 (of 25) peg",
                                 "OK: new game"))
    assert phase_screen(table.state) == over and pages(over) == 1


def test_match_over_shows_the_last_game_s_result_then_the_match_s():
    table = Table(match_games=3)(Penalty(BEN, 119, "set-up"), Penalty(ANN, 85, "set-up"), Starter(Card.parse("JC")))
    table(NextGame(), Penalty(BEN, 121, "set-up"))
    assert table.state.phase is Phase.MATCH_OVER and table.screens() == []
    assert phase_screen(table.state) == AlertScreen("MATCH!", (
        "Ben wins 121-0: double skunk,", "3 game points", "last: Ben +121 penalty",
        "Ben wins the match", "games 0-2, points 0-6", "spread -157 +157", "OK: new match"))


# -- the board ----------------------------------------------------------------------------------


def test_the_board_has_a_track_a_side_with_front_and_rear_pegs_and_flashes_what_moved():
    table = Table()(Starter(Card.parse("2S")), Lay(ANN, Card.parse("5C")), Lay(BEN, Card.parse("TD")))
    board = board_model(table.state, flash_from(table.state, table.effects))
    assert [(t.front, t.rear, t.colour) for t in board.tracks] == [(0, 0, DEFAULT_COLOURS[0]), (2, 0, DEFAULT_COLOURS[1])]
    assert board.flash == ((), (1, 2)) and board.animation is None
    alert = board_model(table.state, alert_track=ANN)
    assert (alert.animation, alert.anim_track) == (Animation.ALERT, ANN)


def test_before_a_game_the_board_shows_two_empty_tracks():
    board = board_model(Game().state)
    assert [(t.front, t.rear) for t in board.tracks] == [(0, 0), (0, 0)]


@pytest.mark.parametrize("kind", list(AlertKind))
def test_every_alert_kind_has_a_title(kind):
    assert ALERT_TITLES[kind]


def test_a_move_stopped_in_the_game_hole_flashes_each_hole_once_in_order():
    """A go at 118 then a last card's 5 points stopped in 121: 119, 120, 121 blink, not 117 again."""
    from cribpi.game import Game, Mode, NewGame, Peg, Pegged, Reason

    game = Game([NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0)])
    for event in (Peg(0, 118), Peg(0, 1), Peg(0, 5)):
        game.apply(event)
    state = game.state
    assert state.scores[0] == 121 and state.rear[0] == 119
    batch = [Pegged(0, 0, 1, Reason.PLAY, (), 119), Pegged(0, 0, 5, Reason.PLAY, (), 121)]
    assert flash_from(state, batch)[0] == (119, 120, 121)
    assert flash_from(state, batch[1:])[0] == (120, 121)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_board_at_rest_says_what_peg_does(players):
    """Board mode's resting screen said only the scores: it says what the PEG key does, and
    OK, the way the other screens say the next press, whole on every display size."""
    from cribpi.app.settings import DEFAULT_NAMES
    from cribpi.views.oled import draw_screen
    from cribpi.views.text import screen_text

    state = Game([NewGame(DEFAULT_NAMES[:players], ACC.replace(players=players), Mode.BOARD, first_dealer=0)]).state
    assert state.phase is Phase.BOARD
    screen = phase_screen(state)
    assert screen.hint == "PEG to peg, OK: next deal"
    assert screen_text(screen).splitlines()[-1] == "PEG to peg, OK: next deal"
    for size in ((128, 64), (128, 32), (256, 64)):
        canvas = draw_screen(screen, size)
        assert canvas.shortened == [] and canvas.dropped == [], (size, canvas.shortened, canvas.dropped)
