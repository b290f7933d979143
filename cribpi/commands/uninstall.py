"""``cribpi uninstall``: undo ``cribpi install`` (run as root): stop and disable the service,
remove its units, the udev rule, the user and the default configuration. The journal in
/var/lib/cribpi and a configuration you edited are kept."""

from __future__ import annotations

import argparse
from pathlib import Path

from cribpi.inputs import path_option


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("uninstall", help="remove the service cribpi install put in place (keeps the journal)",
                       description=__doc__)
    p.add_argument("--dry-run", action="store_true", help="print each step, change nothing")
    p.add_argument("--root", type=path_option("root folder", folder=True), default=Path("/"), help="uninstall under this folder instead of /")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.service.install import check_can_install, cribpi_executable, run_steps, uninstall_steps

    root = args.root.resolve()
    check_can_install(root, cribpi_executable(), args.dry_run)
    run_steps(uninstall_steps(root), dry_run=args.dry_run, say=print)
    return 0
