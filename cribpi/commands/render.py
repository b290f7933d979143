"""``cribpi render --record FILE --out DIR``: a picture of the board and the OLED after
every event of a game record (``NNN-board.png``, ``NNN-oled.png``), for docs and bug reports."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from pathlib import Path

from cribpi.exc import RecordError
from cribpi.inputs import WHOLE, escaped, int_option, path_option, read_user_text

TYPE_CHECKING = False  # the game and the views are imported when the command runs, not with the parser
if TYPE_CHECKING:
    from cribpi.game import Event, State
    from cribpi.views.model import ScreenModel

MAX_SCALE = 16  # a 128x64 OLED at 16x is a 2048x1024 picture: bigger is a typo


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("render", help="draw the board and OLED after each event of a record",
                       description=__doc__)
    p.add_argument("--record", required=True, help="a game record (see docs/record-format.md)")
    p.add_argument("--out", type=path_option("folder for the pictures", folder=True), required=True,
                   help="folder for the PNG files (created if missing)")
    p.add_argument("--scale", type=int_option(1, MAX_SCALE), default=3,
                   help=f"OLED enlargement 1-{MAX_SCALE} (default 3)")
    p.set_defaults(run=run)


def render_record(text: str, out: Path, scale: int = 3) -> list[Path]:
    from cribpi.record import parse_record
    from cribpi.views import LedSettings, render_board, render_screen
    from cribpi.views.picture import board_picture, oled_picture
    from cribpi.views.table import board_model

    record = parse_record(text)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    settings = LedSettings(current_cap_ma=100_000)
    for number, (event, state, screen) in enumerate(record_screens(record.events), start=1):
        frame = render_board(board_model(state, brightness=1.0), settings)  # pegs at rest: no flash
        stem = f"{number:03d}-{event.kind}"
        for suffix, picture in (("board", board_picture(frame)), ("oled", oled_picture(render_screen(screen), scale))):
            path = out / f"{stem}-{suffix}.png"
            picture.save(path)
            written.append(path)
    return written


def record_screens(events: Iterable[Event]) -> Iterator[tuple[Event, State, ScreenModel]]:
    """After each event from the start of the game: the event, the table, and what its OLED
    shows: the last screen the event gives to page through (a score, an alert), else the
    phase's resting screen with the last score as the table says it (after a move, the play's
    latest score as it now stands, not the one the move took away)."""
    from cribpi.game import apply
    from cribpi.game.engine import INITIAL
    from cribpi.views.table import effect_screens, last_score_after, phase_screen

    state, last = INITIAL, None
    said: list[Event] = []  # the events so far: a penalty given before the starter keeps its reason in its event
    for event in events:
        before = state
        state, effects = apply(state, event)
        said.append(event)
        last = last_score_after(state, event, effects, last, said)
        screens = effect_screens(state, effects, before)  # a hand or crib of 0 has its page, as at the table
        yield event, state, screens[-1] if screens else phase_screen(state, last=last)


def run(args: argparse.Namespace) -> int:
    from cribpi.record import RecordFileError

    text = read_user_text(args.record, "game record", RecordFileError)
    try:
        written = render_record(text, args.out, args.scale)
    except RecordError as exc:
        raise RecordError(f"{args.record}: {exc}") from None
    print(f"wrote {len(written)} pictures to {escaped(args.out, WHOLE)}")
    return 0
