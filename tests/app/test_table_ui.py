"""The table UI on the mock backend: presses in, events, LED frames and OLED images out."""

import random

import pytest

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.game import Mode, Phase
from cribpi.hal import Action, open_backend
from cribpi.store import Store
from cribpi.views.model import AlertScreen, MenuScreen, PlayScreen, ScoreScreen, ShowScreen


@pytest.fixture
def table():
    backend = open_backend("mock")
    ui = TableUI(TableSettings(), rng=random.Random(1))
    app = TableApp(backend, ui)
    app.start()
    yield backend, ui, app
    app.close()


def press(backend, app, *words):
    backend.press(*words)
    app.pump()


def card(backend, app, text):
    press(backend, app, "rank", text[0])
    press(backend, app, "suit", text[1])


def dismiss(backend, ui, app):
    while ui.screens:
        press(backend, app, "ok")


def test_a_whole_deal_from_button_presses(table):
    backend, ui, app = table
    press(backend, app, "ok")  # random cut for the deal
    dismiss(backend, ui, app)
    assert ui.state.phase is Phase.STARTER
    card(backend, app, "6S")
    dealer = ui.state.deal.dealer
    pone = 1 - dealer
    for seat, text in [(pone, "QH"), (dealer, "5C"), (pone, "TD"), (dealer, "6D"),
                       (pone, "2C"), (dealer, "4H"), (pone, "4S"), (dealer, "4D")]:
        dismiss(backend, ui, app)
        assert ui.state.deal.turn == seat
        card(backend, app, text)
    assert isinstance(ui.screen(), ScoreScreen) and ui.screen().points == 7
    dismiss(backend, ui, app)
    for text in ("7C", "8H", "7D", "8S"):
        card(backend, app, text)
    assert ui.state.scores[dealer] == 59 and ui.state.scores[pone] == 2
    assert any(isinstance(s, ShowScreen) and s.total == 24 for s in ui.screens)
    assert backend.frames[-1].hole(dealer, 59) != (0, 0, 0)  # the front peg is lit
    assert backend.image is not None and backend.image.size == (128, 64)
    dismiss(backend, ui, app)
    press(backend, app, "ok")  # next deal
    assert ui.state.deal.number == 2 and ui.state.deal.dealer == pone


def test_wrong_card_shows_an_alert_and_changes_nothing(table):
    backend, ui, app = table
    press(backend, app, "ok")
    dismiss(backend, ui, app)
    card(backend, app, "6S")
    before = ui.state
    card(backend, app, "6S")  # the starter again
    assert ui.state is before
    assert isinstance(ui.screen(), AlertScreen) and "6S" in " ".join(ui.screen().lines)


def test_undo_takes_back_a_rank_then_events(table):
    backend, ui, app = table
    press(backend, app, "ok")
    dismiss(backend, ui, app)
    card(backend, app, "JS")  # heels
    assert max(ui.state.scores) == 2
    dismiss(backend, ui, app)
    press(backend, app, "rank", "5")
    press(backend, app, "undo")  # only the waiting rank
    assert max(ui.state.scores) == 2 and ui.entry.rank is None
    press(backend, app, "undo")
    assert ui.state.phase is Phase.STARTER and max(ui.state.scores) == 0


def test_long_press_on_undo_repeats(table):
    backend, ui, app = table
    press(backend, app, "ok")
    dismiss(backend, ui, app)
    card(backend, app, "KS")
    card(backend, app, "5C")
    card(backend, app, "TD")
    events = len(ui.session.game.events)
    dismiss(backend, ui, app)
    press(backend, app, "undo_long")
    assert len(ui.session.game.events) < events


def _pick(backend, app, ui, prefix):
    ui.menu.selected = [i for i, label in enumerate(ui.screen().items) if label.startswith(prefix)][0]
    press(backend, app, "ok")


