"""``cribpi sim``: play at the whole table in a terminal, with no hardware.

The game is journalled (``--db``; default: the same database as the daemon) at the same
table as ``cribpi run``, so both resume the one open game; ``--new`` starts a fresh one. Asking
for another --mode, --players, --rules, --names, --match or --game-length than the open game's
asks first whether to start a new game, naming the open one (answer n to resume it as it was).
A set-up no game can have (five-card rules for three players) is refused before anything is asked.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cribpi.app.settings import GAME_LENGTHS, MAIN_TABLE
from cribpi.exc import ConfigError, CribpiError, StoreError
from cribpi.game import Mode
from cribpi.inputs import int_option, path_option, shown

if TYPE_CHECKING:
    from cribpi.app import TableSettings
    from cribpi.game import State

Ask = Callable[[str], str]  # a question -> the answer typed
DEFAULTS = {"players": "2", "mode": Mode.COUNT.value, "rules": "acc"}

TABLE = MAIN_TABLE  # the table `cribpi run` plays at: one open game per journal
NAME_CHARS = 12  # a longer name would push the scores off the board row and the status line


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from cribpi.config import default_db_path

    p = sub.add_parser("sim", help="play the whole table in the terminal (simulated hardware)",
                       description=__doc__)
    p.add_argument("--players", choices=["2", "3", "4", "4p"],
                   help="2 (the default), 3, 4 individual, or 4p (partners opposite)")
    p.add_argument("--mode", choices=[m.value for m in Mode], help="count (the default), claim or board")
    p.add_argument("--rules", help="rule preset (acc, the default; hoyle, leaflet, acc-tournament, five-card)")
    p.add_argument("--names", help=f"comma-separated player names, one per player, seat 1 first "
                   f"(1-{NAME_CHARS} printable characters each)")
    p.add_argument("--match", type=int_option(choices=(1, 3, 5, 7)), choices=[1, 3, 5, 7], help="best of N games (default 1)")
    add_game_length(p)
    p.add_argument("--db", type=path_option("game journal"), help=f"journal file (default: $CRIBPI_DB, else the XDG state folder; "
                   f"here and now {default_db_path()})")
    p.add_argument("--new", action="store_true", help="start a new game instead of resuming")
    p.add_argument("--seed", type=int_option(0, 2**64 - 1), help="seed for random cuts (reproducible sessions)")
    p.add_argument("--speak", action="store_true",
                   help="say each score aloud through espeak-ng on the default sound device (apt install espeak-ng)")
    p.add_argument("--phones", action="store_true",
                   help="serve the players' phones a page on this machine's network (port 8130), "
                        "printing its address and the table's PIN: docs/phones.md")
    p.set_defaults(run=run)


def add_game_length(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game-length", type=int_option(choices=GAME_LENGTHS), choices=GAME_LENGTHS, metavar="{121,61}",
                   help="points a game is played to: 121 (the default) or 61 (five-card is always 61)")


def settings_from(args: argparse.Namespace) -> TableSettings:
    from cribpi.app import DEFAULT_NAMES, TableSettings
    from cribpi.rules import get_rules

    chosen = {key: getattr(args, key) or default for key, default in DEFAULTS.items()}
    get_rules(chosen["rules"])  # a bad preset name fails before the terminal changes
    players = 4 if chosen["players"] == "4p" else int(chosen["players"])
    # without --players, the table's own players (its last game's) are known only from the
    # journal: check_setup counts the names against them, before anything is asked
    names = DEFAULT_NAMES if args.names is None else player_names(args.names, players if args.players else None)
    return TableSettings(names=names, players=players, partnerships=chosen["players"] == "4p",
                         rules=chosen["rules"], mode=Mode(chosen["mode"]), match_games=args.match or 1, table=TABLE,
                         game_length=args.game_length)


def given_fields(args: argparse.Namespace) -> set[str]:
    """The settings the command line chose: a fresh game takes the rest from the table's last game."""
    fields = {"players": ("players", "partnerships"), "mode": ("mode",), "rules": ("rules", "muggins"),
              "names": ("names",), "match": ("match_games",), "game_length": ("game_length",)}
    return {name for option, names in fields.items() if getattr(args, option, None) is not None for name in names}


