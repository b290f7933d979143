"""The service as its unit describes it: its configuration file, its user and groups, its state
directory. ``cribpi doctor`` and ``cribpi config --check`` look at the service's configuration
the way the service sees it, not the way their caller would: ``sudo cribpi doctor`` runs as
root with root's home, whose journal would be ``/root/.local/state/cribpi/cribpi.db`` and
whose groups say nothing of the service's. The unit is the one installed in
``/etc/systemd/system`` (``cribpi install``), else the one this package ships.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from cribpi.config import Config, load_config

__all__ = ["ServiceUnit", "parse_unit", "service_unit", "service_for", "SERVICE_ENV"]

INSTALLED = "etc/systemd/system/cribpi.service"
#: What the caller's environment may set that the service's does not have.
SERVICE_ENV = ("CRIBPI_DB", "XDG_STATE_HOME")


@dataclass(frozen=True)
class ServiceUnit:
    """What the unit says of the service's view of the machine."""

    source: str  # where the unit was read from
    config: Path | None  # Environment=CRIBPI_CONFIG=
    user: str | None  # User=
    groups: tuple[str, ...]  # SupplementaryGroups=
    state_dir: Path | None  # /var/lib/ + the first StateDirectory=

    def uses(self, config_path: str | os.PathLike[str] | None) -> bool:
        """True when ``config_path`` is the service's own configuration file."""
        if config_path is None or self.config is None:
            return False
        mine = Path(config_path)
        try:
            return mine.resolve() == self.config.resolve() or mine.samefile(self.config)
        except (OSError, ValueError):  # missing, or not a path at all (a NUL byte): not the service's
            return False

    def load(self, config_path: str | os.PathLike[str]) -> Config:
        """The configuration as the service reads it: its journal in its state directory unless
        the file names one (no ``$CRIBPI_DB`` nor home folder of the caller's)."""
        with self.environment():
            return load_config(config_path)

    @contextmanager
    def environment(self) -> Iterator[None]:
        saved = {name: os.environ.pop(name) for name in (*SERVICE_ENV, "STATE_DIRECTORY") if name in os.environ}
        if self.state_dir is not None:
            os.environ["STATE_DIRECTORY"] = str(self.state_dir)
        try:
            yield
        finally:
            os.environ.pop("STATE_DIRECTORY", None)
            os.environ.update(saved)


def parse_unit(text: str, source: str) -> ServiceUnit:
    """The few [Service] settings that say how the service sees the machine."""
    config: Path | None = None
    user: str | None = None
    groups: list[str] = []
    state: Path | None = None
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
            continue
        if section != "[Service]" or "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if key == "Environment":
            for assignment in value.split():
                name, _, setting = assignment.strip('"').partition("=")
                if name == "CRIBPI_CONFIG":
                    config = Path(setting)
        elif key == "User":
            user = value or None
        elif key == "SupplementaryGroups":
            groups = groups + value.split() if value else []
        elif key == "StateDirectory" and value and state is None:
            state = Path("/var/lib") / value.split()[0].split(":")[0]
    return ServiceUnit(source, config, user, tuple(groups), state)


def service_unit(root: Path = Path("/")) -> ServiceUnit:
    """The installed unit, else the shipped one."""
    installed = root / INSTALLED
    try:
        return parse_unit(installed.read_text(encoding="utf-8"), str(installed))
    except OSError:
        shipped = resources.files("cribpi.service").joinpath("files", "cribpi.service")
        return parse_unit(shipped.read_text(encoding="utf-8"), "the unit cribpi ships")


def service_for(config_path: str | os.PathLike[str] | None, root: Path = Path("/")) -> ServiceUnit | None:
    """The service's unit when ``config_path`` is its configuration file, else None."""
    unit = service_unit(root)
    return unit if unit.uses(config_path) else None
