"""The ``cribpi`` command line. Each subcommand lives in :mod:`cribpi.commands`.

Exit codes: 0 success, 1 a check failed (e.g. a record that does not replay), 2 bad input.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import sys
from collections.abc import Sequence

from cribpi import __version__
from cribpi.exc import CribpiError

TYPE_CHECKING = False  # importing typing (and difflib, below) up front would cost every command 2-4 ms each
if TYPE_CHECKING:
    from typing import NoReturn

#: Each subcommand's module under :mod:`cribpi.commands` and its one-line help. Only the chosen
#: command's module is imported, so ``cribpi score`` never pays for the game engine or the
#: hardware layer, and ``cribpi --help`` imports none (a test keeps these lines equal to the
#: help each module gives its own parser).
COMMANDS: dict[str, str] = {
    "score": "count a hand or crib; the last card is the starter",
    "peg": "score a sequence of cards laid in the play",
    "advise": "rank every discard from a dealt hand by exact expected points",
    "replay": "check a game record and print every score in it",
    "sim": "play the whole table in the terminal (simulated hardware)",
    "render": "draw the board and OLED after each event of a record",
    "run": "run the table on this machine's hardware (sim off a Pi)",
    "stats": "per-player statistics from a game journal",
    "export": "list the journal's games, or write one as a game record",
    "director": "run a tournament: the event database, the broker's room and the pages",
    "loadgen": "simulated tables publishing random games to a broker",
    "config": "check a configuration file (every key, and its layout)",
    "install": "install cribpi as a systemd service (root; --dry-run shows the steps)",
    "uninstall": "remove the service cribpi install put in place (keeps the journal)",
    "doctor": "check the Pi, its parts, the journal and the config; say how to fix each",
    "backup": "copy the journal safely (SQLite backup API), keeping the last N",
    "flash": "put the controller firmware and the board's layout on the Pico",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        subs = [a for a in self._actions if isinstance(a, argparse._SubParsersAction)]
        if subs and message.startswith("the following arguments are required"):
            message += f" (one of {', '.join(subs[0].choices)})"
        from cribpi.inputs import one_line_message

        self.exit(2, one_line_message(f"{self.prog}: error: {message}") + "\n")


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv``: its first word that is not an option, if it is a command."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with the full arguments of ``command`` only; the others are listed by name and help."""
    parser = _Parser(prog="cribpi", description="A cribbage board companion.")
    parser.add_argument("--version", action="version", version=f"cribpi {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, summary in COMMANDS.items():
        if name == command:
            importlib.import_module(f"cribpi.commands.{name}").add_parser(sub)
        else:
            sub.add_parser(name, help=summary)
    return parser


def chosen_parser(parser: argparse.ArgumentParser, words: Sequence[str]) -> argparse.ArgumentParser:
    """The innermost parser ``words`` choose (``director init`` is the director's ``init``)."""
    while True:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        step = next((w for w in words if subs and w in subs[0].choices), None)
        if step is None:
            return parser
        parser = subs[0].choices[step]
        words = words[list(words).index(step) + 1:]


def refuse_misspelt_option(parser: argparse.ArgumentParser, command: str | None, words: Sequence[str]) -> None:
    """``advise --dealr``: name the option meant, where argparse would only say the word is unknown
    (or, worse, that ``--dealer`` is missing); with nothing close, the options it takes."""
    if command is None:
        return
    chosen = chosen_parser(parser, words)
    known = [option for action in chosen._actions for option in action.option_strings]
    for word in words:
        name = word.split("=", 1)[0]
        if name.startswith("--") and name != "--" and not any(o.startswith(name) for o in known):
            import difflib  # only for a misspelt option

            close = difflib.get_close_matches(name, known, n=1)
            if close:
                chosen.error(f"unrecognized option {name}: did you mean {close[0]}?")
            takes = sorted({o for o in known if o.startswith("--") and o != "--help"})
            chosen.error(f"unrecognized option {name}: {chosen.prog} takes "
                         f"{', '.join(takes) if takes else 'no options'} (see --help)")


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    command = chosen_command(words)
    parser = build_parser(command)
    refuse_misspelt_option(parser, command, words)
    args, extra = parser.parse_known_args(words)
    if extra:  # said by the command's own parser, which knows what it takes
        owner = chosen_parser(parser, words)
        owner.error(f"unrecognized arguments: {' '.join(extra)} (see {owner.prog} --help)")
    try:
        return int(args.run(args) or 0)
    except CribpiError as exc:
        _say(f"cribpi {args.command}: {exc}")
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a full disk, an unreadable file: one line, not a traceback
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        _say(f"cribpi {args.command}: {exc.strerror or exc}{where}")
        return 2 if exc.errno in _PATH_ERRORS else 1  # a path the user can correct, else the machine


def _say(message: str) -> None:
    """An error as one line: control characters escaped, a huge input cut (see :mod:`cribpi.inputs`)."""
    from cribpi.inputs import one_line_message

    print(one_line_message(message), file=sys.stderr)


#: Errors that say the path given is wrong (missing, not a folder, a folder, not allowed, too long).
_PATH_ERRORS = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EACCES, errno.ENAMETOOLONG})


if __name__ == "__main__":
    sys.exit(main())
