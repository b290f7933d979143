"""``cribpi render --record FILE --out DIR``: a picture of the board and the OLED after
every event of a game record (``NNN-board.png``, ``NNN-oled.png``), for docs and bug reports."""

from __future__ import annotations

import argparse
from pathlib import Path

from cribpi.exc import RecordError
from cribpi.inputs import int_option, path_option, read_user_text

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
    from cribpi.game import apply
    from cribpi.game.engine import INITIAL
    from cribpi.record import parse_record
    from cribpi.views import LedSettings, render_board, render_screen
    from cribpi.views.picture import board_picture, oled_picture
    from cribpi.views.table import board_model, effect_screens, last_score_line, phase_screen

    record = parse_record(text)
    out.mkdir(parents=True, exist_ok=True)
    state = INITIAL
    written: list[Path] = []
    settings = LedSettings(current_cap_ma=100_000)
    last = None
    for number, event in enumerate(record.events, start=1):
        state, effects = apply(state, event)
        last = last_score_line(state, effects, last)
        frame = render_board(board_model(state, brightness=1.0), settings)  # pegs at rest: no flash
        screens = effect_screens(state, effects)
        screen = screens[-1] if screens else phase_screen(state, last=last)
        stem = f"{number:03d}-{event.kind}"
        for suffix, picture in (("board", board_picture(frame)), ("oled", oled_picture(render_screen(screen), scale))):
            path = out / f"{stem}-{suffix}.png"
            picture.save(path)
            written.append(path)
    return written


def run(args: argparse.Namespace) -> int:
    from cribpi.record import RecordFileError

    text = read_user_text(args.record, "game record", RecordFileError)
    try:
        written = render_record(text, args.out, args.scale)
    except RecordError as exc:
        raise RecordError(f"{args.record}: {exc}") from None
    print(f"wrote {len(written)} pictures to {args.out}")
    return 0
