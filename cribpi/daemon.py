"""``cribpi run``: the table on this machine's hardware, resuming the game it had open.

Start-up: read the configuration (a broken file stops here, naming the bad key), choose
the backend (``pi`` on a Raspberry Pi, the terminal simulator elsewhere), open the journal
and restore the open game exactly, then run the one loop. SIGTERM and SIGINT become a clean
stop on that loop: handlers are installed here, never at import. (systemd notify and the
watchdog belong to the daemon issue; they will hook in around ``serve``.)
"""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cribpi.app import Session, TableApp, TableSettings, TableUI, settings_of
from cribpi.config import Config, load_config
from cribpi.exc import ConfigError
from cribpi.hal import Backend, choose_backend, open_backend
from cribpi.store import Store

__all__ = ["CONFIG_PATHS", "find_config", "serve", "run"]

TABLE = "main"
CONFIG_PATHS = ("/etc/cribpi/cribpi.toml",)


def find_config(path: str | os.PathLike[str] | None = None) -> Config:
    """The given file, else ``$CRIBPI_CONFIG``, else the first of CONFIG_PATHS that exists."""
    chosen = path or os.environ.get("CRIBPI_CONFIG")
    if chosen is None:
        chosen = next((p for p in CONFIG_PATHS if Path(p).is_file()), None)
    return load_config(chosen)


def open_table(config: Config, store: Store, *, table: str = TABLE, rng: random.Random | None = None) -> TableUI:
    """The table UI on the game left open in the journal, or a fresh game."""
    restored = store.current(table=table)
    settings = TableSettings(table=table, brightness=config.leds.brightness)
    if restored is None:
        return TableUI(settings, store=store, rng=rng)
    session = Session(None, store, game=restored.game, game_id=restored.game_id)  # type: ignore[arg-type]
    return TableUI(settings_of(restored.game.state, settings), store=store, session=session, rng=rng)


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


def serve(config: Config, backend: Backend) -> int:
    """Run the table on ``backend`` until a signal stops it. Returns the exit code."""
    with _stop_on_signals() as (received, wake_fd):
        config.db.parent.mkdir(parents=True, exist_ok=True)
        with Store(config.db) as store:
            app = TableApp(backend, open_table(config, store), led_settings=config.leds)
            try:
                app.start()
                app.run(extra=[(wake_fd, lambda: os.read(wake_fd, 64))], should_stop=lambda: bool(received))
            finally:
                app.close()
    return 0


def run(config_path: str | None = None, backend_name: str | None = None) -> int:
    config = find_config(config_path)
    name = choose_backend(backend_name, config)
    if name == "sim":
        return _run_sim(config)
    return serve(config, open_backend(name, config))


def _run_sim(config: Config) -> int:
    import sys

    from cribpi.sim import Terminal

    if not sys.stdin.isatty():
        raise ConfigError("no Raspberry Pi here and no terminal for the simulator: "
                          "run `cribpi run` in a terminal, or choose a backend with --backend")

    config.db.parent.mkdir(parents=True, exist_ok=True)
    with Store(config.db) as store:
        backend = open_backend("sim")
        app = TableApp(backend, open_table(config, store, table="sim"), led_settings=config.leds)
        try:
            Terminal(app, backend).run()
        finally:
            app.close()
    return 0
