"""``cribpi backup``: a consistent copy of the journal (SQLite's online backup, safe while the
table runs and writes) named ``cribpi-YYYYMMDD-HHMMSS.db``, keeping the newest N. The daily
systemd timer (cribpi-backup.timer) runs it for the service. To restore: stop the service and
copy a backup over the journal (docs/install.md)."""

from __future__ import annotations

import argparse

from cribpi.inputs import WHOLE, escaped, int_option, path_option


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("backup", help="copy the journal safely (SQLite backup API), keeping the last N",
                       description=__doc__)
    p.add_argument("--config", type=path_option("configuration file"), help="configuration file naming the journal (default: $CRIBPI_CONFIG, "
                   "then /etc/cribpi/cribpi.toml)")
    p.add_argument("--db", type=path_option("game journal"), help="the journal to copy (default: the configuration's)")
    p.add_argument("--to", type=path_option("backup folder", folder=True), help="folder for the copies (default: backups/ beside the journal)")
    p.add_argument("--keep", type=int_option(1, 10_000), default=7, help="how many copies to keep, 1 or more (default 7)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cribpi.daemon import find_config
    from cribpi.store.backup import backup

    db = args.db or find_config(args.config).db
    copy = backup(db, args.to or db.parent / "backups", keep=args.keep)
    print(escaped(copy, WHOLE))
    return 0
