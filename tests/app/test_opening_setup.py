"""A restart with no game open starts the next one set up as the table's last game was."""

import pytest

from cribpi.app import TableSettings
from cribpi.app.opening import open_table
from cribpi.app.session import Session
from cribpi.app.settings import MAIN_TABLE, muggins_on
from cribpi.game import Mode
from cribpi.store import Store


@pytest.fixture
def store(tmp_path):
    """A journal whose last game at the main table (now closed) was 3 players, claim mode, muggins on."""
    with Store(tmp_path / "j.db") as store:
        chosen = TableSettings(names=("Ann", "Bob", "Cy"), players=3, mode=Mode.CLAIM, muggins=True, table=MAIN_TABLE)
        session = Session(chosen.new_game(), store, MAIN_TABLE)
        Session(TableSettings(mode=Mode.BOARD, table="other").new_game(), store, "other")  # another table's
        assert store.finish(session.game_id) == "abandoned"
        yield store


def test_the_next_game_keeps_the_last_games_setup(store):
    ui = open_table(store, TableSettings(table=MAIN_TABLE, brightness=0.25), history=store)
    assert (ui.state.mode, ui.state.seats, ui.state.names) == (Mode.CLAIM, 3, ("Ann", "Bob", "Cy"))
    assert muggins_on(ui.settings) and ui.settings.brightness == 0.25  # the machine's own settings stay


def test_an_option_given_on_the_command_line_wins(store):
    ui = open_table(store, TableSettings(mode=Mode.COUNT, table=MAIN_TABLE), history=store, given={"mode"})
    assert (ui.state.mode, ui.state.seats) == (Mode.COUNT, 3)


def test_a_table_with_no_past_game_starts_from_its_settings(store):
    ui = open_table(store, TableSettings(table="new table"), history=store)
    assert (ui.state.mode, ui.state.seats) == (Mode.COUNT, 2)
