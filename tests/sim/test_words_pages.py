"""Where the terminal shows the OLED's words alone, OK pages by the lines it shows; where it
shows the OLED's picture, by the OLED's pages."""

import pytest

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.config import Config
from cribpi.hal import Action
from cribpi.rules import Card, score_hand
from cribpi.sim import Terminal
from cribpi.views.model import ShowScreen
from cribpi.views.oled import pages
from cribpi.wiring import open_parts


@pytest.fixture
def shown():
    """A table showing "Bob hand: 24", ten items: two pages on the 128x64 OLED."""
    ui = TableUI(TableSettings(names=("Ann", "Bob")))
    app = TableApp(open_parts(Config(), "sim"), ui)
    terminal = Terminal(app, app.parts)
    app.start()  # the board and the OLED drawn, as the simulator starts
    hand = score_hand([Card.parse(c) for c in "4H 5C 5S 6D".split()], Card.parse("6H"))
    show = ShowScreen("Bob hand", tuple(hand.items), hand.total)
    assert hand.total == 24 and pages(show) == 2
    ui.show(show)
    yield terminal, ui, show
    app.close()


def test_at_80x24_every_line_shows_and_one_ok_goes_on(shown):
    terminal, ui, show = shown
    view = terminal.paged(terminal.view(), 80, 24)
    assert len(view.words) == 1 + len(show.items)  # the title and every item
    assert ui.pages(show) == 1
    ui.handle(Action.parse("ok"))
    assert ui.screen() != show and not ui.screens


def test_a_short_terminal_pages_by_its_lines(shown):
    terminal, ui, show = shown
    first = terminal.paged(terminal.view(), 80, 14)
    assert 1 < len(first.words) < 1 + len(show.items) and ui.pages(show) == 2
    ui.handle(Action.parse("ok"))
    second = terminal.paged(terminal.view(), 80, 14)
    assert first.words + second.words == terminal.view().words  # every line once, in order
    ui.handle(Action.parse("ok"))
    assert not ui.screens


def test_with_the_oleds_picture_ok_pages_as_the_oled(shown):
    terminal, ui, show = shown
    view = terminal.paged(terminal.view(), 140, 60)
    assert ui.count_pages is None and ui.pages(show) == 2 and view.words == terminal.view().words
