"""Each player's phone as their own keypad (issue 30): the table serves a page on its network;
a phone joins a seat with the table's PIN and keys that seat's cards, go, OK, undo, claims and
muggins into the table's one loop, as the table's own keys do; a watcher sees the board.

:mod:`.seats` (PIN, tokens, rate limits), :mod:`.state` (what a phone is sent), :mod:`.table`
(the listener and the actions, run in the loop), :mod:`.server` (Starlette and uvicorn in a
thread), :mod:`.attach` (putting it on a table). The HTTP API: docs/phones.md."""
