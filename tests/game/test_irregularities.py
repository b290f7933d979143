"""Irregularities as the ACC rules them (issue 24, section 1): a renege claimed takes the play
back to the false go (rule 7.3), a false claim of game is set back with 15 points' penalty
(rule 8.4), a muggins call is on a claim still open to it and says whose with three players
(rule 10), and a muggins window that closes says so. Journals of edition 1 replay as played."""

from __future__ import annotations

import json

import pytest

from cribpi.exc import RulesError
from cribpi.game import (
    Alert, AlertKind, Claim, Crib, EndDeal, Game, GameOver, Go, HandCards, Lay, Mode, Muggins, NewGame,
    Pegged, Penalty, Phase, Reason, Renege, Starter, Undo, event_from_dict, open_reneges,
)
from cribpi.game.events import EDITION
from cribpi.rules import ACC, MugginsScope

from game_script import C, Script, cards, set_scores

PONE, DEALER = 0, 1
MUGGINS = ACC.replace(muggins=MugginsScope.ACC)


def alerts(effects, kind):
    return [e for e in effects if isinstance(e, Alert) and e.kind is kind]


# -- renege: ACC rule 7.3 ---------------------------------------------------------------------


def false_go(mode: Mode = Mode.COUNT) -> Script:
    """The pone says go at 25 holding 4H (it fits); the dealer's 6S makes 31 for 2, which only
    the false go allowed; the pone then leads 4H, and the table sees the renege."""
    s = Script(NewGame(("Pone", "Dealer"), ACC, mode, first_dealer=DEALER))
    s(Starter(C("KS")), Lay(PONE, C("TC")), Lay(DEALER, C("KD")), Lay(PONE, C("2C")), Lay(DEALER, C("3D")))
    s(Go(PONE), Lay(DEALER, C("6S")))
    if mode is Mode.CLAIM:
        s(Claim(DEALER, 2))
    s(Lay(PONE, C("4H")))
    return s


@pytest.mark.parametrize("mode", [Mode.COUNT, Mode.CLAIM])
def test_a_renege_claimed_takes_the_play_back_to_the_go_and_cancels_what_was_pegged_since(mode: Mode) -> None:
    s = false_go(mode)
    assert alerts(s.effects, AlertKind.RENEGE)
    assert s.state.scores == (0, 2)  # the dealer's 31, allowed only by the false go
    assert open_reneges(s.state) == ((PONE, DEALER),)
    effects = s.game.apply(Renege(PONE))
    deal = s.state.deal
    assert [str(card) for _, card in deal.played] == ["TC", "KD", "2C", "3D"]  # 6S and 4H back in the hands
    assert (deal.running, deal.turn) == (25, PONE) and PONE not in deal.gone  # the pone plays on from the go
    assert s.state.scores == (0, 2)  # the 31 cancelled, and the dealer pegs 2 for the one renege card
    assert [(e.seat, e.points, e.note) for e in effects if isinstance(e, Pegged)] == [(DEALER, 2, "renege")]
    assert deal.log[-1] == Penalty(DEALER, 2, "renege")  # a later move plays the deal's inputs again, this too
    (claimed,) = alerts(effects, AlertKind.RENEGE_CLAIMED)
    assert (claimed.seat, claimed.other, claimed.points) == (PONE, DEALER, 2)
    assert "6S 4H back to the hands" in claimed.text and "Dealer 2->0" in claimed.text
    # the play goes on correctly: 4H now makes 29 with a run, and no renege is seen again
    after = s.game.apply(Lay(PONE, C("4H")))
    assert not alerts(after, AlertKind.RENEGE)
    if mode is Mode.CLAIM:
        s(Claim(PONE, 3))
    assert s.state.scores == (3, 2)
    assert open_reneges(s.state) == ()


