"""An alert waits for its OK: the next key (a card laid at once) leaves it queued ahead of what
that key brings, where a score's page gives way to the key. A second renege alert was lost so,
and showed only in the replay."""

import random

from cribpi.app import TableSettings, TableUI
from cribpi.app.ui import refusal, unread_alerts
from cribpi.game import AlertKind
from cribpi.hal import Action
from cribpi.views.model import AlertScreen, ScoreScreen
from cribpi.views.table import ALERT_TITLES


def key(ui: TableUI, *inputs: str) -> None:
    for text in inputs:
        ui.handle(Action.parse(text) if text in ("go", "ok", "undo") else Action.of_card(text))


def renege_of_red() -> TableUI:
    """Red deals (cut 3C 9D), starter KS; Red says go at 22 and leads 4C after the go: a renege."""
    ui = TableUI(TableSettings(), rng=random.Random(1))
    key(ui, "3C", "9D", "KS", "TH", "TD", "2S", "go", "3S", "go", "4C")
    assert [s.title for s in ui.screens] == ["Renege"]
    return ui


def lines(ui: TableUI) -> list[str]:
    return [" ".join(s.lines) for s in ui.screens if isinstance(s, AlertScreen)]


def test_a_renege_alert_stays_queued_when_the_next_card_is_laid_without_ok():
    ui = renege_of_red()
    key(ui, "5C")  # Blue lays at once: a renege of its own (it said go at 25 holding 5C)
    said = lines(ui)
    assert len(said) == 2 and "holding 4C" in said[0] and "holding 5C" in said[1]
    key(ui, "ok")
    assert "holding 5C" in " ".join(ui.screen().lines)
    key(ui, "ok")
    assert not ui.screens


def test_a_score_page_still_gives_way_to_the_next_key():
    ui = TableUI(TableSettings(), rng=random.Random(1))
    key(ui, "3C", "9D", "KS", "TH", "TD")
    assert isinstance(ui.screen(), ScoreScreen)  # Red's pair
    key(ui, "2S")
    assert not ui.screens


def test_a_refused_key_shows_first_and_the_alert_waits_behind_it():
    ui = renege_of_red()
    key(ui, "4C")  # laid already: refused
    assert ui.screen().title == "Not allowed"
    key(ui, "undo")  # takes back the refusal
    assert ui.screen().title == "Renege" and "holding 4C" in " ".join(ui.screen().lines)


def test_undo_at_the_alert_takes_back_its_card_and_the_alert_with_it():
    ui = renege_of_red()
    key(ui, "undo")
    assert [s.title for s in ui.screens] == ["Undone"]
    assert str(ui.state.deal.played[-1][1]) == "3S"


def test_only_a_renege_waits_and_every_other_alert_gives_way_to_the_next_key():
    """An overclaim or a wrong muggins left up through five cards hid the card being keyed and
    the count (a second review): only the renege, which must be seen, waits."""
    question = AlertScreen(ALERT_TITLES[AlertKind.MUGGINS], ("Bob claimed 4 of 6: muggins for 2?",))
    heels = AlertScreen(ALERT_TITLES[AlertKind.HEELS], ("Ann pegs 2 for his heels",))
    recut = AlertScreen(ALERT_TITLES[AlertKind.RECUT], ("Ann and Bob cut equal low cards (3): cut again",))
    over = AlertScreen(ALERT_TITLES[AlertKind.OVERCLAIM], ("Blue claimed 3 but has 2: corrected",))
    wrong = AlertScreen(ALERT_TITLES[AlertKind.WRONG_MUGGINS], ("Ann called muggins wrongly: Bob pegs 2",))
    renege = AlertScreen(ALERT_TITLES[AlertKind.RENEGE], ("renege: Bob said go at 22 holding 4C",))
    assert unread_alerts([refusal("no"), question, recut, heels, over, wrong, renege]) == [renege]
