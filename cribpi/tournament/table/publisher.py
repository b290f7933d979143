"""The table's publisher: a listener on :class:`~cribpi.app.loop.TableApp` that puts the
board, its events and its results on the room's broker.

The table's thread only writes the outbox and hands paho a message; the network is paho's
own thread (``loop_start``), which reconnects by itself. So a broker that is down never blocks
or slows the table: events wait in the outbox and go, in id order, once it is back.

A finished game's result is held until every side has confirmed it (a ``Confirm`` event per
side, which the table asks for when ``TableSettings.confirm_results`` is set); one side's dispute
publishes it as disputed at once. Anything else at a held result (taking the game's end back with
``Undo``, the next game or a new match started without every side's word) also publishes it as
disputed, for the director to rule on; a game whose end was taken back ends again with a fresh
result. The answers are kept in the outbox, so a restart between them loses none.

The director announces its session on a retained topic. A session the table has not replayed
to yet (a director that was not following the event when the table sent, or that lost its
database) gets the event's whole outbox again, oldest first, under the original ids, through
the same window of messages in flight; once the broker has acknowledged all of it, the session
is recorded in the outbox as served, so a restart of either side does not replay it again.

End to end: the director tells each table, on ``cribpi/<event>/acks/<table>``, which of its
rows it has durably; the outbox marks them done. On every connection of the table, and 10 s
after every live announcement of the director (it, or the bridge of the table's room,
reconnected: what the broker queued meanwhile crosses first), each row its session has not said it has
goes again, in id order (a broker that acknowledged a row, then died before saving it, loses
nothing).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from cribpi.app.listeners import Update
from cribpi.config import Config
from cribpi.exc import ConfigError
from cribpi.game import GameOver, MoveCard, NewGame, NextGame, Undo
from cribpi.game.events import Confirm
from cribpi.tournament.broker import Broker, new_client, parse_broker
from cribpi.tournament.messages import (
    acks_topic, director_session, director_topic, last_score, last_score_now, parse_acks, result_body, state_body, topic,
)
from cribpi.tournament.table.outbox import Outbox, outbox_path

__all__ = ["TablePublisher"]

log = logging.getLogger(__name__)
LIVE_RESEND_S = 10.0  # a live announcement's resend waits this long (see TablePublisher.resend_delay)


def instance_of(event: str, table: str, password: str | None) -> str:
    """The outbox's name for the event as the director set it up: its id, and a digest of this
    table's credentials. ``cribpi director init`` gives every table a new password, so an event
    id set up again (a club's weekly ``club``) is a new instance: a director's new database for
    it never takes the rows a table kept from last time (a replay sends the instance's rows only)."""
    if not password:
        return event
    return f"{event}#{hashlib.sha256(f'{table}:{password}'.encode()).hexdigest()[:16]}"


class TablePublisher:
    def __init__(self, broker: Broker, event: str, table: str, outbox: Outbox, *,
                 clock: Callable[[], float] = time.time, max_delay: int = 5,
                 online: Callable[[bool], None] = lambda on: None) -> None:
        self.event, self.table, self.outbox, self.clock = event, table, outbox, clock
        outbox.use_event(instance_of(event, table, broker.password))
        self.online = online  # told from paho's thread on each connect (True) and loss (False)
        self.client = new_client(broker, f"cribpi-{event}-{table}", max_delay=max_delay)
        self.client.will_set(self.topic("status"), b"offline", qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._guarded(self._on_message)
        self.client.on_subscribe = self._on_subscribe
        self.broker = broker
        # Nothing here holds a lock of ours while calling paho, whose callbacks hold paho's own.
        self.wake = threading.Condition()
        self.connected = self.fresh = self.stopping = False  # fresh: connected, nothing sent yet
        self.heard = False  # this connection has had the director's announcement, if there is one
        self.settle = -1  # the mid of the subscription that comes back after the announcement
        self.session = 0  # counts the connections: a batch handed to paho stops at a new one
        self.ids = threading.Lock()
        self.inflight: dict[int, int | None] = {}  # paho mid -> outbox id (None: a board or status), till acked
        self.acked: set[int] = set()  # mids acknowledged before publish() returned their row
        self.handed = 0  # the newest outbox id handed to paho: a board's id (the director orders boards by it)
        self.state: bytes | None = None
        self.state_dirty = False
        self.last: dict[str, Any] | None = None
        self.game: int | None = None
        self.replay_wanted: str | None = None  # a director's session not served yet
        self.director: str | None = None  # the director's session last announced
        self.resend = False  # send again what the director has not said it has (set on a reconnect of either side)
        # A live announcement (the director, or its room's bridge, reconnected) sends again only
        # after this many seconds: what the broker queued for the director meanwhile crosses and
        # is acknowledged first, so only what was really lost goes twice (a bridge back after a
        # 30 s cut had each table of its room send its whole 30 s again, behind the queue).
        self.resend_delay = LIVE_RESEND_S
        self.resend_at: float | None = None  # when that resend is due (time.monotonic())
        self.resends = 0  # how many times that was done
        self.announced = 0  # the director's announcements received (twice a connection: it subscribes twice)
        self.unexpected = 0  # messages whose handling raised what nothing foresaw (each cause logged once)
        self._logged_errors: set[str] = set()  # their causes, logged (at most 20: then counted only)
        self.replays = 0  # replays started (each sends the event's outbox again)
        self.sender = threading.Thread(target=self._send, name=f"cribpi-publish-{table}", daemon=True)
        self.follows: list[str] = []  # more topics read on every connection (:meth:`follow`)

    @classmethod
    def from_config(cls, config: Config, *, online: Callable[[bool], None] = lambda on: None) -> TablePublisher:
        """The publisher ``[tournament]`` asks for, its outbox beside the game journal."""
        t = config.tournament
        if not t.enabled or t.broker is None:
            raise ConfigError("[tournament] has no broker: the table does not publish")
        broker = parse_broker(t.broker, username=t.username or t.table, password=t.password,
                              password_file=t.password_file, ca=t.ca)
        return cls(broker, t.event, t.table, Outbox(outbox_path(Path(config.db))), online=online)

    def topic(self, kind: str) -> str:
        return topic(self.event, self.table, kind)

    def follow(self, topic: str, callback: Callable[[mqtt.Client, Any, mqtt.MQTTMessage], None]) -> None:
        """Also read ``topic``, subscribed on every connection; its messages go to ``callback``
        on paho's thread (the round's seating: :mod:`cribpi.tournament.table.seatcast`). Before ``start``."""
        self.follows.append(topic)
        self.client.message_callback_add(topic, self._guarded(callback))

    def _guarded(self, callback: Callable[[mqtt.Client, Any, mqtt.MQTTMessage], None]
                 ) -> Callable[[mqtt.Client, Any, mqtt.MQTTMessage], None]:
        """``callback`` that no message can make raise: paho re-raises a callback's exception
        and its thread dies, and with it every message the table would have read. The error is
        counted in ``unexpected`` and logged once a cause; the message is dropped (acknowledged,
        so it is not delivered again)."""
        def guarded(client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
            try:
                callback(client, userdata, message)
            except Exception as exc:
                self.unexpected += 1
                cause = repr(exc)[:200]
                if cause not in self._logged_errors and len(self._logged_errors) < 20:
                    self._logged_errors.add(cause)
                    log.exception("table %s: a message on %s could not be handled (dropped)", self.table,
                                  message.topic)
        return guarded

    def start(self) -> None:
        self.sender.start()
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()

    def stop(self) -> None:
        """Say ``offline`` and disconnect (unsent messages stay in the outbox for next time).
        The sender stops first, so no board of its follows the ``offline`` (which would show
        the table online again at the director)."""
        with self.wake:
            self.stopping = True
            self.wake.notify()
        if self.sender.is_alive():
            self.sender.join(5)
        if self.connected:
            self.client.publish(self.topic("status"), b"offline", qos=1, retain=True).wait_for_publish(10)
        self.client.disconnect()
        self.client.loop_stop()
        self.outbox.close()

    # -- the listener (the table's thread) ------------------------------------------------

    def __call__(self, update: Update) -> None:
        now, game = self.clock(), update.game_id or 0
        if self.game is not None and game != self.game and self.outbox.held():
            self.outbox.release("disputed")  # a new match started before every side confirmed
        if game != self.game or any(isinstance(event, (NewGame, NextGame)) for event in update.events):
            self.last = None  # a new game or match: the last game's last score is not this one's
        self.game = game
        sides = len(update.state.scores)
        for event in update.events:
            if isinstance(event, Confirm):
                self.outbox.answer(event.side, event.agree, sides)
            elif isinstance(event, (NextGame, Undo)) and self.outbox.held():
                self.outbox.release("disputed")
            self.outbox.add("events", {"game": game, "event": event.to_dict(), "at": now})
        state = update.state
        for effect in update.effects:
            if isinstance(effect, GameOver):
                result = effect.result
                self.outbox.add("result", result_body(
                    state, game, effect.winner, effect.scores, result.kind.value, result.game_points,
                    result.margin, now), held=True)
        moved = any(isinstance(event, (MoveCard, Undo)) for event in update.events)
        self.last = last_score(update.effects) or (last_score_now(state) if moved else self.last)
        status = "awaiting confirmation" if self.outbox.held() else "playing"
        body = state_body(state, game, status, self.last, now)
        with self.wake:
            self.state, self.state_dirty = json.dumps(body, separators=(",", ":")).encode(), True
            self.wake.notify()

    # -- paho's thread ----------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.warning("broker refused table %s: %s", self.table, reason)
            return
        # The broker sends the retained announcement just after a subscription's SUBACK, so the
        # second SUBACK comes after the first one's announcement: no row goes before it, or a
        # table's first rows for a new director would go twice (once more in the replay).
        for extra in self.follows:
            client.subscribe(extra, qos=1)
        client.subscribe(acks_topic(self.event, self.table), qos=1)
        client.subscribe(director_topic(self.event), qos=1)
        _, settle = client.subscribe(director_topic(self.event), qos=1)
        with self.wake:
            self.connected = self.fresh = self.resend = True  # its own reconnect: at once (its broker may have lost them)
            self.resend_at = None
            self.heard, self.settle = settle is None, -1 if settle is None else settle
            self.session += 1
            self.wake.notify()
        self.online(True)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, codes: Any, props: Any) -> None:
        with self.wake:
            if mid != self.settle:
                return
            self.heard = True
            self.wake.notify()
        if any(code.is_failure for code in codes):
            log.warning("table %s: the broker does not let it read %s (a room made before replays)",
                        self.table, director_topic(self.event))

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == acks_topic(self.event, self.table):
            acks = parse_acks(bytes(message.payload))
            if acks is None:
                log.warning("table %s: %s is not a director's acknowledgement", self.table, message.topic)
            else:
                self.outbox.mark_done(acks[1], acks[0])
            return
        self._on_director(message)

    def _on_director(self, message: mqtt.MQTTMessage) -> None:
        """The director's announcement: on each of its connections (and on each of the
        table's, being retained). A live one (not the retained copy a subscription brings) says
        the director reconnected: what it has not said it has goes again."""
        session = director_session(bytes(message.payload))
        if session is None:
            if message.payload:
                log.warning("table %s: %s is not a director's announcement", self.table, message.topic)
            return
        self.announced += 1
        served = self.outbox.served()
        with self.wake:  # in one go: the sender starts a replay and a resend from the same row
            self.director = session
            if session != served:
                self.replay_wanted = session
            if not message.retain and self.resend_at is None:
                self.resend_at = time.monotonic() + self.resend_delay
            self.wake.notify()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        with self.wake:
            self.connected = False
        self.online(False)

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        with self.ids:
            known = mid in self.inflight
            row = self.inflight.pop(mid, None)
            if not known:
                self.acked.add(mid)
        if known:
            self._sent(row)

    def _sent(self, row: int | None) -> None:
        if row is not None:
            self.outbox.mark_sent([row])
        with self.wake:
            self.wake.notify()

    # -- the sender's thread ----------------------------------------------------------------

    def _send(self) -> None:
        """Hand paho what waits, in id order, whenever connected; at most 100 rows in flight.

        Paho resends what it held when a connection was lost, but only after ``_on_connect``
        has returned: anything handed to it in between would reach the director first (an
        older event id after a newer one, refused as out of order; an older board after the
        newer one). So on a new connection nothing new goes until all that was held is
        acknowledged.

        A replay starts the cursor again at the event's first row and takes sent rows too, up
        to the newest row there was when it began; the session is served once every row up
        to that one is acknowledged."""
        cursor = 0  # the highest outbox id handed to paho (which resends its own after a reconnect)
        replay: tuple[str, int] | None = None  # (the director's session, the newest row it covers)
        hurry = False  # an announcement came during the last turn: the next one starts at once
        while True:
            with self.wake:
                if not hurry:
                    self.wake.wait(0.5)
                hurry = False
                stopping = self.stopping
                last = self.state if stopping and self.state_dirty and self.connected else None
                wanted = self.replay_wanted
            if stopping:  # the board as it was left goes first: stop() then says offline
                if last is not None:
                    self.client.publish(self.topic("state"), self._numbered(last), qos=1, retain=True)
                return
            if wanted is not None and (replay is None or replay[0] != wanted):
                replay, cursor = (wanted, self.outbox.newest()), 0
                self.replays += 1
                log.info("table %s: replaying %d messages to the director's session %s", self.table, replay[1], wanted)
            with self.ids:
                held = len(self.inflight)
                replaying = replay is not None and any(r is not None and r <= replay[1] for r in self.inflight.values())
            if replay is not None and cursor >= replay[1] and not replaying:
                self._served(replay[0])
                replay = None
            with self.wake:
                if not self.connected or (self.fresh and held):
                    continue
                session, fresh = self.session, self.fresh
                if fresh:  # the board and "online" again on every connect
                    self.fresh, self.state_dirty = False, True
                state, self.state_dirty = (self.state if self.state_dirty else None), False
            if fresh:
                self._publish("status", b"online", retain=True)
            with self.wake:
                heard = self.heard
                if heard and self.replay_wanted is not None and self.replay_wanted != wanted:
                    # The announcement came after this turn read ``wanted`` (paho's thread had it,
                    # then the SUBACK that sets ``heard``): rows sent now as new would go again
                    # in its replay. The next turn starts that replay instead, at once.
                    heard, hurry = False, True
                if self.resend_at is not None and time.monotonic() >= self.resend_at:
                    self.resend, self.resend_at = True, None
                resend = self.resend and heard
                if resend:
                    self.resend = False
                director = self.director
            if resend:  # a reconnect of either side: what the director has not said it has goes again
                if self.outbox.send_again(director):
                    self.resends += 1
                cursor = 0
            before = self.handed
            if held < 100 and heard:
                again = replay is not None and cursor < replay[1]
                for row, kind, payload in self.outbox.pending(cursor, 100, again=again):
                    with self.wake:
                        if self.session != session:  # a new connection: paho's resends go first
                            break
                    if not self._publish(kind, payload, row=row):
                        break
                    cursor = row
            if state is None and self.handed != before:  # the board again, numbered past the rows just handed
                with self.wake:
                    state = self.state
            if state is not None:  # after the rows handed with it: its id says they came first
                self._publish("state", self._numbered(state), retain=True)

    def _numbered(self, state: bytes) -> bytes:
        """The board with its id: the newest outbox id handed to paho before it (on this
        connection or an earlier one: paho resends those first)."""
        return b'{"id":%d,' % self.handed + state[1:]

    def _served(self, session: str) -> None:
        """Every row of the replay to ``session`` acknowledged: it is not replayed again."""
        self.outbox.serve(session)
        with self.wake:
            if self.replay_wanted == session:
                self.replay_wanted = None
        log.info("table %s: replayed to the director's session %s", self.table, session)

    def _publish(self, kind: str, payload: bytes, *, retain: bool = False, row: int | None = None) -> bool:
        """Hand one message to paho and track it till the broker acknowledges it; False if paho
        would not take it (a row then waits for the next round)."""
        info = self.client.publish(self.topic(kind), payload, qos=1, retain=retain)
        if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):  # NO_CONN: queued by paho
            return False
        if row is not None:
            self.handed = max(self.handed, row)
        with self.ids:
            early = info.mid in self.acked
            self.acked.discard(info.mid)
            if not early:
                self.inflight[info.mid] = row
        if early:
            self._sent(row)
        return True
