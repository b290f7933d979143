"""Regenerate the OLED and board pictures used in docs/usage.md and README.md.

    python docs/pictures.py            (writes docs/img/*.png)
    python docs/pictures.py --check    (exit 1 naming each picture the screens no longer match)

``tests/views/test_docs_pictures.py`` runs the check, so a screen that changes fails the suite
until its pictures are made again.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PIL import Image, ImageChops

from cribpi.app import TableSettings, TableUI
from cribpi.game import Mode
from cribpi.hal import Action
from cribpi.views import LedSettings, render_board, render_screen
from cribpi.views.model import ShowScreen
from cribpi.views.picture import board_picture, oled_picture

IMG = Path(__file__).with_name("img")
OUT = IMG  # where snap() writes: write() points it at its folder


def snap(ui: TableUI, name: str) -> None:
    oled_picture(render_screen(ui.screen())).save(OUT / f"{name}.png")


def press(ui: TableUI, *texts: str) -> None:
    for text in texts:
        ui.handle(Action.parse(text))


def cards(ui: TableUI, *texts: str) -> None:
    for text in texts:
        press(ui, f"rank {text[0]}", f"suit {text[1]}")


def count_mode() -> None:
    ui = TableUI(TableSettings(names=("Ann", "Bob")), rng=random.Random(2))
    snap(ui, "usage-count-1-cut")
    press(ui, "ok")
    ui.screens.clear()
    snap(ui, "usage-count-2-starter")
    press(ui, "rank 6")
    snap(ui, "usage-count-3-rank-waits-for-suit")
    press(ui, "suit S")
    cards(ui, "QH", "5C")
    snap(ui, "usage-count-4-fifteen-two")
    cards(ui, "TD", "6D", "2C", "4H", "4S", "4D")
    ui.screens = [s for s in ui.screens if isinstance(s, ShowScreen) and s.total][:1]  # a hand that scores
    snap(ui, "usage-count-5-hand-breakdown")
    ui.screens.clear()
    snap(ui, "usage-count-6-crib-prompt")
    board = render_board(replace(ui.board(), brightness=1.0), LedSettings(current_cap_ma=1e5))
    board_picture(board).save(OUT / "usage-count-board.png")


def claim_mode() -> None:
    rules = "acc-tournament"
    ui = TableUI(TableSettings(names=("Ann", "Bob"), mode=Mode.CLAIM, rules=rules), rng=random.Random(2))
    press(ui, "ok")
    ui.screens.clear()
    cards(ui, "KS", "5C", "TD")
    dealer = ui.state.deal.dealer
    snap(ui, "usage-claim-1-waiting-for-claim")
    cards(ui, "5H", "AD")  # the dealer lays again: his fifteen was never claimed
    snap(ui, "usage-claim-2-muggins-offered")
    ui.screens.clear()
    ui.handle(Action.muggins(1 - dealer))  # the call is opened: PEG presses name its points
    ui.handle(Action.peg(1 - dealer, 1))
    ui.handle(Action.peg(1 - dealer, 1))
    press(ui, "ok")
    snap(ui, "usage-claim-3-muggins-taken")


def board_mode() -> None:
    ui = TableUI(TableSettings(names=("Ann", "Bob"), mode=Mode.BOARD), rng=random.Random(2))
    press(ui, "ok")
    ui.screens.clear()
    ui.handle(Action.peg(0, 5))
    ui.handle(Action.peg(0, 1))
    snap(ui, "usage-board-1-tally")
    press(ui, "ok")
    ui.screens.clear()
    snap(ui, "usage-board-2-scores")


def menu() -> None:
    ui = TableUI(TableSettings(), rng=random.Random(2))
    press(ui, "menu", "go", "go")
    snap(ui, "usage-menu")


def phones() -> None:
    """MENU, Phones: the join screen (the table's address as a QR code, its PIN, the seats)."""
    ui = TableUI(TableSettings(names=("Ann", "Bob")), rng=random.Random(2))
    ui.join_info = lambda: ("http://192.168.1.20:8130/", "4821")
    press(ui, "menu")
    assert ui.menu is not None
    ui.menu.selected = [label for label, _ in ui.menu.items].index("Phones")
    press(ui, "ok")
    snap(ui, "usage-phones-join")


MAKERS: tuple[Callable[[], None], ...] = (count_mode, claim_mode, board_mode, menu, phones)


def write(folder: Path) -> list[str]:
    """Make every picture in ``folder``; their file names."""
    global OUT
    OUT, before = folder, IMG
    try:
        for make in MAKERS:
            make()
    finally:
        OUT = before
    return sorted(p.name for p in folder.glob("*.png"))


def stale() -> list[str]:
    """The pictures in docs/img that the screens, drawn now, no longer match (pixel for pixel)."""
    with tempfile.TemporaryDirectory() as name:
        made = Path(name)
        wrong = []
        for picture in write(made):
            kept = IMG / picture
            if not kept.exists():
                wrong.append(f"{picture} (missing)")
                continue
            with Image.open(kept) as old, Image.open(made / picture) as new:
                if old.size != new.size or ImageChops.difference(old.convert("RGB"), new.convert("RGB")).getbbox():
                    wrong.append(picture)
        return wrong


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with docs/img instead of writing")
    if parser.parse_args().check:
        wrong = stale()
        for picture in wrong:
            print(f"docs/img/{picture} no longer matches the screen: run python docs/pictures.py")
        sys.exit(1 if wrong else 0)
    IMG.mkdir(exist_ok=True)
    write(IMG)
    print(f"pictures written to {IMG}")
