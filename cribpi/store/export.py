"""A journalled game as a game record (docs/record-format.md), for ``cribpi export``."""

from __future__ import annotations

from cribpi.store.journal import Store

__all__ = ["export_game"]

#: The games-table columns written as record tags.
_TAGS = {"Event": "event_name", "Table": "table_name", "Started": "started", "Finished": "finished",
         "Winner": "winner"}


def export_game(store: Store, game_id: int) -> str:
    """The game as record text: its events in force (undos taken out), tagged with where and
    when it was played and who won."""
    from cribpi.record import export_record  # the writer is only needed here

    row = store.game(game_id)
    game = store.load(game_id)
    tags = {tag: row[column] for tag, column in _TAGS.items()}
    tags["Date"] = row["started"][:10]
    return export_record(game.events, {tag: value for tag, value in tags.items() if value})
