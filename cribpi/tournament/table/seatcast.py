"""The round's seating at the table (issue 21, item 13): the message the director sends
(:mod:`cribpi.tournament.seats`, from :mod:`cribpi.tournament.director.casting`) on the table's
OLED, once for each seating it has not shown yet (``Round 2: Ann v Bob`` / ``Ann, you are Red``)
until OK or the next key.

The table then plays the players seated there, nobody typing a name (:func:`take_seat`): its
set-up takes their names in seat order, their number (four, or two teams entered as
``Ann & Cy``: partnerships, seats 1 and 3 against 2 and 4) and the match a playoff seats; a
table whose game has not begun, or whose match is over, starts a game with them at once, and a
match under way finishes as it began (the seating is the next game's, and the screen says so).

Once the seating's games are played there (a qualifying round's N one-game matches, or the
playoff's match; each result confirmed), the table says so and waits (:func:`hold`): a new
game of the seated players is refused, naming why (other players set in the menu may play:
their result is the director's to rule on). The games are counted from the table's journal:
its finished games with the seated players since the seating was taken, the first of them
kept with the set-up with the event (:class:`~cribpi.app.settings.Seating`), so a restart
keeps the count, and holds at once as the table opens (:func:`hold_kept`). The director stays
the guard of record (``too_many``); this is the table helping.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from cribpi.exc import CribpiError
from cribpi.game import Game, Phase, State
from cribpi.tournament.seats import Seat, parse_seat, seat_topic
from cribpi.views.seat import round_played_screen, round_played_why

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

    from cribpi.app.loop import TableApp
    from cribpi.app.settings import Seating, TableSettings
    from cribpi.app.ui import Hold, TableUI
    from cribpi.tournament.table.publisher import TablePublisher

__all__ = ["listen", "show_on", "seat_names", "seat_setup", "take_seat", "hold", "hold_kept", "played", "NEXT_GAME"]

log = logging.getLogger(__name__)
NEXT_GAME = "Seated from the next game"  # the seat screen's last line while a match is under way


def listen(publisher: TablePublisher, seated: Callable[[Seat], None]) -> None:
    """Call ``seated`` (on paho's thread) with each seating of ``publisher``'s table the director
    sends that differs from the last one (a reconnect brings the retained one again)."""
    topic = seat_topic(publisher.event, publisher.table)
    last: list[Seat] = []
    lock = threading.Lock()

    def on_message(client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        seat = parse_seat(bytes(message.payload))
        if seat is None or seat.table != publisher.table:
            log.warning("table %s: %s is not the director's seating", publisher.table, message.topic)
            return
        with lock:
            again = bool(last) and last[0] == seat
            last[:] = [seat]
        if not again:
            seated(seat)
        log.debug("table %s: round %d's seating%s", publisher.table, seat.round, " again: shown already" if again else "")

    publisher.follow(topic, on_message)


def show_on(app: TableApp, event: str) -> Callable[[Seat], None]:
    """What shows a seating of ``event`` (the tournament as the table's publisher names it) on
    ``app``'s displays, from any thread: posted to the table's loop, which sets the table up for
    the players seated there (:func:`take_seat`) and puts the seating in front of the screens
    (OK puts it away; an open menu stays on top, unless a game with the seated players starts
    now: a new game closes it, as the menu's own does)."""
    def seated(seat: Seat) -> None:
        def show() -> None:
            ui = app.ui
            game = ui.session.game
            taken = take_seat(ui, seat, event)  # holds from the seating received now
            screen = seat.screen()
            if taken == "next":
                screen = replace(screen, lines=(*screen.lines, NEXT_GAME))
            ui.screens.insert(0, screen)
            now = ui.session.game
            app.publish(tuple(now.journal) if now is not game else (), ())  # a new game: its NewGame
        app.mailbox.put(show)
    return seated


# -- the table playing its seats ----------------------------------------------------------------

def _partners(name: str) -> tuple[str, str] | None:
    """The two partners of a team entered as one entrant (``Ann & Cy``), or None."""
    parts = name.split(" & ")
    if len(parts) != 2 or any(not p or p != p.strip() for p in parts) or parts[0] == parts[1]:
        return None
    return parts[0], parts[1]


def seat_names(players: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """The table's names for the seated ``players``, seat by seat, and whether they play in
    partnerships. Four players are partners across the table (seats 1 & 3 against 2 & 4): the
    table's sides are then "Ann & Cy", as the director reads them. Two teams entered each as
    one entrant ("Ann & Cy" v "Bob & Di") are four players too, seated Ann, Bob, Cy, Di, so the
    table's sides are the entrants' own names."""
    if len(players) == 4:
        return players, True
    if len(players) == 2:
        a, b = _partners(players[0]), _partners(players[1])
        if a is not None and b is not None and len({*a, *b}) == 4:
            return (a[0], b[0], a[1], b[1]), True
    return players, False


def seat_setup(seat: Seat, settings: TableSettings) -> TableSettings | None:
    """``settings`` for the players ``seat`` seats at the table, or None: it seats nobody (or
    one player), or the set-up cannot start a game. A qualifying match of several games is as
    many one-game matches (one result each, as the director counts them); a playoff match is
    a best-of match, as the bracket has it."""
    from cribpi.app.settings import seated  # the table's side only: the director never loads the app

    names, partnerships = seat_names(seat.players)
    if len(names) < 2:
        return None
    games = seat.games or 1
    match = games if seat.kind == "playoff" and games % 2 == 1 and games <= 99 else 1
    setup = seated(settings, names, partnerships=partnerships, match_games=match)
    try:
        Game([setup.new_game()])
    except CribpiError as exc:
        log.warning("table %s: the seating of round %d cannot start a game here: %s", seat.table, seat.round, exc)
        return None
    return setup


def _plays(state: State, setup: TableSettings) -> bool:
    """Whether the table's game has the set-up's players, sides and match."""
    want = setup.new_game()
    return state.names == want.names and state.rules.partnerships == want.rules.partnerships \
        and state.match_games == want.match_games


def _free(ui: TableUI) -> bool:
    """The table's game has not begun (no card, no score: a cut taken back is none), or its
    match is over and every side has had its say on the result."""
    from cribpi.app.ui import not_begun

    state = ui.state
    if not_begun(state):
        return True
    return state.phase is Phase.MATCH_OVER and ui.confirming() is None


def take_seat(ui: TableUI, seat: Seat, event: str) -> str:
    """Set the table up for the players ``seat`` (of ``event``) seats there, on the table's own path (kept
    and journalled as a menu's change): ``"started"`` when a game with them starts now (the
    table's game had not begun, or its match is over), ``"next"`` when a match under way
    goes on and the seating is the next new game's, ``""`` when nothing changes (nobody is
    seated, the table has them already, or the set-up cannot be kept: the refusal shows).
    A seating the table had not taken yet is kept with the set-up, with its event and the first
    journalled game that may be one of its games (:func:`played` counts them), and sets
    :attr:`TableUI.hold` (:func:`hold`); one that seats nobody here lets go of the last. A
    seating the table cannot keep (a full disk) holds nothing: the hold of the seating kept
    before is not this one's (logged)."""
    setup = seat_setup(seat, ui.settings)
    if setup is None:
        ui.hold = None
        if ui.settings.seating is not None:
            ui.change_settings(lambda settings: replace(settings, seating=None))
        return ""
    seating = _seating(ui, seat, setup, event)
    new = seating != ui.settings.seating
    setup = replace(setup, seating=seating)
    if setup != ui.settings:
        ui.change_settings(lambda settings: setup)
        if ui.settings != setup:
            ui.hold = None
            log.warning("table %s: round %d's seating could not be kept with the set-up: no game is held for it",
                        seat.table, seat.round)
            return ""
    ui.hold = hold(ui, event)
    # the seated players at a table whose match is over: a new round's seating is a new match
    if _plays(ui.state, setup) and not (new and ui.state.phase is Phase.MATCH_OVER):
        return ""
    if _free(ui):
        ui.new_game()
        return "started"
    return "next"


def _seating(ui: TableUI, seat: Seat, setup: TableSettings, event: str) -> Seating:
    """The :class:`Seating` ``seat`` of ``event`` is at the table set up as ``setup``: the one
    kept when the table has taken this seating of this event already (again after a restart),
    else from the table's game now (its own, unless its match is over: the next game is then
    the seating's first). The same round and players at another event (a kept seating from
    before the event was kept too) is a new seating: the games played there are not its own."""
    from cribpi.app.settings import Seating

    first = setup.new_game()
    seating = Seating(seat.round, seat.kind, seat.games or 1, first.names, first.match_games, event=event)
    kept = ui.settings.seating
    if kept is not None and replace(kept, since=None) == seating:
        return kept
    game_id = ui.session.game_id
    if game_id is None:
        return seating
    return replace(seating, since=game_id + 1 if ui.state.phase is Phase.MATCH_OVER else game_id)


# -- the round played ---------------------------------------------------------------------------

@runtime_checkable
class _Games(Protocol):
    """What :func:`played` reads of the table's journal (:class:`cribpi.store.Store` has it)."""

    def games(self, status: str | None = ...) -> list[dict[str, Any]]: ...


def played(ui: TableUI, seating: Seating) -> int:
    """How many of ``seating``'s matches the table has finished: its journalled games, from the
    seating's first on, with the seated players and the seating's match length, over (a game
    whose winning score is undone is not). 0 without a journal."""
    store = ui.store
    if seating.since is None or not isinstance(store, _Games):
        return 0
    return sum(1 for row in store.games("finished")
               if row["id"] >= seating.since and row["table_name"] == ui.settings.table
               and tuple(row["players"]) == seating.players and row["match_games"] == seating.match_games)


def hold_kept(ui: TableUI, event: str) -> bool:
    """As the table opens, before any seating comes (the broker may be away): the seating kept
    with ``ui``'s set-up holds its players' next game at once (:func:`hold`) when it is
    ``event``'s; whether it does. Another event's holds nothing, and the next seating of
    ``event`` replaces it."""
    seating = ui.settings.seating
    if seating is None or seating.event != event:
        return False
    ui.hold = hold(ui, event)
    return True


def hold(ui: TableUI, event: str) -> Callable[[tuple[str, ...], int], Hold | None]:
    """What holds a game of the seated players at ``ui`` once its seating's games are played
    (for :attr:`TableUI.hold <cribpi.app.ui.TableUI.hold>`): the round-played screen and why a
    new game is refused. None for a game of other players or another match length (set in the
    menu: the director keeps its result uncounted, ``not_seated``), while games are left, with
    no seating or one not of ``event``, or when the journal cannot be read (logged: the director
    still refuses a game too many)."""
    from cribpi.app.ui import Hold

    seen: dict[tuple[Seating, int | None, bool], int] = {}  # the count read once for each game and its end (-1: unread)

    def held(players: tuple[str, ...], match_games: int) -> Hold | None:
        seating = ui.settings.seating
        if seating is None or seating.event != event or players != seating.players \
                or match_games != seating.match_games:
            return None
        key = (seating, ui.session.game_id, ui.state.phase is Phase.MATCH_OVER)
        if key not in seen:
            try:
                count = played(ui, seating)
            except CribpiError as exc:  # said once for this game, not at every screen drawn
                log.warning("table %s: the games of round %d cannot be counted: %s", ui.settings.table, seating.round, exc)
                count = -1
            seen.clear()
            seen[key] = count
        count = seen[key]
        if count < seating.matches:  # -1 too
            return None
        playoff = seating.kind == "playoff"
        return Hold(round_played_screen(seating.round, count, seating.games, playoff),
                    round_played_why(seating.round, count, seating.games, playoff))

    return held
