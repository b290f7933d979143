"""The table UI on mock parts: presses in, events, LED frames and OLED images out; what is
shown, what UNDO takes back, and a table that survives a restart.

Card entry, claims and menus have their own files (test_table_entry, _claims, _menus).
"""

import random

import pytest
from table_keys import card, dismiss, press, starter

from cribpi.app import Session, TableSettings, TableUI, open_table
from cribpi.game import Mode, Phase
from cribpi.hal import Action
from cribpi.store import Store
from cribpi.views.model import AlertScreen, MessageScreen, PromptScreen, ScoreScreen, ShowScreen
from cribpi.views.oled import pages


def test_a_whole_deal_from_button_presses(table):
    parts, ui, app = table
    press(parts, app, "ok")  # random cut for the deal
    dismiss(parts, ui, app)
    assert ui.state.phase is Phase.STARTER
    card(parts, app, "6S")
    dealer = ui.state.deal.dealer
    pone = 1 - dealer
    for seat, text in [(pone, "QH"), (dealer, "5C"), (pone, "TD"), (dealer, "6D"),
                       (pone, "2C"), (dealer, "4H"), (pone, "4S"), (dealer, "4D")]:
        dismiss(parts, ui, app)
        assert ui.state.deal.turn == seat
        card(parts, app, text)
    assert isinstance(ui.screen(), ScoreScreen) and ui.screen().points == 7
    dismiss(parts, ui, app)
    for text in ("7C", "8H", "7D", "8S"):
        card(parts, app, text)
    assert ui.state.scores[dealer] == 59 and ui.state.scores[pone] == 2
    assert any(isinstance(s, ShowScreen) and s.total == 24 for s in ui.screens)
    assert parts.frames[-1].hole(dealer, 59) != (0, 0, 0)  # the front peg is lit
    assert parts.image is not None and parts.image.size == (128, 64)
    dismiss(parts, ui, app)
    press(parts, app, "ok")  # next deal
    assert ui.state.deal.number == 2 and ui.state.deal.dealer == pone


def test_wrong_card_shows_an_alert_and_changes_nothing(table):
    parts, ui, app = table
    starter(parts, ui, app, "6S")
    before = ui.state
    card(parts, app, "6S")  # the starter again
    assert ui.state is before
    assert isinstance(ui.screen(), AlertScreen) and "6S" in " ".join(ui.screen().lines)


def test_undo_takes_back_a_rank_then_events(table):
    parts, ui, app = table
    starter(parts, ui, app, "JS")  # heels
    assert max(ui.state.scores) == 2
    dismiss(parts, ui, app)
    press(parts, app, "rank", "5")
    press(parts, app, "undo")  # only the waiting rank
    assert max(ui.state.scores) == 2 and ui.entry.rank is None
    press(parts, app, "undo")
    assert ui.state.phase is Phase.STARTER and max(ui.state.scores) == 0


def test_long_press_on_undo_repeats(table):
    parts, ui, app = table
    starter(parts, ui, app, "KS")
    card(parts, app, "5C")
    card(parts, app, "TD")
    events = len(ui.session.game.events)
    dismiss(parts, ui, app)
    press(parts, app, "undo_long")
    assert len(ui.session.game.events) < events


def test_undo_after_a_refusal_only_takes_back_the_refusal(table):
    parts, ui, app = table
    starter(parts, ui, app, "KS")
    card(parts, app, "KS")  # refused
    assert ui.screen().title == "Not allowed" and ui.screen().lines[-1] == "UNDO: back"  # says what UNDO does here
    events = len(ui.session.game.events)
    press(parts, app, "undo")
    assert len(ui.session.game.events) == events and not ui.screens
    press(parts, app, "undo")  # now the last event
    assert len(ui.session.game.events) == events - 1 and ui.screen().title == "Undone"


def test_undo_says_what_it_took_back(table):
    parts, ui, app = table
    starter(parts, ui, app, "KS")
    card(parts, app, "5C")
    dismiss(parts, ui, app)
    press(parts, app, "undo")
    assert ui.screen().title == "Undone" and "5C" in " ".join(ui.screen().lines)


def test_idle_loop_does_not_wake_without_input(table):
    parts, ui, app = table
    assert app.timeout() is None  # nothing animating: the selector blocks
    press(parts, app, "ok")
    assert app.timeout() is not None or not any(ui.flash)


