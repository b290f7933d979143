"""Tournament play: each table publishes its board to an MQTT broker, and a director's server
keeps the event (standings, bracket, pages for the room).

Two programs, two packages: :mod:`cribpi.tournament.table` is the table's side (the publisher, a
listener on the app, with its outbox and the seating it is sent), and
:mod:`cribpi.tournament.director` the director's (the intake, the event database, standings and
pairing, the room's set-up and the pages in :mod:`cribpi.tournament.director.web`). What both
sides share stays here: the topics and messages they agree on
(:mod:`cribpi.tournament.messages`), the round's seating as a message
(:mod:`cribpi.tournament.seats`) and how either connects to the room's broker
(:mod:`cribpi.tournament.broker`).
"""
