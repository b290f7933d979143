"""The daemon: ``cribpi run`` as a long-lived service (:mod:`~cribpi.daemon.table`) whose
parts are guarded so that no fault stops it (:mod:`~cribpi.daemon.guard`, ``inputs``,
``stuck``, ``startup``)."""

from cribpi.daemon.table import CONFIG_PATHS, find_config, play, resume_hint, run

__all__ = ["CONFIG_PATHS", "find_config", "play", "run", "resume_hint"]
