"""The simulator's screen fitted to a terminal: never a line wider than it, never more lines
than it has, the largest arrangement that fits, and one line when nothing fits."""

import dataclasses
import re

import pytest

from cribpi.hal import Action
from cribpi.hal.term import PEG_GLYPHS, compact_track, line_text, visible_colour
from cribpi.sim.layout import ARRANGEMENTS, View, fit, minimum_size, too_small
from tests.sim.conftest import sim_table

SIZES = [(80, 24), (120, 50), (100, 30), (132, 43), (200, 80)]


def played(players: int) -> View:
    """A table a few steps into a deal (pegs on the board, a score on the OLED)."""
    terminal = sim_table(players)
    app = terminal.app
    app.handle(Action.parse("ok"))  # a random cut
    for card in ("5H", "JS"):  # the starter, then a lay
        app.handle(Action.of_card(card))
    return terminal.view()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("columns,rows", SIZES)
def test_every_line_fits(players, columns, rows):
    view = played(players)
    lines = fit(view, columns, rows)
    assert lines is not None
    texts = [line_text(line) for line in lines]
    assert len(texts) <= rows
    assert max(map(len, texts)) <= columns, max(texts, key=len)
    board = [t for t in texts if "·····" in t]  # a track's first row shows its game counters
    assert len(board) == players
    assert any(" · count mode · ACC rules · play" in t for t in texts)  # the status line
    assert texts[-1].strip()  # the keys are always there


@pytest.mark.parametrize("players", [2, 3, 4])
def test_80x24_shows_every_key_and_the_compact_board(players):
    texts = [line_text(line) for line in fit(played(players), 80, 24) or []]
    joined = "\n".join(texts)
    for key in ("suit c d h s", "g: go", "Enter: OK", "u: undo", "m: menu (Esc closes)",
                "p seat points Enter: peg/claim", "x seat: muggins", "Ctrl-C: quit"):
        assert key in joined
    tracks = [t for t in texts if t.endswith(" ·····")]  # a compact track ends with its game counters
    assert [t.split()[0] for t in tracks] == ["Ann", "Bob", "Cat", "Dan"][:players]
    assert {len(t) for t in tracks} == {10 + 61 + 1 + 5}


def test_the_board_grows_with_the_terminal():
    view = played(2)
    small = [line_text(x) for x in fit(view, 80, 24) or []]
    large = [line_text(x) for x in fit(view, 140, 60) or []]
    full_first_row = re.compile(r"^Ann \d+ +1 [●·]")  # the full board: holes 1-30 after the name
    assert not any(full_first_row.match(t) for t in small)  # compact: a track on one line
    assert any(full_first_row.match(t) for t in large) and any(re.match(r"^ +121 ●", t) for t in large)
    assert any(t.startswith("+---") for t in large)  # the OLED's image, boxed
    assert not any(t.startswith("+---") for t in small)


def test_a_compact_track_keeps_every_hole():
    """Two holes a character: each lit hole shows in its own half of its cell."""
    view = played(2)
    track = view.frame.tracks[0]
    texts = [line_text(x) for x in fit(view, 80, 24) or []]
    cells = next(t for t in texts if t.startswith("Ann"))[10:10 + 61]
    off = (0, 0, 0)
    for n, cell in enumerate(cells):
        left, right = track[2 * n], track[2 * n + 1] if 2 * n + 1 < len(track) else off
        expected = {(False, False): {"·"}, (True, False): {"▌", "◐"}, (False, True): {"▐", "◑"},
                    (True, True): {"▌", "█", "◐", "◑", "●"}}
        assert cell in expected[left != off, right != off], (n, cell)
    assert set(cells) - {"·"}  # the marks and pegs are lit


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_tracks_pegs_have_a_glyph_of_their_own_in_plain_text(players):
    """A plain-text capture of the compact board showed pegs by colour only: a peg beside a mark
    was the mark's half block (Blue's pegs at 66 invisible). Each track's pegs now have a glyph,
    its half telling the hole, and nothing else on the board uses one."""
    terminal = sim_table(players)
    terminal.app.handle(Action.parse("ok"))  # a random cut
    for card in ("5H", "JS", "5C", "5D"):  # the starter; fifteen for two, then a pair
        terminal.app.handle(Action.of_card(card))
    view = terminal.view()
    assert len(view.pegs) == players and sum(front > 0 for front, _ in view.pegs) == 2, view.pegs
    texts = [line_text(x) for x in fit(view, 80, 24) or []]
    for n, (front, rear) in enumerate(view.pegs):
        cells = next(t for t in texts if t.startswith(view.labels[n]))[10:10 + 61]
        glyphs = set(PEG_GLYPHS[n])
        held = {hole for hole in (front, rear) if hole}
        for c, cell in enumerate(cells):
            hit = {2 * c + 1, 2 * c + 2} & held
            assert (cell in glyphs) == bool(hit), (n, c, cell)
            if hit:
                assert cell == PEG_GLYPHS[n][2 if len(hit) == 2 else 0 if 2 * c + 1 in hit else 1]
        others = {g for m, row in enumerate(PEG_GLYPHS) if m != n for g in row}
        assert not others & set(cells)