def test_a_renege_claim_is_undone_and_replays_from_the_journal() -> None:
    s = false_go()
    before = s.state
    s(Renege(PONE), Lay(PONE, C("4H")))
    after = s.state
    journal = [event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in s.game.journal]
    assert Game(journal).state == after
    s(Undo(2))
    assert s.state == before
    assert Game(list(s.game.journal)).state == before


def test_each_card_that_would_have_fitted_is_two_points() -> None:
    s = Script(NewGame(("Pone", "Dealer"), ACC, Mode.COUNT, first_dealer=DEALER))
    s(HandCards(PONE, cards("TC 2C 4H AH")), Starter(C("KS")))
    s(Lay(PONE, C("TC")), Lay(DEALER, C("KD")), Lay(PONE, C("2C")), Lay(DEALER, C("3D")))
    with pytest.raises(RulesError, match="renege"):
        s.game.apply(Go(PONE))  # an entered hand cannot say go holding a card that fits
    s2 = Script(NewGame(("Pone", "Dealer"), ACC, Mode.COUNT, first_dealer=DEALER))
    s2(Starter(C("KS")), Lay(PONE, C("TC")), Lay(DEALER, C("KD")), Lay(PONE, C("2C")), Lay(DEALER, C("3D")))
    s2(Go(PONE), Lay(DEALER, C("5S")))  # 30: the dealer goes on alone, then pegs 1 for last
    s2(Go(DEALER))  # the count ends; the pone leads 4H and AH, both of which fitted at 25
    s2(Lay(PONE, C("4H")))
    s2(HandCards(PONE, cards("TC 2C 4H AH")))
    effects = s2.game.apply(Renege(PONE))
    assert [(e.seat, e.points) for e in effects if isinstance(e, Pegged)] == [(DEALER, 4)]
    assert s2.state.scores == (0, 4)  # the dealer's 1 for the go is cancelled


def test_a_renege_is_claimed_before_the_claimer_lays_again_and_only_when_there_is_one() -> None:
    s = false_go()
    with pytest.raises(RulesError, match="no renege"):
        s.game.apply(Renege(DEALER))
    s(Lay(DEALER, C("5S")))
    with pytest.raises(RulesError, match="too late.*Dealer has laid a card since"):
        s.game.apply(Renege(PONE))
    with pytest.raises(RulesError, match="opponent"):
        false_go().game.apply(Renege(PONE, by=PONE))


# -- false claim of game: ACC rule 8.4 ---------------------------------------------------------


HANDS = {PONE: cards("KC JH 8H 7H"), DEALER: cards("QD 9S 6D 3C")}


def play_claiming_right(s: Script) -> None:
    """Play the deal out with HANDS, each seat laying its first card that fits and claiming
    every play score right."""
    while s.state.phase is Phase.PLAY:
        deal = s.state.deal
        if deal.unclaimed:
            s(Claim(deal.unclaimed[0].seat, deal.unclaimed[0].points))
            continue
        room = 31 - deal.running
        fits = [c for c in HANDS[deal.turn] if c not in deal.cards_of(deal.turn) and c.value <= room]
        s(Lay(deal.turn, fits[0]) if fits else Go(deal.turn))


def hand_pending(start: tuple[int, int], edition: int = EDITION) -> tuple[Script, int]:
    """A claim-mode deal at the pone's hand, with the scores set so that the hand takes the
    pone to ``start[0]`` and the dealer is at ``start[1]``."""
    s = Script(event_from_dict({**NewGame(("Pone", "Dealer"), ACC, Mode.CLAIM, first_dealer=DEALER).to_dict(),
                                "edition": edition}))
    s(Starter(C("2S")))
    play_claiming_right(s)
    pending = s.state.deal.pending
    assert pending is not None and pending.seat == PONE and pending.points > 0
    set_scores(s.game, start[0] - pending.points, start[1])
    return s, pending.points


