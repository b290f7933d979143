"""Game records: a game's events as plain text people can read and write, as PGN is for chess.

A record is a few ``[Tag "value"]`` lines (the players, the rules, the mode) and then one
statement per line, in the order things happened at the table::

    [Event "Club night"]
    [Players "Alice" "Bob"]
    [Rules "acc"]
    [Mode "count"]
    [Dealer "Alice"]

    Deal 1: Alice deals
    Crib: 7C 8D 7H 8S
    Starter: 6H
    Play: QH 5C TD 6D | 2C 4H 4S 4D
    End

Whose turn it is in the play is not written: the reader replays the record through the
engine as it reads, so ``Play:`` needs only the cards (and ``go``). Records hold the events
in force (:attr:`Game.events`), never the undos that led to them. The full grammar is in
docs/record-format.md.

This package sits above :mod:`cribpi.game` (which never imports it): :mod:`.tokens` holds
the lexical rules, :mod:`.tags` the tag codec, :mod:`.writer` and :mod:`.reader` the two
directions, :mod:`.errors` what can go wrong, as types.

>>> from cribpi.game.events import NewGame
>>> text = export_record([NewGame(("Ann", "Ben"), first_dealer=0)])
>>> parse_record(text).events == [NewGame(("Ann", "Ben"), first_dealer=0)]
True
"""

from cribpi.record.errors import (
    RecordError, RecordFileError, RecordReadError, RecordRefusedError, RecordStateError, RecordSyntaxError,
    RecordTagError, RecordWriteError, UnclosedError,
)
from cribpi.record.reader import Record, parse_record
from cribpi.record.tags import GAME_TAGS
from cribpi.record.writer import export_record

__all__ = [
    "GAME_TAGS", "Record", "RecordError", "RecordFileError", "RecordReadError", "RecordRefusedError",
    "RecordStateError", "RecordSyntaxError", "RecordTagError", "RecordWriteError", "UnclosedError",
    "export_record", "parse_record",
]
