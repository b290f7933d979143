"""Set-up choices a newcomer tripped on: the names of seats added to a table's last game, the
brightness step after a configured value, the review under a tournament preset."""

from __future__ import annotations

import random

import pytest

from cribpi.app import TableSettings, TableUI
from cribpi.app.opening import open_table
from cribpi.app.session import Session
from cribpi.app.settings import BRIGHTNESS_STEPS, DEFAULT_NAMES, MAIN_TABLE, next_brightness, toggle_review
from cribpi.hal import Action
from cribpi.store import Store
from cribpi.views.table import board_model


@pytest.mark.parametrize("players", [3, 4])
def test_seats_added_to_the_last_games_names_take_their_own_colours_names(tmp_path, players):
    with Store(tmp_path / "j.db") as store:
        Session(TableSettings(names=("Ann", "Bob"), table=MAIN_TABLE).new_game(), store, MAIN_TABLE)
        ui = open_table(store, TableSettings(players=players, table=MAIN_TABLE), new=True, history=store,
                        given={"players", "partnerships"}, keeper=store)
        names = ui.state.names
    assert names == ("Ann", "Bob", *DEFAULT_NAMES[2:players])


def test_a_seat_whose_colours_name_is_taken_gets_one_nobody_has():
    state = TableUI(TableSettings(names=("Green", "Red")), rng=random.Random(1)).state
    from cribpi.app.settings import settings_of

    names = settings_of(state, TableSettings()).names
    assert names[:2] == ("Green", "Red") and len(set(names)) == len(names) == 4


def test_each_seats_colour_is_named_by_its_default_name():
    """What "own colour" means: seat 3 pegs the third track's colour, whose default name is Green."""
    ui = TableUI(TableSettings(players=4), rng=random.Random(1))
    colours = [track.colour for track in board_model(ui.state).tracks]
    assert len(set(colours)) == 4 and ui.state.names == DEFAULT_NAMES


@pytest.mark.parametrize("now, expected", [(0.4, 0.5), (0.3, 0.5), (0.1, 0.25), (0.5, 0.75), (0.9, 1.0),
                                           (1.0, 0.1), (0.0, 0.1), (0.05, 0.1)])
def test_brightness_goes_to_the_first_step_above_it(now, expected):
    assert next_brightness(TableSettings(brightness=now)).brightness == expected


def test_every_step_is_reached_in_turn():
    seen, settings = [], TableSettings(brightness=BRIGHTNESS_STEPS[0])
    for _ in BRIGHTNESS_STEPS:
        settings = next_brightness(settings)
        seen.append(settings.brightness)
    assert sorted(seen) == list(BRIGHTNESS_STEPS)


def setup_labels(ui: TableUI) -> list[str]:
    ui.handle(Action.parse("menu"))
    assert ui.menu is not None
    while not ui.menu.items[ui.menu.selected][0].startswith("Next game setup"):
        ui.handle(Action.parse("go"))
    ui.handle(Action.parse("ok"))
    return [label for label, _ in ui.menu.items]


def test_review_under_a_tournament_preset_is_shown_off_and_cannot_be_switched():
    settings = TableSettings(review=True, rules="acc-tournament")
    assert toggle_review(settings) == settings
    ui = TableUI(settings, rng=random.Random(1))
    labels = setup_labels(ui)
    assert "Review: off (tournament)" in labels and "Review: on" not in labels
    while not ui.menu.items[ui.menu.selected][0].startswith("Review"):
        ui.handle(Action.parse("go"))
    ui.handle(Action.parse("ok"))
    assert ui.settings == settings and "Review: off (tournament)" in [label for label, _ in ui.menu.items]
    assert ui.settings.new_game().review is False


def test_review_kept_on_comes_back_under_a_casual_preset():
    settings = TableSettings(review=True, rules="acc")
    ui = TableUI(settings, rng=random.Random(1))
    assert "Review: on" in setup_labels(ui)
    assert toggle_review(settings).review is False
