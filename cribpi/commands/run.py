"""``cribpi run``: the table on this machine (the Pi's buttons and OLED, or the terminal
simulator where there is no Pi), resuming the open game."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("run", help="run the table on this machine's hardware (sim off a Pi)",
                       description=__doc__)
    p.add_argument("--config", help="configuration file (default: $CRIBPI_CONFIG, then /etc/cribpi/cribpi.toml)")
    p.add_argument("--backend", help="pi, controller, sim or mock (default: $CRIBPI_BACKEND, the config, the machine)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.daemon import run as run_table

    return run_table(args.config, args.backend)
