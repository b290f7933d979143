"""``cribpi config --check FILE``: check a configuration file without starting the table.

Every key is checked as ``cribpi run`` checks it (its layout file too); the first error is one
line naming the key, the bad value and what is allowed, with exit status 2. Nothing is
opened or written: no part, no journal. The service's own file (the one its unit names) is
read as the service reads it: its journal is the service's, whoever checks it.
"""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("config", help="check a configuration file (every key, and its layout)",
                       description=__doc__)
    p.add_argument("--check", metavar="FILE", required=True, help="the configuration file (TOML) to check")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.config import load_config
    from cribpi.inputs import WHOLE, escaped
    from cribpi.service.unit import service_for

    service = service_for(args.check)  # the service's own file: its journal as the service opens it
    config = service.load(args.check) if service else load_config(args.check)
    layout = f", layout {escaped(config.layout, WHOLE)}" if config.layout else ""
    whose = " (the service's)" if service else ""
    print(f"{escaped(config.path, WHOLE)}: valid (backend {config.backend or 'by machine'}, {len(config.pins)} buttons, "
          f"journal {escaped(config.db, WHOLE)}{whose}{layout})")
    return 0
