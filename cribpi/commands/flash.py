"""``cribpi flash``: put the controller firmware on the Pico (over USB, with mpremote), with the
board's layout, then check the protocol version it answers with. This is the command the OLED
names when the controller's firmware is too old or too new for this cribpi."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from cribpi.hal.controller.flash import add_arguments

    p = sub.add_parser("flash", help="put the controller firmware and the board's layout on the Pico",
                       description=__doc__)
    add_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.hal.controller.flash import run as flash

    return flash(args)
