"""``cribpi run``: the table on this machine's parts, resuming the game it had open.

Start-up: read the configuration (a broken file stops here, naming the bad key), open each
part from its backend (:mod:`cribpi.wiring`; the Pi's parts on a Raspberry Pi, the terminal
simulator elsewhere), open the journal and restore the open game exactly, then run the one
loop. SIGTERM and SIGINT become a clean stop on that loop: handlers are installed here, never
at import. (systemd notify and the watchdog belong to the daemon issue; they will hook in
around :func:`play`.)
"""

from __future__ import annotations

import os
import random
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cribpi.app import TableApp, TableSettings, open_table
from cribpi.config import Config, load_config
from cribpi.exc import ConfigError
from cribpi.hal import Parts
from cribpi.store import Store
from cribpi.wiring import Inject, open_parts

__all__ = ["CONFIG_PATHS", "find_config", "play", "run"]

TABLE = "main"
CONFIG_PATHS = ("/etc/cribpi/cribpi.toml",)


def find_config(path: str | os.PathLike[str] | None = None) -> Config:
    """The given file, else ``$CRIBPI_CONFIG``, else the first of CONFIG_PATHS that exists."""
    chosen = path or os.environ.get("CRIBPI_CONFIG")
    if chosen is None:
        chosen = next((p for p in CONFIG_PATHS if Path(p).is_file()), None)
    return load_config(chosen)


@contextmanager
def _stop_on_signals() -> Iterator[tuple[list[int], int]]:
    """SIGTERM/SIGINT ask the loop to stop: the handler records the signal and wakes the
    loop through a pipe. Installed before anything else starts, so an early signal is never
    the default (abrupt) one."""
    received: list[int] = []
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)

    def handler(signum: int, _frame: object) -> None:
        received.append(signum)
        try:
            os.write(write_fd, b"s")
        except BlockingIOError:
            pass

    previous = {s: signal.signal(s, handler) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield received, read_fd
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)
        os.close(read_fd)
        os.close(write_fd)


def play(config: Config, parts: Parts, settings: TableSettings, *, new: bool = False,
         rng: random.Random | None = None) -> int:
    """Run the table on ``parts`` with the journal ``config.db`` until a signal (or, in the
    terminal simulator, a quit key) stops it. ``parts`` are closed on the way out."""
    from cribpi.sim import Terminal, has_sim_keys

    with _stop_on_signals() as (received, wake_fd), parts:
        config.db.parent.mkdir(parents=True, exist_ok=True)
        with Store(config.db) as store:
            app = TableApp(parts, open_table(store, settings, new=new, rng=rng), led_settings=config.leds)
            extra = [(wake_fd, lambda: os.read(wake_fd, 64))]
            try:
                if has_sim_keys(parts):
                    Terminal(app, parts).run(extra, should_stop=lambda: bool(received))
                else:
                    app.start()
                    app.run(extra, should_stop=lambda: bool(received))
            finally:
                app.close()
    return 0


def run(config_path: str | None = None, backend: str | None = None, inject: Inject = Inject()) -> int:
    config = find_config(config_path)
    parts = open_parts(config, backend, inject)
    from cribpi.sim import has_sim_keys

    if has_sim_keys(parts) and not sys.stdin.isatty():
        parts.close()
        raise ConfigError("no Raspberry Pi here and no terminal for the simulator: "
                          "run `cribpi run` in a terminal, or choose a backend with --backend")
    settings = TableSettings(table=TABLE, brightness=config.leds.brightness)
    return play(config, parts, settings)