def player_names(text: str, players: int | None) -> tuple[str, ...]:
    """``--names``: one name per player (when ``players`` is known), each 1-NAME_CHARS
    printable characters, at least one of them a letter."""
    names = tuple(n.strip() for n in text.split(","))
    if players is not None and len(names) != players:
        raise ConfigError(_names_count(text, len(names), players, "players"))
    for name in names:
        if not name or len(name) > NAME_CHARS or not name.isprintable():
            raise ConfigError(f"--names {shown(text)}: {shown(name)} is not a name; "
                              f"each name is 1-{NAME_CHARS} printable characters")
        if not any(c.isalpha() for c in name):  # "3" reads as a seat or points on the status line
            raise ConfigError(f"--names {shown(text)}: {shown(name)} has no letter; "
                              "a name needs at least one letter (digits alone read as seats or points)")
    twice = next((name for n, name in enumerate(names) if name in names[:n]), None)
    if twice is not None:
        raise ConfigError(f"--names {shown(text)}: player names must be distinct; {shown(twice)} is given twice")
    return names


def journal_path(db: Path) -> Path:
    """The journal ``--db`` names: a regular file, or nothing yet (it will be made)."""
    if db.exists() and not db.is_file():
        kind = "a folder" if db.is_dir() else "a device, FIFO or socket"
        raise ConfigError(f"--db {shown(str(db))} is {kind}, not a regular file; "
                          "expected a game journal file (made if missing)")
    return db


def setup_words(state: State) -> str:
    """How a game is set, as the question names it: ``2 players, count mode, ACC rules: Ann v Bob``
    (a length other than its preset's too: ``ACC rules, 61 points``)."""
    from cribpi.rules import PRESETS
    from cribpi.sim.terminal import rules_words

    seats = f"{state.seats} players" + (" in partnerships" if state.rules.partnerships else "")
    preset = PRESETS.get(state.rules.name)
    own = preset is not None and preset.game_length == state.rules.game_length
    length = "" if own else f", {state.rules.game_length} points"
    return f"{seats}, {state.mode.value} mode, {rules_words(state.rules.name)}{length}: {' v '.join(state.names)}"


def differences(state: State, args: argparse.Namespace) -> list[str]:
    """What the command line asks for that the open game was not started with (only what was given)."""
    players = f"{state.seats}p" if state.rules.partnerships else str(state.seats)
    open_game = {"mode": (state.mode.value, state.mode.value), "players": (players, players),
                 "rules": (state.rules.name, state.rules.name), "match": (state.match_games, f"best of {state.match_games}"),
                 "game_length": (state.rules.game_length, f"{state.rules.game_length} points"),
                 "names": (state.names, ", ".join(state.names))}
    out = []
    for key, (was, words) in open_game.items():
        asked = getattr(args, key, None)
        if asked is None:
            continue
        if key == "names":
            asked = tuple(name.strip() for name in asked.split(","))
        if asked != was:
            option = key.replace("_", "-")
            shown = ",".join(asked) if key == "names" else asked
            out.append(f"--{option} {shown} (the open game: {key.replace('_', ' ')} {words})")
    return out


def _names_count(text: str, given: int, players: int, whose: str) -> str:
    names = "a name" if given == 1 else f"{given} names"
    return (f"--names {shown(text)} gives {names} for {players} {whose}; give one name per player, "
            f"seat 1 first, separated by commas" + (f", or --players {given}" if whose != "players" and 2 <= given <= 4 else ""))


