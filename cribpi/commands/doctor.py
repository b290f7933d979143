"""``cribpi doctor``: check what a maker gets wrong, one line per check with ✓ or ✗ and the
fix: the configuration, I2C and the OLED at its address, the GPIO chip, the controller and its
firmware, the groups, the journal (writable, and sound under a full integrity check) and the
free disk. Exits 1 when a check fails."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("doctor", help="check the Pi, its parts, the journal and the config; say how to fix each",
                       description=__doc__)
    p.add_argument("--config", help="configuration file (default: $CRIBPI_CONFIG, then /etc/cribpi/cribpi.toml)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.daemon import find_config
    from cribpi.service.doctor import checks, report

    return 0 if report(checks(lambda: find_config(args.config)), print) else 1
