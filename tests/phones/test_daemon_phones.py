"""The daemon's wiring of the phones (cribpi.daemon.table.attach_phones): with ``[phones]`` on,
the table's MENU > Phones shows the server's address and the PIN of the game being played (read
at each draw: a new game, a new PIN); off, no server and no Phones item."""

from __future__ import annotations

import dataclasses
import random
import socket

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.config import Config
from cribpi.daemon.table import attach_phones
from cribpi.hal.mock import open_mock
from cribpi.phonesconfig import PhonesConfig


def test_the_menu_is_handed_the_servers_address_and_this_games_pin() -> None:
    ui = TableUI(TableSettings(names=("Ann", "Bob")), rng=random.Random(1))
    app = TableApp(open_mock(), ui)
    config = dataclasses.replace(Config(), phones=PhonesConfig(enabled=True, host="127.0.0.1", port=0))
    phones, stop = attach_phones(app, config)
    try:
        assert phones is not None and ui.join_info is not None
        assert ui.join_info() == (phones.url, phones.pin)
        first = phones.pin
        ui.new_game()
        app.publish((), ())  # the server hears of the new game as any listener does
        assert ui.join_info() == (phones.url, phones.pin) and phones.pin != first
    finally:
        stop()
        app.close()


def test_without_phones_no_server_and_no_menu_item() -> None:
    ui = TableUI(TableSettings(names=("Ann", "Bob")), rng=random.Random(1))
    app = TableApp(open_mock(), ui)
    phones, stop = attach_phones(app, Config())
    assert phones is None and ui.join_info is None
    stop()
    app.close()


def test_a_port_taken_shows_no_join_screen_but_the_problem() -> None:
    """The port is another program's: MENU > Phones is handed nothing (it says the page is not
    served, not a code of an address nobody answers at; the table's problems say why); once the
    port is free and the server retried, the address and PIN again."""
    taken = socket.create_server(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    ui = TableUI(TableSettings(names=("Ann", "Bob")), rng=random.Random(1))
    app = TableApp(open_mock(), ui)
    config = dataclasses.replace(Config(), phones=PhonesConfig(enabled=True, host="127.0.0.1", port=port))
    phones, stop = attach_phones(app, config)
    try:
        assert phones is not None and phones.problem is not None and str(port) in phones.problem
        assert ui.join_info is not None and ui.join_info() is None  # the menu says so (tests/app/test_phones_menu.py)
        taken.close()
        assert phones.start()  # as the table's loop retries it
        assert ui.join_info() == (phones.url, phones.pin)
    finally:
        taken.close()
        stop()
        app.close()
