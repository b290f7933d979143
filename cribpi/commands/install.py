"""``cribpi install``: put the service in place (run as root): the systemd units (the table,
and a daily backup timer), the udev rule for the controller, the ``cribpi`` user and a default
configuration in /etc/cribpi; then enable and start the service, and say its status. It
returns within a minute whatever the parts do: a part that will not open leaves the service
running, degraded, with the part's problem in its status. Running it again changes nothing;
``--dry-run`` prints each step and does none."""

from __future__ import annotations

import argparse
from pathlib import Path

from cribpi.inputs import path_option


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("install", help="install cribpi as a systemd service (root; --dry-run shows the steps)",
                       description=__doc__)
    p.add_argument("--dry-run", action="store_true", help="print each step, change nothing")
    p.add_argument("--root", type=path_option("root folder", folder=True), default=Path("/"), help="install under this folder instead of / (tests, images)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.service.install import check_can_install, cribpi_executable, install_steps, run_steps, service_status

    root = args.root.resolve()
    check_can_install(root, cribpi_executable(), args.dry_run)
    run_steps(install_steps(root), dry_run=args.dry_run, say=print)
    if not args.dry_run and root == Path("/"):
        print(service_status())  # the service is up (degraded if a part would not open): say which
    if not args.dry_run:
        print("cribpi is installed: check it with `sudo cribpi doctor`, follow it with `journalctl -u cribpi -f`")
    return 0
