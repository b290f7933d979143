"""The director on the broker: a persistent session, messages acknowledged after the group
fsync, each table told which of its messages the director has, the session announced."""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from cribpi.tournament.broker import Broker, new_client
from cribpi.tournament.director.admin import Admin
from cribpi.tournament.director.roomlink import room_of_topic
from cribpi.tournament.director.rooms import link_topic
from cribpi.tournament.messages import (
    acks_body,
    acks_topic,
    director_body,
    director_topic,
    subscription,
)

log = logging.getLogger("cribpi.tournament.director")  # one logger for the director, whichever part logs


class Link(Admin):
    def connect(self, broker: Broker, *, group_seconds: float = 0.005) -> None:
        """Follow the event on ``broker``: a persistent session, so nothing sent while the
        director or the broker was away is missed (the broker keeps it, QoS 1). Messages are
        made durable in groups gathered over ``group_seconds``, and acknowledged after."""
        client = new_client(broker, f"cribpi-director-{self.event}", max_delay=2, clean_session=False)
        client.manual_ack_set(True)
        client.suppress_exceptions = True  # paho's own net: ours (guarded) catch everything first
        self.group_commits(group_seconds)
        client.on_connect = self._guarded(self._on_connect)
        client.on_message = self._on_message  # guarded itself: it acknowledges whatever happens
        client.on_subscribe = self._guarded(self._on_subscribe)
        client.on_disconnect = self._guarded(self._on_disconnect)
        client.connect_async(broker.host, broker.port, keepalive=15)
        self.client = client
        client.loop_start()
        self.loop_thread = client._thread  # its end (for any reason) is a warning in /api/health

    def _guarded(self, callback: Callable[..., None]) -> Callable[..., None]:
        """``callback`` as paho calls it, never raising: an exception would end paho's loop
        (and with it every table's messages); it is counted (``drops["callback"]``) and logged,
        a line a second at most."""
        def guarded(*args: Any) -> None:
            try:
                callback(*args)
            except Exception as exc:
                self._fault("callback", f"{callback.__name__}", exc)
        guarded.__name__ = callback.__name__
        return guarded

    def _fault(self, kind: str, where: str, exc: BaseException) -> None:
        self.drops[kind] += 1
        self.quiet.error(kind, "%s: %s: %s (the director carries on)", where, type(exc).__name__, str(exc)[:200],
                         exc_info=exc)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("broker refused the director: %s", reason)
            return
        self.session(kept=flags.session_present)
        topics = [(subscription(self.event), 1)]
        if self.reach.rooms:  # an event of several rooms: each room's bridge says whether its link is up
            topics.append((link_topic(self.event, "+"), 1))
        client.subscribe(topics)  # one SUBACK: the session is announced once

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not self.stopping:
            self.drops["broker"] += 1
            self.quiet.warning("broker", "lost the broker: %s", reason)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, codes: Any, props: Any) -> None:
        """The broker holds the subscription: from now on it keeps what the tables send, so the
        session is announced (retained) for the tables to replay what came before."""
        client.publish(director_topic(self.event), director_body(self.session()), qos=1, retain=True)
        self.subscribed.set()

    def session(self, *, kept: bool = True) -> str:
        """The session the tables replay to. A new one when the database has none (a new
        database) or the broker kept no session for the director (its first connection, or a
        broker that lost its store): what the tables sent before may be missing either way."""
        with self.lock:
            session = self.db.get("session")
            if not kept or not session:
                session = secrets.token_hex(16)
                self.db.put("session", session)
                self.db.sync()
                log.info("director's session %s: the tables replay their outboxes to it", session)
        return session

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        """Take one message and acknowledge it (QoS 1: the broker delivers it again, even after
        a restart, until it is). Whatever happens taking it, it is acknowledged: a message that
        cannot be taken (counted as ``error``) is never delivered again to do it again."""
        done: tuple[str, int] | None = None
        try:
            room = room_of_topic(self.event, message.topic)
            if room is not None:
                self._on_room(room, bytes(message.payload), retained=bool(message.retain))
            else:
                _, done = self._take(message.topic, bytes(message.payload), retained=bool(message.retain))
        except Exception as exc:  # _take catches everything; a topic that is no UTF-8 raises on reading it
            self.refused["error"] += 1
            self.quiet.error("error", "a message could not be taken: %s: %s", type(exc).__name__, str(exc)[:200],
                             exc_info=exc)
        try:
            self._acknowledge(client, message, done)
        except Exception as exc:
            self._fault("callback", "acknowledging a message", exc)

    def _on_room(self, room: str, payload: bytes, *, retained: bool) -> None:
        """A room's bridge says its link is up or down: its tables' boards say so, and the pages."""
        with self.lock:
            state = self.reach.said(room, payload, retained=retained)
            if state is None:
                return
            for table in state["tables"]:
                if table in self.live:
                    self.live[table]["reachable"] = state["reachable"]
        log.warning("room %s %s", room, "is reachable again" if state["reachable"] else "is out of reach")
        self._notify("room", state)

    def _acknowledge(self, client: mqtt.Client, message: mqtt.MQTTMessage, done: tuple[str, int] | None) -> None:
        with self.acks:  # acknowledged now only if nothing it wrote, or before it, waits for the disk
            if self.unacked or self.syncing or self.db.unsynced():
                self.unacked.append((message.mid, message.qos))
                if done is not None:
                    self.undone.append(done)
                self.flush_wanted.set()
            else:
                client.ack(message.mid, message.qos)
                if done is not None:
                    self._tell([done])

    def _tell(self, done: list[tuple[str, int]]) -> None:
        """Tell each table which of its messages the director has, durably (end to end: a
        table sends again, after a reconnect of either side, whatever it was not told of)."""
        if self.client is None or not done:
            return
        session = self.db.get("session")
        if not session:
            return
        ids: dict[str, list[int]] = {}
        for table, number in done:
            ids.setdefault(table, []).append(number)
        for table, numbers in ids.items():
            for start in range(0, len(numbers), 500):
                self.client.publish(acks_topic(self.event, table), acks_body(session, numbers[start:start + 500]),
                                    qos=1)
        self.told += len(done)

    def group_commits(self, group_seconds: float = 0.005) -> None:
        """From now on, commit without waiting for the disk and make the commits durable in
        groups from a flusher thread (``connect`` does this)."""
        self.db.defer_sync()
        self.flusher = threading.Thread(target=self._flush_loop, args=(group_seconds,), daemon=True,
                                        name="cribpi-director-flush")
        self.flusher.start()

    def _flush_loop(self, group_seconds: float) -> None:
        while not self.stopping:
            if self.flush_wanted.wait(0.5):
                time.sleep(group_seconds)  # gather what else comes in the meantime
                self.flush_wanted.clear()
                if not self.stopping:  # close() flushes last itself
                    try:
                        self.flush()
                        self.db.checkpoint()
                    except Exception as exc:  # a full disk: tried again with the next; unacknowledged meanwhile
                        self._fault("flush", "making the commits durable", exc)
                        self.flush_wanted.set()
                        time.sleep(1)

    def warnings(self) -> list[str]:
        """As :meth:`Intake.warnings`, and each of the director's threads that stopped: the
        broker's (no table's message is taken) or the flusher (none is acknowledged)."""
        found = super().warnings()
        with self.lock:
            found += self.reach.warnings()
        if self.stopping:
            return found
        if self.loop_thread is not None and not self.loop_thread.is_alive():
            found.append("the director's MQTT loop has stopped: no table's message is taken; restart the director"
                         " (its log says why)")
        if self.flusher is not None and not self.flusher.is_alive():
            found.append("the director's flusher thread has stopped: no table's message is acknowledged; restart the"
                         " director (its log says why)")
        return found

    def flush(self) -> None:
        """Make the commits so far durable, then acknowledge their messages (in order). The
        fsync holds no lock the message thread needs: messages meanwhile wait for the next."""
        with self.acks:
            waiting, self.unacked = self.unacked, []
            done, self.undone = self.undone, []
            self.syncing = bool(waiting)
        try:
            self.db.sync()
        except BaseException:  # not durable: acknowledged after the next fsync that is
            with self.acks:
                self.unacked[:0], self.undone[:0], self.syncing = waiting, done, False
            raise
        with self.acks:
            if self.client is not None:
                for mid, qos in waiting:
                    self.client.ack(mid, qos)
                self._tell(done)
            self.syncing = False

    def close(self) -> None:
        self.stopping = True
        if self.flusher is not None:
            self.flusher.join(2)
        self.flush()
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()