def test_a_false_claim_of_game_is_set_back_the_opponent_scores_the_overclaim_and_the_offender_goes_back_15() -> None:
    s, points = hand_pending((118, 40))
    effects = s.game.apply(Claim(PONE, points + 5))  # would be 123: a claim of the game
    (alert,) = alerts(effects, AlertKind.FALSE_GAME)
    assert (alert.seat, alert.points, alert.claimed, alert.other) == (PONE, points, points + 5, DEALER)
    assert [(e.seat, e.points, e.reason) for e in effects if isinstance(e, Pegged)] == [
        (PONE, points, Reason.HAND), (PONE, -15, Reason.FALSE_GAME), (DEALER, 3, Reason.FALSE_GAME)]
    assert s.state.scores == (103, 43)  # 118 - 15; the dealer pegs the 3 overclaimed, up to the game hole
    assert s.state.phase is Phase.SHOW
    assert not alerts(effects, AlertKind.OVERCLAIM)


def test_the_15_back_stands_when_the_overclaim_wins_the_game_for_the_opponent() -> None:
    s, points = hand_pending((118, 119))
    effects = s.game.apply(Claim(PONE, points + 3))
    over = next(e for e in effects if isinstance(e, GameOver))
    assert over.winner == DEALER and over.scores == (103, 121)


def test_an_overclaim_short_of_the_game_hole_is_only_corrected() -> None:
    s, points = hand_pending((100, 40))
    effects = s.game.apply(Claim(PONE, points + 5))
    assert alerts(effects, AlertKind.OVERCLAIM) and not alerts(effects, AlertKind.FALSE_GAME)
    assert s.state.scores == (100, 40)


def test_a_journal_of_edition_1_replays_a_false_claim_of_game_as_it_was_played() -> None:
    s, points = hand_pending((118, 40), edition=1)
    effects = s.game.apply(Claim(PONE, points + 5))
    assert alerts(effects, AlertKind.OVERCLAIM) and not alerts(effects, AlertKind.FALSE_GAME)
    assert s.state.scores == (118, 40)
    old = {k: v for k, v in NewGame(("A", "B")).to_dict().items() if k != "edition"}
    assert event_from_dict(old).edition == 1 and NewGame(("A", "B")).edition == EDITION == 2


# -- muggins: ACC rule 10 ----------------------------------------------------------------------


THREE = MUGGINS.replace(players=3)


def three_claims() -> Script:
    """Three players, the dealer seat 2: Bob under-claims his fifteen by 1, Cat claims her pair
    right; both claims are open to Ann's muggins."""
    s = Script(NewGame(("Ann", "Bob", "Cat"), THREE, Mode.CLAIM, first_dealer=2))
    s(Starter(C("2S")), Lay(0, C("5C")), Lay(1, C("TD")), Claim(1, 1), Lay(2, C("TH")), Claim(2, 2))
    return s


def test_with_three_players_a_call_says_whose_claim_it_is_on() -> None:
    s = three_claims()
    with pytest.raises(RulesError, match="Cat .seat 3. or Bob .seat 2. are open to muggins: say whose"):
        s.game.apply(Muggins(0, 1))
    effects = s.game.apply(Muggins(0, 1, accused=1))
    assert [(e.seat, e.points, e.reason) for e in effects if isinstance(e, Pegged)] == [(0, 1, Reason.MUGGINS)]
    effects = s.game.apply(Muggins(0, 2))  # only Cat's is open now: the table takes it, and it was right
    (wrong,) = alerts(effects, AlertKind.WRONG_MUGGINS)
    assert (wrong.seat, wrong.other, wrong.points) == (0, 2, 2) and "Cat's play, which was claimed right" in wrong.text
    assert [(e.seat, e.points, e.reason) for e in effects if isinstance(e, Pegged)] == [(2, 2, Reason.WRONG_MUGGINS)]
    with pytest.raises(RulesError, match="nothing is open to muggins for Ann"):
        s.game.apply(Muggins(0, 2))