def test_menu_changes_mode_and_starts_a_new_game(table):
    backend, ui, app = table
    press(backend, app, "menu")
    assert isinstance(ui.screen(), MenuScreen)
    _pick(backend, app, ui, "Next game setup")
    assert ui.screen().title == "Next game"
    press(backend, app, "ok")  # "Mode: count" is first
    assert ui.settings.mode is Mode.CLAIM
    press(backend, app, "go")
    press(backend, app, "ok")  # players 3
    assert ui.settings.players == 3
    assert ui.state.mode is Mode.COUNT  # the game in progress keeps its own
    _pick(backend, app, ui, "Start it now")
    assert ui.screen().title == "Abandon this game?" and ui.menu.selected == 0
    press(backend, app, "go")
    press(backend, app, "ok")  # yes
    assert ui.menu is None and ui.state.mode is Mode.CLAIM and ui.state.seats == 3


def test_undo_after_a_refusal_only_takes_back_the_refusal(table):
    backend, ui, app = table
    press(backend, app, "ok")
    dismiss(backend, ui, app)
    card(backend, app, "KS")
    card(backend, app, "KS")  # refused
    assert ui.screen().title == "Not allowed"
    events = len(ui.session.game.events)
    press(backend, app, "undo")
    assert len(ui.session.game.events) == events and not ui.screens


def test_undo_says_what_it_took_back(table):
    backend, ui, app = table
    press(backend, app, "ok")
    dismiss(backend, ui, app)
    card(backend, app, "KS")
    card(backend, app, "5C")
    dismiss(backend, ui, app)
    press(backend, app, "undo")
    assert ui.screen().title == "Undone" and "5C" in " ".join(ui.screen().lines)


def test_claim_mode_pegs_claims_from_peg_actions(table):
    backend, ui, app = table
    ui.settings = TableSettings(mode=Mode.CLAIM)
    ui.new_game()
    press(backend, app, "ok")
    dismiss(backend, ui, app)
    card(backend, app, "KS")
    dealer = ui.state.deal.dealer
    card(backend, app, "5C")
    card(backend, app, "TD")
    ui.handle(Action.peg(dealer, 1))
    press(backend, app, "peg", dealer, 1)  # the +1 key: presses add up until OK
    assert ui.state.scores[dealer] == 0 and ui.tally == (dealer, 2)
    press(backend, app, "ok")
    assert ui.state.scores[dealer] == 2


def test_board_mode_pegs_with_buttons():
    backend = open_backend("mock")
    ui = TableUI(TableSettings(mode=Mode.BOARD))
    app = TableApp(backend, ui)
    app.start()
    ui.handle(Action.parse("ok"))  # cut at random
    dismiss(backend, ui, app)
    ui.handle(Action.peg(0, 12))
    ui.handle(Action.parse("ok"))
    ui.handle(Action.peg(1, 5))
    ui.handle(Action.parse("ok"))
    assert ui.state.scores == (12, 5) and ui.state.rear == (0, 0)
    app.close()


def test_a_game_in_a_store_resumes_identically(tmp_path):
    from cribpi.app import Session

    with Store(tmp_path / "t.db") as store:
        ui = TableUI(TableSettings(table="t"), store=store, rng=random.Random(3))
        for text in ("ok",):
            ui.handle(Action.parse(text))
        ui.screens.clear()
        ui.handle(Action.of_card("6S"))
        ui.handle(Action.of_card("5H"))
        state = ui.state
    with Store(tmp_path / "t.db") as store:
        restored = store.current(table="t")
        assert restored.game.state == state
        session = Session(None, store, game=restored.game, game_id=restored.game_id)
        ui2 = TableUI(TableSettings(table="t"), store=store, session=session)
        assert ui2.state == state


def test_idle_loop_does_not_wake_without_input(table):
    backend, ui, app = table
    assert app.timeout() is None  # nothing animating: the selector blocks
    press(backend, app, "ok")
    assert app.timeout() is not None or not any(ui.flash)


