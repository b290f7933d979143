"""``cribpi doctor``: check what a maker gets wrong, one line per check with ✓ or ✗ and the
fix: the configuration, I2C and the OLED at its address, the GPIO chip, the controller and its
firmware, the groups, the journal (writable, and sound under a full integrity check) and the
free disk. Exits 1 when a check fails.

The service's configuration (the file its unit names, /etc/cribpi/cribpi.toml) is checked as
the service sees it, whoever runs the doctor: its journal in /var/lib/cribpi, its own user and
groups. Off a Raspberry Pi the Pi's own checks are left out, saying so."""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("doctor", help="check the Pi, its parts, the journal and the config; say how to fix each",
                       description=__doc__)
    p.add_argument("--config", help="configuration file (default: $CRIBPI_CONFIG, then /etc/cribpi/cribpi.toml)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.daemon import CONFIG_PATHS, find_config
    from cribpi.service.doctor import checks, report
    from cribpi.service.unit import service_for

    chosen = args.config or os.environ.get("CRIBPI_CONFIG") or next((p for p in CONFIG_PATHS if Path(p).is_file()), None)
    service = service_for(chosen)
    load = (lambda: service.load(chosen)) if service and chosen else (lambda: find_config(args.config))
    return 0 if report(checks(load, service=service), print) else 1