def test_a_call_on_a_seat_with_nothing_open_or_on_ones_own_claim_is_refused() -> None:
    s = three_claims()
    with pytest.raises(RulesError, match="Ann .seat 1. has no claim open to muggins now"):
        s.game.apply(Muggins(1, 2, accused=0))
    with pytest.raises(RulesError, match="on an opponent"):
        s.game.apply(Muggins(1, 2, accused=1))


def crib_turned_up() -> Script:
    """A claim-mode game with muggins whose first deal is played and its hands claimed right:
    the crib (4D 5D 4S KH) is turned up, its claim next."""
    s = Script(NewGame(("Pone", "Dealer"), MUGGINS, Mode.CLAIM, first_dealer=DEALER))
    s(Starter(C("2S")))
    play_claiming_right(s)
    while s.state.deal.pending is not None:
        s(Claim(s.state.deal.pending.seat, s.state.deal.pending.points))
    s(Crib(cards("4D 5D 4S KH")))
    return s


def test_a_call_with_nothing_open_is_refused_even_after_a_claim_in_the_previous_deal() -> None:
    s = crib_turned_up()
    s(Claim(DEALER, s.state.deal.pending.points))
    assert s.state.deal.missed  # the crib's claim is open until the deal ends
    s(EndDeal(), Starter(C("9D")))
    before = s.state
    with pytest.raises(RulesError, match="nothing is open to muggins for Pone"):
        s.game.apply(Muggins(PONE, 2))
    assert s.state == before


def test_a_window_that_closes_says_so() -> None:
    s = three_claims()
    s(Lay(0, C("AC")))  # 26
    effects = s.game.apply(Lay(1, C("3C")))  # 29, nothing: Bob lays again, his fifteen's window still open
    assert not alerts(effects, AlertKind.MUGGINS_CLOSED)
    effects = s.game.apply(Claim(1, 0))  # ... until he pegs again
    (closed,) = alerts(effects, AlertKind.MUGGINS_CLOSED)
    assert (closed.seat, closed.points) == (1, 1) and "Bob has pegged again" in closed.text
    assert s.state.deal.missed and all(m.seat != 1 for m in s.state.deal.missed)


def test_an_under_claim_open_at_the_end_of_the_deal_closes_out_loud() -> None:
    s = crib_turned_up()
    crib = s.state.deal.pending
    s(Claim(DEALER, crib.points - 1))
    effects = s.game.apply(EndDeal())
    (closed,) = alerts(effects, AlertKind.MUGGINS_CLOSED)
    assert closed.seat == DEALER and "the deal is over" in closed.text


def test_a_journal_of_edition_1_judges_a_call_with_nothing_open_as_it_was_played() -> None:
    events = [event_from_dict({**NewGame(("Pone", "Dealer"), MUGGINS, Mode.CLAIM, first_dealer=DEALER).to_dict(),
                               "edition": 1}), Starter(C("2S"))]
    game = Game(events)
    effects = game.apply(Muggins(PONE, 2))  # nothing open: in edition 1, a wrong call on the next opponent
    assert [(e.seat, e.reason) for e in effects if isinstance(e, Pegged)] == [(DEALER, Reason.WRONG_MUGGINS)]


def test_a_renege_and_a_call_that_names_whose_claim_are_written_in_a_record_and_read_back() -> None:
    from cribpi.record import export_record, parse_record

    renege = false_go()
    renege(Renege(PONE), Lay(PONE, C("4H")))
    text = export_record(renege.game.events)
    assert "Renege Pone\n" in text
    assert parse_record(text).events == list(renege.game.events)
    call = three_claims()
    call(Muggins(0, 1, accused=1))
    text = export_record(call.game.events)
    assert "Muggins Ann 1 on Bob" in text
    assert parse_record(text).events == list(call.game.events)