def test_a_peg_beside_a_mark_is_told_from_it_without_colour():
    grey, blue, off = (40, 40, 40), (0, 64, 255), (0, 0, 0)
    track = [off] * 121
    track[64], track[65] = grey, blue  # a mark at 65, Blue's front peg at 66: one cell
    cells = compact_track(track, 255, (66, 0), 2)
    assert cells[32].text == "◨" and cells[32].fg == visible_colour(blue, 255)
    assert compact_track(track, 255)[32].text == "▌"  # without the pegs: the mark's half block alone


@pytest.mark.parametrize("columns,rows", [(60, 24), (80, 6), (20, 3), (1, 1)])
def test_too_small_is_one_line_naming_the_size(columns, rows):
    view = played(4)
    assert fit(view, columns, rows) is None
    need = minimum_size(view)
    line = too_small(view, columns, rows)
    assert "\n" not in line and len(line) <= columns
    if columns >= 60:
        assert f"needs {need[0]}x{need[1]} or more" in line and f"(this is {columns}x{rows})" in line


def test_the_minimum_size_itself_fits():
    view = played(4)
    assert fit(view, *minimum_size(view)) is not None


def test_a_long_journal_path_keeps_its_file_name():
    view = played(2)
    long = dataclasses.replace(view, journal="/home/someone/" + "deep/" * 20 + "cribpi.db")
    header = line_text((fit(long, 80, 24) or [])[0])
    assert len(header) == 80 and header.startswith("cribpi sim   journal: …") and header.endswith("/cribpi.db")
    short = dataclasses.replace(view, journal="/tmp/x.db")
    assert line_text((fit(short, 80, 24) or [])[0]) == "cribpi sim   journal: /tmp/x.db"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_section_is_the_size_it_says_before_it_is_drawn(players):
    """fit() chooses by the sizes alone and draws only what it chose: they must be exact."""
    view = played(players)
    for section in {s for arrangement in ARRANGEMENTS for s in arrangement}:
        lines = section.draw(view)
        texts = [line_text(line) for line in lines]
        assert section.size(view) == (max(map(len, texts), default=0), len(lines)), section


@pytest.mark.parametrize("columns,rows", [(80, 24), (120, 50)])
def test_with_phones_the_address_and_pin_are_under_the_keys(columns, rows):
    """`cribpi sim --phones`: the address and this game's PIN stay on the screen (what the
    simulator printed as it started is covered by its table at once), read at each frame."""
    terminal = sim_table(2)
    pins = ["4078"]
    terminal.phones = lambda: f"phones: http://192.168.1.20:8130/ PIN {pins[-1]}"
    texts = [line_text(x) for x in fit(terminal.view(columns), columns, rows) or []]
    assert any("http://192.168.1.20:8130/ PIN 4078" in t for t in texts), texts
    pins.append("3360")  # a new game
    texts = [line_text(x) for x in fit(terminal.view(columns), columns, rows) or []]
    assert any("PIN 3360" in t for t in texts) and not any("PIN 4078" in t for t in texts)
