"""The table's side of tournament play: what a cribpi table runs to take part in an event.

:mod:`.publisher` publishes the table's board, events and results to the room's broker, each
kept first in :mod:`.outbox` until the director has had it; :mod:`.seatcast` is what the table
shows and plays of the seating the director sends it; :mod:`.attach` joins these to a running
table app. :mod:`.loadgen` drives simulated tables the same way, to load a director.
"""