def test_after_a_restart_each_press_is_applied_once(tmp_path):
    """The restored game and the journal stay one: a card, then an undo, agree with a replay."""
    from cribpi.daemon import open_table
    from cribpi.config import Config

    config = Config(db=tmp_path / "t.db")
    with Store(config.db) as store:
        ui = open_table(config, store, rng=random.Random(1))
        ui.handle(Action.parse("ok"))
        ui.screens.clear()
        ui.handle(Action.of_card("5D"))
    with Store(config.db) as store:
        ui = open_table(config, store)
        ui.handle(Action.of_card("KC"))
        assert not isinstance(ui.screen(), AlertScreen), ui.screen()
        assert ui.state.deal.played and ui.state.deal.played[-1][1].index == Action.of_card("KC").card.index
        ui.handle(Action.parse("undo"))
        assert store.current(table="main").game.state == ui.state
        assert ui.state.deal.played == ()


def test_a_refused_crib_card_keeps_the_cards_already_entered(table):
    backend, ui, app = table
    press(backend, app, "ok")
    dismiss(backend, ui, app)
    card(backend, app, "6S")
    for text in ("QH", "5C", "TD", "6D", "2C", "4H", "4S", "4D"):
        card(backend, app, text)
    dismiss(backend, ui, app)
    for text in ("7C", "8H", "7D"):
        card(backend, app, text)
    card(backend, app, "QH")  # laid in the play: refused
    assert isinstance(ui.screen(), AlertScreen)
    assert [str(c) for c in ui.entry.cards] == ["7C", "8H", "7D"]
    card(backend, app, "8S")
    assert ui.state.phase is Phase.DONE


def test_the_judges_penalty_from_the_menu(table):
    backend, ui, app = table
    press(backend, app, "ok")
    dismiss(backend, ui, app)
    card(backend, app, "KS")
    press(backend, app, "menu")
    labels = ui.screen().items
    ui.menu.selected = labels.index("Penalty...")
    press(backend, app, "ok")
    assert ui.screen().title == "Judge's penalty"
    press(backend, app, "go")  # to "Points"
    press(backend, app, "ok")  # 2 -> 4
    assert "Points: +4" in ui.screen().items
    press(backend, app, "go")
    press(backend, app, "go")  # "Peg the penalty"
    press(backend, app, "ok")
    assert ui.state.scores[0] == 4 and ui.menu is None
    assert isinstance(ui.screen(), AlertScreen) and "renege" in " ".join(ui.screen().lines)


def test_claim_mode_says_whose_score_is_open_but_never_how_much(table):
    backend, ui, app = table
    ui.settings = TableSettings(mode=Mode.CLAIM, names=("Ann", "Bob"))
    ui.new_game()
    press(backend, app, "ok")
    dismiss(backend, ui, app)
    card(backend, app, "KS")
    card(backend, app, "5C")
    card(backend, app, "TD")  # a fifteen, not claimed yet
    screen = ui.screen()
    assert isinstance(screen, PlayScreen) and screen.count == 15
    dealer = ui.state.names[ui.state.deal.dealer]
    assert dealer in screen.note and not any(ch.isdigit() for ch in screen.note)


def test_menu_sets_a_best_of_three_match(table):
    backend, ui, app = table
    press(backend, app, "menu")
    _pick(backend, app, ui, "Next game setup")
    _pick(backend, app, ui, "Match")
    assert ui.settings.match_games == 3 and "Match: best of 3" in ui.screen().items
    ui.new_game()
    assert ui.state.match_games == 3


def test_with_the_review_on_each_discard_is_entered_and_reviewed(table):
    backend, ui, app = table
    ui.settings = TableSettings(names=("Ann", "Bob"), review=True)
    ui.new_game()
    press(backend, app, "ok")
    dismiss(backend, ui, app)
    card(backend, app, "6S")
    for text in ("QH", "5C", "TD", "6D", "2C", "4H", "4S", "4D"):
        card(backend, app, text)
    dismiss(backend, ui, app)
    first = ui.state.names[(ui.state.deal.dealer + 1) % 2]
    assert ui.screen().hint == f"{first}'s discard"
    for text in ("7C", "8H", "7D", "8S"):
        card(backend, app, text)
    assert ui.state.phase is Phase.DONE and ui.state.deal.crib and all(ui.state.deal.discards)
    press(backend, app, "menu")
    labels = list(ui.screen().items)
    review = [i for i, label in enumerate(labels) if label.startswith("Review ")]
    assert len(review) == 2
    ui.menu.selected = review[0]
    press(backend, app, "ok")
    assert ui.screen().title.endswith("review") and "Best" in " ".join(ui.screen().lines)


