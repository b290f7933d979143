"""Tournament play: each table publishes its board to an MQTT broker, and a director's server
keeps the event (standings, bracket, pages for the room).

The table side is :mod:`cribpi.tournament.publisher` (a listener on the app); the director
side is :mod:`cribpi.tournament.director` with its database, standings and pages. The topics
and messages both sides agree on are in :mod:`cribpi.tournament.messages`.
"""
