"""``cribpi run``: the table on this machine's parts, resuming the game it had open.

Start-up: read the configuration (a broken file stops here, naming the bad key), open each
part from its backend (:mod:`cribpi.wiring`; the Pi's parts on a Raspberry Pi, the terminal
simulator elsewhere; as a service, a part that will not open is replaced by a stand-in and the
table runs on the others, READY and degraded, the missing part named in ``STATUS=`` and on the
displays that work and retried until it joins, :mod:`cribpi.daemon.missing`), open the journal (a damaged one is moved aside) and restore
the open game exactly, redraw the LEDs and the OLED, tell systemd ``READY=1``, then run the
one loop. The loop pings the watchdog (so a hung loop is restarted), keeps ``STATUS=`` on the
game and the score, and retries failing parts (:mod:`cribpi.daemon.guard`). SIGTERM and
SIGINT become a clean stop: ``STOPPING=1``, the journal closed, the LEDs in their paused
pattern and the OLED dimmed (:mod:`cribpi.daemon.signals`: the handlers are installed while
running, never at import).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import shlex
import sys
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cribpi.app import TableApp, TableSettings, TableUI, Update, open_table
from cribpi.app.settings import MAIN_TABLE
from cribpi.app.speaking import attach_speaker
from cribpi.config import DEFAULT_PINS, Config, load_config
from cribpi.daemon.guard import Guard
from cribpi.daemon.missing import stand_ins
from cribpi.daemon.signals import stop_on_signals
from cribpi.daemon.startup import open_patiently
from cribpi.daemon.stuck import button_pins
from cribpi.exc import ConfigError
from cribpi.hal import Parts
from cribpi.hal.buttons import PinBinding
from cribpi.service.logs import configure_logging
from cribpi.service.notify import Notifier
from cribpi.store import Store
from cribpi.tournament.table.attach import attach
from cribpi.views.board import Animation
from cribpi.views.leds import LedSettings
from cribpi.views.model import MessageScreen
from cribpi.views.oled import render_screen
from cribpi.wiring import Inject, open_parts

if TYPE_CHECKING:
    from cribpi.phones.server import PhoneServer

__all__ = ["CONFIG_PATHS", "find_config", "play", "run", "guarded_app", "status_line", "resume_hint", "resume_command", "CHECK_S"]

log = logging.getLogger("cribpi.daemon")

TABLE = MAIN_TABLE
CONFIG_PATHS = ("/etc/cribpi/cribpi.toml",)
#: How often the loop looks at failing parts (retries themselves back off to half a minute).
CHECK_S = 0.5
#: The OLED's contrast while the service is stopped: dim, not dark, so "paused" can be read.
PAUSED_CONTRAST = 16


def find_config(path: str | os.PathLike[str] | None = None) -> Config:
    """The given file, else ``$CRIBPI_CONFIG``, else the first of CONFIG_PATHS that exists."""
    chosen = path or os.environ.get("CRIBPI_CONFIG")
    if chosen is None:
        chosen = next((p for p in CONFIG_PATHS if Path(p).is_file()), None)
    return load_config(chosen)


def resume_command(db: Path | None = None) -> str:
    """The command that goes on with this game: the one actually used (``$CRIBPI_LAUNCHER``
    when a script such as ``bash .ci/play`` started cribpi; it says any ``CRIBPI_DB`` it was
    given). The journal ``db`` came from ``$CRIBPI_DB``: the command says it, as the same
    command in another shell would open another journal."""
    launcher = os.environ.get("CRIBPI_LAUNCHER")
    if launcher:
        try:
            return _shell_words(without_setup(shlex.split(launcher)))
        except ValueError:  # not shell words after all: as given
            return launcher
    command = shlex.join(["cribpi", *without_setup(sys.argv[1:])])
    chosen = os.environ.get("CRIBPI_DB")
    if chosen and db is not None and Path(chosen).expanduser() == db:
        return f"CRIBPI_DB={shlex.quote(chosen)} {command}"
    return command


#: The options that choose a fresh game's set-up. The game is in the journal: going on with it
#: needs none of them, and one left in would ask again whether to start a new game (after a "no").
SETUP_OPTIONS = ("--players", "--mode", "--rules", "--names", "--match", "--game-length")


def without_setup(words: Sequence[str]) -> list[str]:
    """``words`` without the set-up options (each with its value) and ``--new``."""
    kept: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word == "--new" or word.split("=", 1)[0] in SETUP_OPTIONS and "=" in word:
            pass
        elif word in SETUP_OPTIONS:
            skip = True
        else:
            kept.append(word)
    return kept


def _shell_words(words: Sequence[str]) -> str:
    """``words`` as a shell command, a leading ``NAME=value`` kept an assignment (quoted whole,
    the shell would take it for the command's name)."""
    out = []
    for n, word in enumerate(words):
        name, equals, value = word.partition("=")
        assignment = equals and name.isidentifier() and all("=" in w for w in words[:n])
        out.append(f"{name}={shlex.quote(value)}" if assignment else shlex.quote(word))
    return " ".join(out)


def resume_hint(db: Path) -> str:
    return f"the game is kept in {db}; run `{resume_command(db)}` again to resume it"


def status_line(update: Update, problems: Sequence[str] = ()) -> str:
    """``game 3: Red 45, Blue 60 (play)``: what ``systemctl status`` shows. While parts are
    failing or missing it starts ``degraded, retrying the parts:`` with each part's problem
    and the way to check them (as ``cribpi install`` and its tests read it), then the game."""
    state = update.state
    scores = ", ".join(f"{state.team_name(t)} {s}" for t, s in enumerate(state.scores))
    line = f"game {update.game_id}: {scores} ({state.phase.value.replace('_', ' ')})"
    if not problems:
        return line
    return f"degraded, retrying the parts: {'; '.join(problems)} (check them with `sudo cribpi doctor`); {line}"


class StatusListener:
    """Sends ``STATUS=`` when the line changes (not on every animation step)."""

    def __init__(self, notifier: Notifier, problems: Callable[[], Sequence[str]] = tuple) -> None:
        self.notifier = notifier
        self.problems = problems
        self.last = ""

    def __call__(self, update: Update) -> None:
        line = status_line(update, self.problems())
        if line != self.last:
            self.last = line
            self.notifier.send(f"STATUS={line}")


def attach_phones(app: TableApp, config: Config) -> tuple[PhoneServer | None, Callable[[], None]]:
    """The phones' server ``[phones]`` asks for (cribpi.phones: Starlette and uvicorn, imported
    only when it is on), and what stops it."""
    if not config.phones.enabled:
        return None, lambda: None
    try:
        import qrcode  # noqa: F401  (the join screen's code: cribpi.views.join imports it when drawn)

        from cribpi.phones.attach import attach as attach_server
    except ImportError as exc:
        raise ConfigError(f"[phones] enabled needs starlette, uvicorn and qrcode ({exc}): pip install 'cribpi[phones]'") from None
    phones, stop = attach_server(app, config.phones)
    if phones is not None:  # MENU > Phones: the address and this game's PIN, read at each draw;
        # none while the server is not serving (its port taken: the problem is shown instead)
        app.ui.join_info = lambda: (phones.url, phones.pin) if phones.running and phones.problem is None else None
    return phones, stop


def pause(app: TableApp) -> None:
    """The board left by a stopped service: the pegs pulse slowly; the OLED dims to "Paused"
    (until the display's driver blanks it as it lets go of the device)."""
    board = dataclasses.replace(app.ui.board(), animation=Animation.WAITING, anim_track=None, flash=())
    app.parts.pegboard.show(board)
    screen = MessageScreen(("the game is kept", "and resumes at restart"), "Paused")
    for display in app.parts.displays:
        display.show(render_screen(screen, display.size))
        display.contrast(PAUSED_CONTRAST)


def guarded_app(parts: Parts, table: TableUI, *, led_settings: LedSettings | None = None,
                clock: Callable[[], float] = time.monotonic,
                pins: Mapping[int, PinBinding] = DEFAULT_PINS) -> tuple[TableApp, Guard]:
    """The table on guarded ``parts`` (``pins``: the GPIO buttons, watched for one stuck down);
    its loop checks them every ``CHECK_S`` and redraws when a part comes back or a problem
    opens or clears."""
    guard = Guard(parts, clock, button_pins(pins, parts))
    app = TableApp(guard.parts, table, led_settings=led_settings, clock=clock, problems=guard.problems,
                   missing=guard.missing)

    def check_parts() -> None:
        if guard.check():
            app.publish((), ())

    app.every(CHECK_S, check_parts)
    return app, guard


def table_settings(config: Config, settings: TableSettings) -> TableSettings:
    """``settings`` as ``config`` has them: a table publishing to a tournament (``[tournament]``
    with a broker) asks each side to confirm each finished game; a casual table does not."""
    return dataclasses.replace(settings, confirm_results=config.tournament.enabled)


def play(config: Config, parts: Parts, settings: TableSettings, *, new: bool = False,
         rng: random.Random | None = None, clock: Callable[[], float] = time.monotonic,
         notifier: Notifier | None = None, given: Collection[str] = ()) -> int:
    """Run the table on ``parts`` with the journal ``config.db`` until a signal (or, in the
    terminal simulator, a quit key) stops it. ``parts`` are closed on the way out. A fresh
    game is set up as the table's last one but for the ``given`` fields of ``settings``; the
    next game's set-up and the brightness chosen in the menu are kept in the journal."""
    from cribpi.sim import Terminal, has_sim_keys

    notifier = notifier or Notifier()
    settings = table_settings(config, settings)
    with stop_on_signals() as (received, wake_fd), parts:
        config.db.parent.mkdir(parents=True, exist_ok=True)
        with Store(config.db, recover=True) as store:
            table = open_table(store, settings, new=new, rng=rng, history=store, given=given, keeper=store)
            if store.notice:  # a damaged journal was moved aside: say so before anything else
                log.warning("%s", store.notice)
                table.show(MessageScreen((store.notice,), "Journal"))
            app, guard = guarded_app(parts, table, led_settings=config.leds, clock=clock, pins=config.pins)
            if notifier.watchdog:  # from the loop itself: a hung loop stops the pings
                app.every(notifier.watchdog / 2, lambda: notifier.send("WATCHDOG=1"))
            status = StatusListener(notifier, guard.problems)
            app.subscribe(status)
            stop_publishing = attach(app, config)  # the tournament publisher, with [tournament] only
            phones, stop_phones = attach_phones(app, config)  # the players' phones' page, with [phones] only
            if phones is not None and has_sim_keys(parts):  # before the terminal is the simulator's
                print(f"phones: {phones.url} PIN {phones.pin} (watchers: {phones.watch_url})"
                      + (f" - {phones.problem}, retried" if phones.problem else ""), file=sys.stderr)
            stop_speaking = attach_speaker(app, parts.speaker, config.speech, guard.checked)  # with a speaker only
            extra = [(wake_fd, lambda: os.read(wake_fd, 64))]
            events = len(table.session.game.journal)
            log.info("journal %s: game %s at event %d; parts %s", config.db, table.session.game_id, events,
                     ", ".join(f"{part} {backend}" for part, backend in parts.backends))
            try:
                if has_sim_keys(parts):
                    notifier.send("READY=1")
                    joining = None if phones is None else (  # under the keys: how a phone joins, this game's PIN
                        lambda: f"phones: {phones.url} PIN {phones.pin}" if phones.problem is None else phones.problem)
                    terminal = Terminal(app, parts, journal=config.db, resume=resume_command(config.db),
                                        phones=joining)  # draws the sim parts
                    terminal.run(extra, should_stop=lambda: bool(received))
                else:
                    app.start()  # draws the restored game on the LEDs and the OLED
                    notifier.send("READY=1", f"STATUS={status.last}")
                    app.run(extra, should_stop=lambda: bool(received))
            finally:
                notifier.send("STOPPING=1")
                try:
                    pause(app)
                finally:
                    stop_speaking()
                    app.close()
                    stop_phones()
                    stop_publishing()
                    notifier.close()
    if not has_sim_keys(parts):
        log.info("stopped: %s", resume_hint(config.db))
    return 0


def run(config_path: str | None = None, backend: str | None = None, inject: Inject = Inject(),
        keys: str | None = None, *, game_length: int | None = None,
        start_new: Callable[[Path, TableSettings], bool] | None = None) -> int:
    """The table as configured; ``game_length`` (the command line's) for a fresh game in place
    of the configuration's, and ``start_new`` says, before any part opens, whether a game
    left open is put aside for a fresh one (it may ask, or refuse the set-up)."""
    configure_logging()
    config = find_config(config_path)
    settings = TableSettings(table=TABLE, brightness=config.leds.brightness, game_length=config.game_length)
    given = () if game_length is None else ("game_length",)
    if game_length is not None:
        settings = dataclasses.replace(settings, game_length=game_length)
    new = start_new(config.db, settings) if start_new is not None else False
    notifier = Notifier()
    # As a service a part that will not open is replaced by a stand-in (the table runs on the
    # others, retrying it); run by hand it fails at once, naming it.
    stand_in = stand_ins(time.monotonic) if notifier.active else None
    parts = open_patiently(lambda: open_parts(config, backend, inject, stand_in), notifier)
    if parts is None:  # stopped while waiting for a part
        return 0
    from cribpi.sim import has_sim_keys

    if keys is not None:
        from cribpi.hal.base import CombinedInputs
        from cribpi.hal.mock import KeyScript

        if {backend for _, backend in parts.backends} != {"mock"}:
            parts.close()
            raise ConfigError(f"--keys {keys}: a key script drives the mock backend only (add --backend mock)")
        parts.inputs = CombinedInputs([parts.inputs, KeyScript(keys)])
    if has_sim_keys(parts) and not sys.stdin.isatty():
        parts.close()
        raise ConfigError("no Raspberry Pi here and no terminal for the simulator: "
                          "run `cribpi run` in a terminal, or choose a backend with --backend")
    if has_sim_keys(parts) and sys.stderr.isatty():
        # The simulator owns the terminal: its first screen and quit message name the journal,
        # so the service's INFO lines would only repeat them (and wrap) around the curses screen.
        logging.getLogger().setLevel(logging.WARNING)
    return play(config, parts, settings, new=new, notifier=notifier, given=given)
