"""The store: the game journal (SQLite), and what is computed from it.

- :mod:`~cribpi.store.journal`: :class:`Store` opens, checks and migrates the file, journals
  each event, keeps snapshots of the state, and restores the game a table left open.
- :mod:`~cribpi.store.stats`: :func:`stats` gives each player's :class:`PlayerStats`.
- :mod:`~cribpi.store.export`: :func:`export_game` writes a journalled game as a record.
- :mod:`~cribpi.store.backup`: :func:`backup` writes a dated consistent copy, keeping the last N.
"""

from cribpi.store.backup import backup, backups
from cribpi.store.export import export_game
from cribpi.store.journal import APPLICATION_ID, SCHEMA_VERSION, SNAPSHOT_EVERY, Restored, Store
from cribpi.store.stats import PlayerStats, stats

__all__ = ["Store", "Restored", "PlayerStats", "stats", "export_game", "backup", "backups", "SCHEMA_VERSION",
           "APPLICATION_ID", "SNAPSHOT_EVERY"]
