"""`cribpi render` of a record with a ``Move`` line: the OLED shows what the table shows after
the same events, the play's latest score as the move left it, never the score it took away."""

from __future__ import annotations

import subprocess
import sys

import pytest
from PIL import Image

from cribpi.app import Session, TableUI
from cribpi.commands.render import record_screens
from cribpi.game import MoveCard
from cribpi.record import parse_record
from cribpi.views import render_screen
from cribpi.views.model import PlayScreen, ScreenModel
from cribpi.views.picture import oled_picture
from cribpi.views.text import screen_text

HEAD = '[Players "Ann" "Bob"]\n[Dealer "Bob"]\n\n'
RECORDS = {
    # Bob's 6D was Ann's: Bob's pair of aces is still his, and Ann's 6D after his go pegs her one
    "a go the move puts in": HEAD + "Starter: 2S\nPlay: 6C JH AS AH 4S 6D\nMove 6D Ann\nPlay: KS\n",
    # the thirty-one was Ann's, so Bob leads the next count
    "a thirty-one moved": HEAD + "Starter: 2S\nPlay: TC QD 2C 9H\nMove 9H Ann\nPlay: KS\n",
    # as above, after his heels: the thirty-one is still the latest score
    "after his heels": HEAD + "Starter: JS\nPlay: TC QD 2C 9H\nMove 9H Ann\nPlay: KS\n",
}


def table_at_rest(text: str) -> list[tuple[bool, ScreenModel | None]]:
    """After each event, whether the table has screens to page through (the score just made,
    an alert), and its resting screen once they are paged through."""
    events = parse_record(text).events
    ui = TableUI(session=Session(events[0]))
    shown: list[tuple[bool, ScreenModel | None]] = [(False, None)]  # the game's start: nothing shown yet
    for event in events[1:]:
        ui.handle_event(event)
        paged = bool(ui.screens)
        ui.screens.clear()
        shown.append((paged, ui.screen()))
    return shown


def last_line(screen: ScreenModel | None) -> str:
    assert isinstance(screen, PlayScreen) and screen.last is not None
    return screen_text(screen).splitlines()[-1]


@pytest.mark.parametrize("name", RECORDS)
def test_render_shows_the_table_s_resting_screen_after_every_event(name: str):
    text = RECORDS[name]
    rendered = list(record_screens(parse_record(text).events))
    table = table_at_rest(text)
    compared = set()
    for number, ((event, _, screen), (paged, resting)) in enumerate(zip(rendered, table, strict=True)):
        if not paged and resting is not None:
            assert screen_text(screen) == screen_text(resting), f"after {event}"
            compared.add(number)
    moved = next(i for i, (event, _, _) in enumerate(rendered) if isinstance(event, MoveCard))
    assert moved + 1 in compared and len(compared) >= 3


@pytest.mark.parametrize("name", RECORDS)
def test_after_the_move_the_last_score_is_not_the_one_the_move_took_away(name: str):
    events = parse_record(RECORDS[name]).events
    moved = next(i for i, event in enumerate(events) if isinstance(event, MoveCard))
    table = table_at_rest(RECORDS[name])
    rendered = [screen for _, _, screen in record_screens(events)]
    after = last_line(rendered[moved + 1])  # the Move itself shows its alert: the next event, at rest
    assert after == last_line(table[moved + 1][1])
    assert after != last_line(table[moved - 1][1])  # the last score before the move


def test_the_cli_draws_the_table_s_screen_after_a_move(tmp_path):
    text = RECORDS["a go the move puts in"]
    record = tmp_path / "moved.crib"
    record.write_text(text)
    out = tmp_path / "pics"
    done = subprocess.run([sys.executable, "-m", "cribpi", "render", "--record", str(record), "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    events = parse_record(text).events
    after = next(i for i, event in enumerate(events) if isinstance(event, MoveCard)) + 1
    paged, resting = table_at_rest(text)[after]
    assert not paged and resting is not None
    drawn = Image.open(out / f"{after + 1:03d}-{events[after].kind}-oled.png")
    wanted = oled_picture(render_screen(resting), 3)
    assert drawn.size == wanted.size
    assert drawn.convert("RGB").tobytes() == wanted.convert("RGB").tobytes()