def test_a_match_ends_with_its_result_and_asks_before_a_new_one():
    backend = open_backend("mock")
    ui = TableUI(TableSettings(names=("Ann", "Bob"), mode=Mode.BOARD, match_games=3), rng=random.Random(5))
    app = TableApp(backend, ui)
    app.start()

    def peg(seat, points):
        ui.handle(Action.peg(seat, points))
        ui.handle(Action.parse("ok"))

    ui.handle(Action.parse("ok"))  # cut
    ui.screens.clear()
    for game in range(2):
        peg(0, 100)
        peg(0, 21)
        assert ui.screens[0].title == "GAME!" and "game point" in " ".join(ui.screens[0].lines)
        if game == 0:
            ui.screens.clear()
            ui.handle(Action.parse("ok"))  # the next game
    titles = [getattr(s, "title", "") for s in ui.screens]
    assert titles[:2] == ["GAME!", "MATCH!"]
    match = ui.screens[1]
    assert "Ann wins" in match.lines[0] and "games 2-0" in match.lines[1]
    ui.screens.clear()
    ui.handle(Action.parse("ok"))
    assert ui.screen().title == "Match over: new match?" and ui.menu.selected == 0
    ui.handle(Action.parse("ok"))  # "No, go back"
    assert ui.state.phase is Phase.MATCH_OVER
    app.close()


def test_half_keyed_cards_never_carry_into_the_next_event():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    ui.handle(Action.of_card("KH"))  # a cut card...
    ui.handle(Action.parse("ok"))  # ...then a random cut after all
    ui.screens.clear()
    assert ui.entry.cards == [] and ui.state.phase is Phase.STARTER


def test_a_new_game_with_fewer_seats_drops_an_unconfirmed_peg():
    ui = TableUI(TableSettings(players=4, mode=Mode.BOARD), rng=random.Random(1))
    ui.handle(Action.parse("ok"))
    ui.screens.clear()
    ui.handle(Action.peg(3, 2))  # no OK yet
    ui.settings = TableSettings(players=2, mode=Mode.BOARD)
    ui.new_game()
    ui.screen()  # must not fail
    assert ui.tally is None


def test_undoing_the_crib_that_the_discards_made_then_ok_counts_it_again():
    ui = TableUI(TableSettings(review=True), rng=random.Random(1))
    ui.handle(Action.parse("ok"))
    ui.screens.clear()
    for text in ("6S", "QH", "5C", "TD", "6D", "2C", "4H", "4S", "4D", "7C", "8H", "7D", "8S"):
        ui.handle(Action.of_card(text))
    assert ui.state.phase is Phase.DONE
    ui.screens.clear()
    ui.handle(Action.parse("undo"))  # takes back the crib
    assert ui.state.phase is Phase.SHOW
    ui.screens.clear()
    ui.handle(Action.of_card("AS"))
    assert "press OK" in " ".join(ui.screen().lines)
    ui.screens.clear()
    ui.handle(Action.parse("ok"))
    assert ui.state.phase is Phase.DONE


def test_card_reader_noise_keeps_the_screens_and_the_waiting_rank():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    ui.handle(Action.parse("ok"))
    ui.handle(Action.parse("rank 5"))
    queued = list(ui.screens)
    ui.handle(Action.rejected("card reader sent 'ZZ' is not a card"))
    assert ui.screens[1:] == queued and ui.entry.rank is not None
    assert "ZZ" in " ".join(ui.screen().lines)


def test_a_resumed_game_keeps_its_setup_for_the_next_new_game(tmp_path):
    from cribpi.config import Config
    from cribpi.daemon import open_table

    config = Config(db=tmp_path / "t.db")
    with Store(config.db) as store:
        ui = open_table(config, store)
        ui.settings = TableSettings(table="main", players=3, mode=Mode.CLAIM, match_games=3)
        ui.new_game()
    with Store(config.db) as store:
        again = open_table(config, store)
        assert (again.settings.players, again.settings.mode, again.settings.match_games) == (3, Mode.CLAIM, 3)