def check_setup(db: Path, settings: TableSettings, given: set[str], names: str | None = None) -> None:
    """Refuse, before anything is asked, a fresh game's set-up that no game can have: the
    options ``given`` with what the table's journal ``db`` would add to them (its last game,
    its kept choices), naming the option and what to give instead."""
    from cribpi.app.opening import fresh_settings
    from cribpi.store import Store

    fresh = settings
    if db.is_file():
        try:
            with Store(db, read_only=True) as store:
                fresh = fresh_settings(settings, history=store, keeper=store, given=given, quiet=True)
        except (StoreError, CribpiError):  # damaged, or a last game this cribpi cannot set up: play() says so
            fresh = settings
    if names is not None and len(fresh.names) != fresh.players:  # --names without --players
        raise ConfigError(_names_count(names, len(fresh.names), fresh.players, "players at the table"))
    problem = _setup_problem(fresh, given)
    if problem is not None:
        raise ConfigError(problem)
    try:
        fresh.new_game()
    except CribpiError as exc:
        raise ConfigError(f"the set-up asked for cannot start a game: {exc}") from None


def _setup_problem(fresh: TableSettings, given: set[str]) -> str | None:
    """What is wrong with five-card rules for more than two players, or for another length
    than 61, in the words of the options ``given``; None: nothing."""
    from cribpi.rules import PRESETS

    rules, players, preset = fresh.rules, fresh.players, PRESETS.get(fresh.rules)
    if preset is None or not preset.five_card:
        return None
    others = [name for name, r in PRESETS.items() if not r.five_card]
    if players != 2 and {"rules", "players"} <= given:
        return (f"--players {players} --rules {rules}: five-card cribbage is for 2 players; "
                f"for {players} players use --rules {', '.join(others)}")
    if players != 2 and "rules" in given:
        return f"--rules {rules}: five-card cribbage is for 2 players and the table's next game has {players}; add --players 2"
    if players != 2 and "players" in given:
        return (f"--players {players}: the table's rules are {rules}, which are for 2 players; add --rules "
                f"{others[0]} (or {', '.join(others[1:])}: the presets for {players} players)")
    if "game_length" in given and fresh.game_length != preset.game_length:
        where = "" if "rules" in given else "the table's rules are five-card, and "
        return (f"--game-length {fresh.game_length}: {where}five-card cribbage is played to {preset.game_length}; "
                f"give --game-length {preset.game_length}, or --rules {others[0]} (or {', '.join(others[1:])})")
    return None


def start_new(db: Path, args: argparse.Namespace, ask: Ask) -> bool:
    """Whether to start a new game: ``--new``, or yes to the question when the command line asks
    for another set-up than the game open in ``db``. No (or no answer) resumes the open game."""
    from cribpi.store import Store

    new = bool(getattr(args, "new", False))
    if new or not db.is_file():
        return new
    try:  # read only: no lock, no writing; play() opens it for writing (and recovers it)
        with Store(db, read_only=True) as store:
            restored = store.current(TABLE)
    except StoreError:  # damaged or unreadable: no open game to ask about; play() moves it aside
        return False
    if restored is None:
        return False
    changed = differences(restored.game.state, args)
    if not changed:
        return False
    answer = ask(f"{db} has game {restored.game_id} open ({setup_words(restored.game.state)}); "
                 f"you asked for {', '.join(changed)}. "
                 "Start a new game? (y: new game, n: go on with the open one) [y/n] ")
    return answer.strip().lower() in ("y", "yes")


def ask_terminal(question: str) -> str:
    try:
        return input(question)
    except EOFError:
        return ""


def run(args: argparse.Namespace) -> int:
    from cribpi.config import Config, default_db_path
    from cribpi.daemon import play
    from cribpi.wiring import open_parts

    if not sys.stdin.isatty():
        raise ConfigError("cribpi sim needs a terminal to read keys from (stdin is not a tty)")
    settings = settings_from(args)
    config = Config(db=journal_path(args.db or default_db_path()))
    if getattr(args, "phones", False):
        from cribpi.phonesconfig import PhonesConfig

        config = dataclasses.replace(config, phones=PhonesConfig(enabled=True))
    if getattr(args, "speak", False):
        from cribpi.sim.speech import check_speech

        check_speech()
    check_setup(config.db, settings, given_fields(args), args.names)
    new = start_new(config.db, args, ask_terminal)
    parts = open_parts(config, "sim")
    if getattr(args, "speak", False):
        from cribpi.sim.speech import speaking

        config = speaking(config, parts)
    return play(config, parts, settings, new=new, rng=random.Random(args.seed), given=given_fields(args))