def test_card_reader_noise_keeps_the_screens_and_the_waiting_rank():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    ui.handle(Action.parse("ok"))
    ui.handle(Action.parse("rank 5"))
    queued = list(ui.screens)
    ui.handle(Action.rejected("card reader sent 'ZZ' is not a card"))
    assert ui.screens[1:] == queued and ui.entry.rank is not None
    assert "ZZ" in " ".join(ui.screen().lines)


def test_a_game_in_a_store_resumes_identically(tmp_path):
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


def test_after_a_restart_each_press_is_applied_once(tmp_path):
    """The restored game and the journal stay one: a card, then an undo, agree with a replay."""
    settings = TableSettings(table="main")
    with Store(tmp_path / "t.db") as store:
        ui = open_table(store, settings, rng=random.Random(1))
        ui.handle(Action.parse("ok"))
        ui.screens.clear()
        ui.handle(Action.of_card("5D"))
    with Store(tmp_path / "t.db") as store:
        ui = open_table(store, settings)
        ui.handle(Action.of_card("KC"))
        assert not isinstance(ui.screen(), AlertScreen), ui.screen()
        assert ui.state.deal.played and ui.state.deal.played[-1][1].index == Action.of_card("KC").card.index
        ui.handle(Action.parse("undo"))
        assert store.current(table="main").game.state == ui.state
        assert ui.state.deal.played == ()


def test_a_resumed_game_keeps_its_setup_for_the_next_new_game(tmp_path):
    with Store(tmp_path / "t.db") as store:
        ui = open_table(store, TableSettings(table="main"))
        ui.settings = TableSettings(table="main", players=3, mode=Mode.CLAIM, match_games=3)
        ui.new_game()
    with Store(tmp_path / "t.db") as store:
        again = open_table(store, TableSettings(table="main"))
        assert (again.settings.players, again.settings.mode, again.settings.match_games) == (3, Mode.CLAIM, 3)


@pytest.mark.parametrize("size", [(128, 64), (128, 32)], ids=["128x64", "128x32"])
def test_ok_pages_through_each_show_then_the_next_screen(size):
    """OK takes as many presses as the screens have pages on the table's own display."""
    ui = TableUI(TableSettings(), rng=random.Random(1))
    ui.display_size = size
    ui.handle(Action.parse("ok"))
    ui.screens.clear()
    for text in ("6S", "QH", "5C", "TD", "6D", "2C", "4H", "4S", "4D"):
        ui.handle(Action.of_card(text))
    ui.screens.clear()
    for text in ("7C", "8H", "7D", "8S"):
        ui.handle(Action.of_card(text))
    counts = [pages(s, size) for s in ui.screens]
    assert max(counts) > 1  # the crib's count takes more than a page
    presses = 0
    while ui.screens:
        ui.handle(Action.parse("ok"))
        presses += 1
    assert presses == sum(counts) and ui.state.phase is Phase.DONE


def test_a_key_that_means_nothing_now_is_refused_with_what_is_awaited():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    ui.handle(Action.parse("go"))  # at the cut for the deal
    assert ui.screen().title == "Not allowed" and "nobody is to play" in " ".join(ui.screen().lines)
    ui.handle(Action.parse("undo"))
    ui.handle(Action.parse("undo"))
    assert "nothing to undo" in " ".join(ui.screen().lines)


def test_the_app_pages_at_the_size_of_the_table_display_not_an_onlookers():
    """A 128x32 table display with a 128x64 scores display: OK pages at 128x32."""
    from cribpi.app import TableApp
    from cribpi.hal import Parts
    from cribpi.hal.mock import MemoryPegboard, mock_display
    from cribpi.hal.sim import SimInputs

    ui = TableUI(TableSettings(), rng=random.Random(1))
    small, large = mock_display((128, 32)), mock_display((128, 64))
    parts = Parts(SimInputs(), MemoryPegboard(), (large, small), pages=("scores", "table"))
    TableApp(parts, ui)
    assert ui.display_size == (128, 32)


def test_a_resumed_game_says_first_which_game_it_is(tmp_path):
    with Store(tmp_path / "t.db") as store:
        ui = open_table(store, TableSettings(table="main"), rng=random.Random(1))
        ui.handle(Action.parse("ok"))  # the cut
        assert not any(screen.title == "Resumed" for screen in ui.screens if isinstance(screen, MessageScreen))
    with Store(tmp_path / "t.db") as store:
        number = store.current(table="main").game_id
        ui = open_table(store, TableSettings(table="main"))
        assert ui.screen() == MessageScreen((f"resumed game {number}", "OK: go on"), "Resumed")
        ui.handle(Action.parse("ok"))
        assert ui.screens == [] and isinstance(ui.screen(), PromptScreen)  # the starter, as the game left it