def test_a_journal_written_before_editions_loads_and_replays_its_calls_as_played(tmp_path) -> None:
    """A store's journal whose new_game row has no edition (as cribpi wrote them before) opens,
    and its call with nothing open is the wrong call it was, not refused."""
    import sqlite3

    from cribpi.store import Store
    from cribpi.store.schema import event_crc

    old = event_from_dict({k: v for k, v in NewGame(("Pone", "Dealer"), MUGGINS, Mode.CLAIM,
                                                    first_dealer=DEALER).to_dict().items() if k != "edition"})
    events = [old, Starter(C("2S")), Muggins(PONE, 2)]
    game = Game(events[:1])
    path = tmp_path / "old.db"
    with Store(path) as store:
        game_id = store.new_game(old, table="main")
        for event in events[1:]:
            game.apply(event)
            store.append(game_id, event, game)
    data = json.dumps({k: v for k, v in old.to_dict().items() if k != "edition"})
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE events SET data=?, crc=? WHERE game_id=? AND seq=1",
                     (data, event_crc(game_id, 1, "new_game", data), game_id))
        conn.execute("DELETE FROM snapshots")
    conn.close()
    with Store(path) as store:
        restored = store.restore(game_id)
    assert restored.state.edition == 1 and restored.state.scores == (0, 2)  # the wrong call's 2, as played


def test_a_game_won_on_a_false_claims_award_says_the_points_that_counted_and_whose_overclaim() -> None:
    """The game-over screen said "last: Dealer +15 false claim of game" when 6 of the 15 awarded
    took the dealer to 121 and the false claim was the pone's."""
    from cribpi.views.table import game_over_screen

    s, points = hand_pending((106, 115))
    s.game.apply(Claim(PONE, points + 15))  # 121: a claim of the game; 106 is had
    assert s.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) and s.state.games[-1].winner == DEALER
    lines = game_over_screen(s.state).lines
    assert "last: Dealer +6 (of 15) Pone's overclaim" in lines, lines


def test_a_score_left_unclaimed_when_its_player_lays_again_is_not_said_as_a_claim_of_0() -> None:
    """It was said "Dealer claimed 0 of 2" when nobody had claimed anything: the dealer laid his
    next card with his fifteen unclaimed. What he missed is open to muggins, and said as missed."""
    s = Script(NewGame(("Pone", "Dealer"), MUGGINS, Mode.CLAIM, first_dealer=DEALER))
    s(Starter(C("2S")), Lay(PONE, C("5C")), Lay(DEALER, C("TD")), Lay(PONE, C("3H")))  # the dealer's 15 unclaimed
    effects = s.game.apply(Lay(DEALER, C("4D")))
    (alert,) = alerts(effects, AlertKind.MUGGINS)
    assert alert.text == "Dealer laid again without claiming 2: muggins for 2 is open to the other side"
    assert "claimed 0" not in alert.text and s.state.deal.missed[0].missed == 2


def test_the_deal_done_screen_says_an_under_claim_is_still_open_and_the_next_ok_closes_it() -> None:
    """After the crib's under-claim and the deal's last OKs, muggins was still open with the
    screen saying only "Deal counted.": it now says what is open and that OK closes it, and
    the OK for the next deal shows the "Muggins closed" screen."""
    from cribpi.views.model import AlertScreen, MessageScreen
    from cribpi.views.table import effect_screens, phase_screen

    s = Script(NewGame(("Pone", "Dealer"), MUGGINS, Mode.CLAIM, first_dealer=DEALER))
    s(Starter(C("2S")))
    play_claiming_right(s)
    for _ in range(2):  # the hands, claimed right
        pending = s.state.deal.pending
        s(Claim(pending.seat, pending.points))
    s(Crib(cards("AC AD KH JC")))
    pending = s.state.deal.pending
    s(Claim(pending.seat, pending.points - 1))  # the dealer's crib claimed short
    assert s.state.phase is Phase.DONE
    assert phase_screen(s.state) == MessageScreen(
        ("Deal counted.", "muggins open on Dealer's crib", "OK: next deal, closes it"), "Deal done")
    (closed,) = effect_screens(s.state, s.game.apply(EndDeal()))
    assert isinstance(closed, AlertScreen) and closed.title == "Muggins closed"
