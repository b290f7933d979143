"""The director: every table's messages in, the event's standings, bracket and live boards out.

Every message is untrusted. :func:`~cribpi.tournament.messages.parse` refuses anything
malformed; here a replay (a (table, id) already seen, or a game already resulted), an id
older than the table's newest or more than a day ahead of the director's clock and the room's
(``from_the_future``: see :mod:`.intake`), a player who is not registered or not seated at
that table, are refused too. Each refusal is counted by its reason and logged, and none reaches a
standing. Only a confirmed result counts, and only where a seating expects it (with no round
seated, only in an event made open play); one kept uncounted (no round seated, not the seated
players, one game too many) counts only by the admin's ruling, and a disputed one waits for the
director's correction.

On the broker, a result is never lost: the director acknowledges each message (QoS 1, manual
acks, in order) only once what it wrote is on the disk. It commits each message at once, but
without waiting for the disk (a commit that only the director's death could not lose); a flusher
thread then makes the commits durable, one fsync for all that came in the last few
milliseconds, and acknowledges them. So taking a result costs no fsync on the message thread,
and a power cut before that fsync loses nothing either: those messages were not acknowledged,
and the director's persistent session at the broker delivers them again (counted once: a
result already stored is a replay).

What the broker acknowledged to a table before the director's session existed there (the
director started after the tables, or the broker lost its store) or that the director's
database lost, the tables send again: the director announces a session id on a retained topic,
new whenever the broker kept no session for it or its database has none, and each table
replays its outbox to a session it has not served (see :mod:`cribpi.tournament.table.publisher`).

And end to end: after the same fsync, the director tells each table which of its events and
results it has had its last word on (``cribpi/<event>/acks/<table>``); a table sends again,
after any reconnect of either side, whatever it was not told of. So a result the broker
acknowledged and then lost (killed before saving it) still arrives.

The director is split by job, each part a layer on the one before: :mod:`.base` (its state),
:mod:`.counting` (the standings, the bracket, the seating), :mod:`.intake` (the tables' messages),
:mod:`.admin` (the admin's actions) and :mod:`.link` (the broker); :mod:`.limits` holds each
table's rates and the window of its ids kept. Nothing a table sends stops it: a payload is
bounded in size and depth before it is read, and an exception of any kind while taking a
message is counted (``error``) and the message acknowledged and dropped.

Beside the director, the rest of its program: :mod:`.eventdb` (the event's SQLite database),
:mod:`.standings` and :mod:`.pairing` (the tiebreaks, Swiss and random seatings), :mod:`.quiet`
(its log lines rate-limited by kind), :mod:`.room` (the event's folder and its broker, set up
by ``cribpi director init``), :mod:`.rooms` (an event of several rooms, each room's broker
bridged to the director's: ``init --rooms``), :mod:`.roomlink` (which rooms the director can
reach, from the bridges' notifications), :mod:`.casting` (each round's seating sent to the tables) and
:mod:`.web` (the pages and the API).
"""

from __future__ import annotations

from cribpi.tournament.director.base import (
    NAME_MAX,
    SEAT_COLOURS,
    WAITING_PER_TABLE,
    NoSuchResult,
)
from cribpi.tournament.director.link import Link

__all__ = ["Director", "NoSuchResult", "NAME_MAX", "SEAT_COLOURS", "WAITING_PER_TABLE"]


class Director(Link):
    """One event's director: every table's messages in, the standings, the bracket and the live
    boards out, the admin's actions, the broker."""
