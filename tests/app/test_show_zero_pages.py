"""A hand or crib that scores nothing still has its page in the show, in its place (the game
pegs no points for it, so no effect says so): the reviewer's deal at 80x24 went "Red 1 one for
last" -> "Red hand: 14" -> "Crib cards" and never said "Blue hand: 0"."""

import random

from cribpi.app import TableSettings, TableUI
from cribpi.game import Mode, Phase
from cribpi.hal import Action
from cribpi.views.model import ShowScreen
from cribpi.views.text import screen_text

PLAY = ("2C", "5C", "4D", "5D", "6H", "go", "8S", "go", "TC", "JD")  # Blue: 2C 4D 6H 8S with KS scores 0


def key(ui: TableUI, *inputs: str) -> None:
    for text in inputs:
        ui.handle(Action.parse(text) if text in ("go", "ok") else Action.of_card(text))


def titles(ui: TableUI) -> list[str]:
    """The first line of every screen paged through with OK (each screen once)."""
    seen: list[str] = []
    while ui.screens:
        if ui.screen().page == 0 if isinstance(ui.screen(), ShowScreen) else True:
            seen.append(screen_text(ui.screen()).splitlines()[0])
        key(ui, "ok")
    return seen


def deal(mode: Mode = Mode.COUNT) -> TableUI:
    """Cut 3C 9D (Red deals), starter KS, the play."""
    ui = TableUI(TableSettings(mode=mode), rng=random.Random(1))
    ui.display_size = (128, 64)
    key(ui, "3C", "9D", "KS", *PLAY)
    return ui


def test_a_hand_of_nothing_has_its_page_before_the_next_hand():
    ui = deal()
    assert titles(ui) == ["Red 1", "Blue hand: 0", "Red hand: 14"]
    assert ui.state.phase is Phase.SHOW


def test_the_zero_page_says_there_is_nothing_to_count():
    ui = deal()
    key(ui, "ok")
    assert screen_text(ui.screen()) == "Blue hand: 0\nnothing to count"


def test_a_crib_of_nothing_has_its_page():
    ui = deal()
    ui.screens.clear()
    key(ui, "3H", "7S", "9H", "QC")
    assert titles(ui) == ["Red crib: 0"]
    assert ui.state.phase is Phase.DONE


def test_a_crib_that_scores_has_no_zero_page_with_it():
    ui = deal()
    ui.screens.clear()
    key(ui, "3H", "7S", "9H", "5H")
    assert titles(ui) == ["Red crib: 4"]


def test_claim_mode_asks_for_the_claim_of_a_hand_of_nothing_as_before():
    ui = deal(Mode.CLAIM)
    ui.screens.clear()
    while ui.screen().prompt.endswith(" claims"):  # the play's open scores: OK claims nothing
        key(ui, "ok")
        assert "Blue hand: 0" not in titles(ui)
    assert ui.screen().prompt == "Blue hand?"


def test_a_rendered_record_shows_the_crib_of_nothing_as_the_table_does():
    """``cribpi render`` draws each event's last screen as the table shows it: the crib's event
    ends on its zero page, not on the screen before it."""
    from cribpi.commands.render import record_screens

    ui = deal()
    ui.screens.clear()
    key(ui, "3H", "7S", "9H", "QC")
    table_last = screen_text(ui.screens[-1])
    event, _, screen = list(record_screens(ui.session.game.events))[-1]
    assert event.kind == "crib" and screen_text(screen) == table_last == "Red crib: 0\nnothing to count"
