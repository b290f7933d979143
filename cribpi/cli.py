"""The ``cribpi`` command line. Each subcommand lives in :mod:`cribpi.commands`.

Exit codes: 0 success, 1 a check failed (e.g. a record that does not replay), 2 bad input.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from cribpi import __version__
from cribpi.exc import CribpiError

#: Subcommand modules, imported lazily so `cribpi score` never pays for the hardware layer.
COMMANDS = ("score", "peg", "advise", "replay", "sim", "render", "run", "stats", "export")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cribpi", description="A cribbage board companion.")
    parser.add_argument("--version", action="version", version=f"cribpi {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"cribpi.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cribpi.commands.{name}":
                continue  # not built yet
            raise
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except CribpiError as exc:
        print(f"cribpi {args.command}: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a full disk, an unreadable file: one line, not a traceback
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        print(f"cribpi {args.command}: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
