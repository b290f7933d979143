"""MENU -> "Phones" shows the join screen (the address as a QR code, the table's PIN, the
seats) on the table's OLED, drawn afresh so a new game's PIN shows; Back (OK) goes back to the
menu on "Phones", MENU closes it. A table that was handed no join info has no "Phones"."""

from __future__ import annotations

from table_keys import mock_table, pick, press

from cribpi.views.model import JoinScreen, MenuScreen, MessageScreen
from cribpi.views.oled import render_screen

URL = "http://192.168.100.200:8080/"


def labels(ui) -> tuple[str, ...]:
    return ui.menu.screen().items


def test_phones_shows_the_join_screen_and_back_closes_it():
    with mock_table() as (parts, ui, app):
        pins = ["4821"]
        ui.join_info = lambda: (URL, pins[-1])
        press(parts, app, "menu")
        assert "Phones" in labels(ui)
        pick(parts, app, ui, "Phones")
        shown = ui.screen()
        assert shown == JoinScreen(URL, "4821", tuple(ui.state.names))
        assert parts.image.tobytes() == render_screen(shown).tobytes()  # on the OLED itself
        pins.append("0917")  # a new game's PIN: the screen is drawn from the server each time
        press(parts, app, "go")  # GO/UNDO move in the one-item menu: nothing else changes
        assert ui.screen().pin == "0917"
        assert parts.image.tobytes() == render_screen(ui.screen()).tobytes()
        press(parts, app, "ok")  # Back
        assert isinstance(ui.screen(), MenuScreen) and labels(ui)[ui.menu.selected] == "Phones"
        pick(parts, app, ui, "Phones")
        press(parts, app, "menu")  # MENU closes it, as any menu
        assert ui.menu is None and not isinstance(ui.screen(), JoinScreen)


def test_no_join_info_no_phones_item():
    with mock_table() as (parts, ui, app):
        press(parts, app, "menu")
        assert not any(label.startswith("Phones") for label in labels(ui))


def test_a_server_not_up_or_an_unusable_address_is_said():
    with mock_table() as (parts, ui, app):
        info = [None]
        ui.join_info = lambda: info[-1]
        press(parts, app, "menu")
        pick(parts, app, ui, "Phones")
        assert isinstance(ui.screen(), MessageScreen) and "not" in " ".join(ui.screen().lines)
        info.append(("http://a-very-long-host-name.of-the-club.example.org:8080/", "1234"))
        press(parts, app, "go")
        said = ui.screen()
        assert isinstance(said, MessageScreen) and "too long for a version 2 QR code" in said.lines[0]
        press(parts, app, "ok")
        assert labels(ui)[ui.menu.selected] == "Phones"  # the table goes on
