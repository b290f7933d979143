"""One serial conversation with the controller, kept alive by its own thread.

The thread finds and opens the port, says HELLO (refusing another major version), sends the
whole board, then only what changed, always from the latest board shown (never a backlog),
and a PING when nothing changed for a while so the controller knows the host is alive.
Every command is ACKed; a command without one, or answered ERR LONG, PARSE or CRC (it did not
arrive whole, so it used up no number), is sent again with the same sequence number (the
controller answers a repeat without applying it twice). Any other ERR, and any reconnect,
sends the full state again. Lines from the controller that are events go to ``deliver``.

When the port goes away the thread closes it, says so in ``problem`` and opens it again with
a growing back-off; nothing is raised into the app. Lines that are not frames are refused
(:func:`~cribpi.hal.protocol.parse_line`) and logged; an error nothing foresaw is logged
once a cause, counted in ``unexpected``, and handled as a lost controller: the thread never
stops before :meth:`Link.close`.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cribpi.exc import ConfigError, HardwareError
from cribpi.hal.base import Deliver
from cribpi.hal.controller.keys import KeyEvents
from cribpi.hal.controller.ports import find_port, open_port
from cribpi.hal.protocol import (
    EVENTS, MAX_LINE, PROTOCOL, UNCOUNTED, Line, LineError, board_commands, changed_commands, frame, major,
    parse_line,
)
from cribpi.views.board import BoardModel

__all__ = ["Link", "LinkTiming", "Hello", "version_problem"]

log = logging.getLogger(__name__)
Commands = dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class LinkTiming:
    """How patient the host is: ``ack_timeout_s`` before a command is sent again, ``retries``
    before the controller counts as lost, ``ping_s`` of quiet before a PING (well under the
    controller's host-lost timeout), and the reconnect back-off from ``backoff_s`` doubling up
    to ``backoff_max_s``."""

    ack_timeout_s: float = 0.1
    retries: int = 3
    ping_s: float = 1.0
    backoff_s: float = 0.2
    backoff_max_s: float = 5.0

    def __post_init__(self) -> None:
        limits = {"ack_timeout_s": (0.005, 5.0), "ping_s": (0.05, 2.5), "backoff_s": (0.01, 60.0),
                  "backoff_max_s": (0.01, 600.0), "retries": (0, 20)}
        for name, (low, high) in limits.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or not low <= value <= high or (name == "retries" and not isinstance(value, int)):
                kind = "an integer" if name == "retries" else "a number"
                raise ConfigError(f"controller {name} = {value!r} is not valid: {kind} {low}-{high}")


@dataclass(frozen=True)
class Hello:
    """What the controller said of itself in its HELLO reply."""

    protocol: str
    firmware: str
    tracks: int
    leds: int
    keys: tuple[str, ...]


def version_problem(hello: Hello) -> str | None:
    if major(hello.protocol) == major(PROTOCOL):
        return None
    return f"controller firmware {major(hello.firmware)}.x, cribpi needs {major(PROTOCOL)}.x: run `cribpi flash`"


class Lost(HardwareError):
    """The conversation broke: close the port and open it again."""


class Restarted(HardwareError):
    """The controller answered ERR VERSION: it restarted without the port going away and forgot
    the handshake. The port is kept: HELLO again, then the full state."""


class Link:
    """The controller on ``port`` (None: find it). ``show`` and ``deliver_to`` may be called
    from any thread; ``problem`` is None while the controller is driven, else a short text."""

    def __init__(self, port: str | None, *, timing: LinkTiming = LinkTiming(), cap_ma: int = 2000,
                 opener: Callable[..., Any] = open_port, finder: Callable[[str | None], str] = find_port,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.where = port or "auto"
        self.timing = timing
        self.cap_ma = cap_ma
        self.problem: str | None = "controller: connecting"
        self.hello: Hello | None = None
        self.connections = 0  # handshakes so far (a reconnect adds one)
        self.unexpected = 0  # errors nothing foresaw (each cause logged once): the port reopened
        self.shown: BoardModel | None = None  # the board the controller has ACKed in full
        self._port_name, self._opener, self._finder, self._clock = port, opener, finder, clock
        self._wanted: BoardModel | None = None
        self._deliver: Deliver | None = None
        self._keys = KeyEvents()
        self._port: Any = None
        self._buffer = b""
        self._seq = 0
        self._next_event: int | None = None
        self._logged = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"controller {self.where}", daemon=True)
        self._thread.start()

    # --- the app's side -------------------------------------------------------------------

    def show(self, board: BoardModel) -> None:
        self._wanted = board
        self._interrupt()

    def deliver_to(self, deliver: Deliver | None) -> None:
        self._deliver = deliver

    def close(self) -> None:
        self._stop.set()
        self._interrupt()
        self._thread.join(timeout=5)

    def _interrupt(self) -> None:
        cancel = getattr(self._port, "cancel_read", None)
        if cancel is not None:
            try:
                cancel()
            except (OSError, AttributeError, TypeError):
                pass  # the port is closing under us: the thread notices by itself

    # --- the thread -----------------------------------------------------------------------

    def _run(self) -> None:
        delay = self.timing.backoff_s
        while not self._stop.is_set():
            before = self.connections
            try:
                self._session()
            except (OSError, Lost) as exc:  # SerialException is an OSError
                if str(exc) != self._logged:  # once a cause, not once a retry
                    log.warning("controller %s: %s", self.where, exc)
                    self._logged = str(exc)
                self.problem = self._problem_for(exc)
            except Exception as exc:  # a bug or a line nothing foresaw: the loop must not die
                self.unexpected += 1
                if repr(exc) != self._logged:
                    log.exception("controller %s: unexpected error (the port is opened again)", self.where)
                    self._logged = repr(exc)
                self.problem = "controller: unexpected error, reconnecting"
            finally:
                self._close_port()
            if self.connections > before:
                delay = self.timing.backoff_s  # it was working: try again soon
            self._stop.wait(delay)
            delay = min(delay * 2, self.timing.backoff_max_s)

    def _problem_for(self, exc: BaseException) -> str:
        if isinstance(exc, Lost) and exc.args and str(exc.args[0]).startswith("controller firmware"):
            return str(exc.args[0])
        return "controller lost: reconnecting" if self.connections else "controller not found: retrying"

    def _session(self) -> None:
        self._port = self._opener(self._finder(self._port_name), read_timeout=0.05)
        self._buffer = b""
        self._handshake()
        sent: Commands | None = None
        shown: BoardModel | None = None
        last = self._clock()
        while not self._stop.is_set():
            board = self._wanted
            try:
                if board is not None and board is not shown:
                    sent, shown, last = self._sync(sent, board), board, self._clock()
                    self.shown = board if sent is not None else None
                elif self._clock() - last >= self.timing.ping_s:
                    if self._errors(self._exchange(["PING"])):
                        sent, shown = None, None  # the controller lost count: send everything
                    last = self._clock()
                else:
                    self._read_replies()
            except Restarted as exc:  # HELLO again on the same port, then the full state
                log.warning("controller %s: %s: saying HELLO again", self.where, exc)
                self._handshake()
                sent, shown = None, None

    def _handshake(self) -> None:
        for line in self._exchange([f"HELLO {PROTOCOL}"], reply="HELLO"):
            if line.verb != "HELLO":
                raise Lost(f"the controller refused HELLO: {' '.join(line.args)}")
            hello = _hello(line)
            problem = version_problem(hello)
            if problem is not None:
                raise Lost(problem)
            self.hello, self.problem, self._logged = hello, None, ""
            self._next_event = 0  # the controller numbers its events from 00 after each HELLO
            self.connections += 1
            log.info("controller %s: firmware %s, protocol %s, %d tracks", self.where, hello.firmware,
                     hello.protocol, hello.tracks)
            return
        raise Lost("the controller did not answer HELLO")

    def _sync(self, sent: Commands | None, board: BoardModel) -> Commands | None:
        """Send what takes the controller from ``sent`` to ``board``; on any ERR, the whole
        state again (it starts with Z, which the controller takes whatever its sequence
        number), up to ``retries`` times. The commands now shown; None if the controller kept
        refusing them (the next board is then sent whole)."""
        wanted = board_commands(board, self.cap_ma)
        refused = self._errors(self._exchange(changed_commands(sent, wanted)))
        for _ in range(self.timing.retries if refused else 0):
            refused = self._errors(self._exchange(changed_commands(None, wanted)))
            if not refused:
                break
        self.problem = self._fit(board)
        if refused:
            log.error("controller %s refused the board: %s", self.where, "; ".join(refused))
            return None
        return wanted

    def _fit(self, board: BoardModel) -> str | None:
        """A game with more tracks than the controller's board: it shows the first ones only."""
        tracks = self.hello.tracks if self.hello is not None else len(board.tracks)
        if len(board.tracks) <= tracks:
            return None
        return f"the LED board has {tracks} tracks, the game needs {len(board.tracks)}"

    @staticmethod
    def _errors(replies: list[Line]) -> list[str]:
        """The ERR reasons among ``replies``; :class:`Restarted` if the controller has forgotten the
        handshake (it restarted without the port going away)."""
        errors = [" ".join(line.args) for line in replies if line.verb == "ERR"]
        if any(error.startswith("VERSION") for error in errors):
            raise Restarted(f"the controller restarted: {errors[0]}")
        return errors

    def _exchange(self, bodies: list[str], reply: str = "ACK") -> list[Line]:
        """Send ``bodies`` at once; wait for an answer to each, sending again on a timeout. The
        answers in order; :class:`Lost` when one never comes."""
        pending: dict[int, tuple[bytes, int, float]] = {}
        for body in bodies:
            self._seq = (self._seq + 1) & 0xFF
            data = frame(self._seq, body)
            pending[self._seq] = (data, 0, self._clock() + self.timing.ack_timeout_s)
            self._write(data)
        answers: dict[int, Line] = {}
        while pending:
            for line in self._read_replies():
                if line.seq is None or line.seq not in pending or line.verb not in (reply, "ERR"):
                    continue
                if line.verb == "ERR" and line.args[:1] and line.args[0] in UNCOUNTED:
                    data, tries, _ = pending[line.seq]  # it arrived damaged: not counted, send it again
                    pending[line.seq] = (data, tries, self._clock())
                    log.warning("controller %s: %s", self.where, " ".join(line.args))
                    continue
                del pending[line.seq]
                answers[line.seq] = line
            self._resend_late(pending)
        return list(answers.values())

    def _resend_late(self, pending: dict[int, tuple[bytes, int, float]]) -> None:
        now = self._clock()
        for seq, (line, tries, due) in list(pending.items()):
            if now < due:
                continue
            if tries >= self.timing.retries:
                raise Lost(f"no answer to {line.decode(errors='replace').strip()!r} after {tries + 1} tries")
            pending[seq] = (line, tries + 1, now + self.timing.ack_timeout_s)
            self._write(line)
        if self._stop.is_set():
            raise Lost("closing")

    def _write(self, line: bytes) -> None:
        self._port.write(line)

    def _read_replies(self) -> list[Line]:
        """Read what has come (waiting up to the port's timeout); deliver events, return the
        replies."""
        data = self._port.read(max(1, getattr(self._port, "in_waiting", 0) or 0))
        self._buffer += data
        replies = []
        *lines, self._buffer = self._buffer.split(b"\n")
        if len(self._buffer) >= MAX_LINE:
            log.warning("controller %s: dropped %d bytes without a newline", self.where, len(self._buffer))
            self._buffer = b""
        for raw in lines:
            try:
                parsed = parse_line(raw)
            except LineError as exc:
                log.warning("controller %s: %s", self.where, exc)
                continue
            if parsed.verb in EVENTS:
                self._event(parsed)
            else:
                replies.append(parsed)
        return replies

    def _event(self, line: Line) -> None:
        expected, self._next_event = self._next_event, None if line.seq is None else (line.seq + 1) & 0xFF
        if expected is not None and line.seq != expected:
            log.warning("controller %s: event %s came after %02X: events were lost", self.where,
                        "--" if line.seq is None else f"{line.seq:02X}", (expected - 1) & 0xFF)
        deliver, action = self._deliver, self._keys.action(line)
        if deliver is not None and action is not None:
            deliver(action)

    def _close_port(self) -> None:
        port, self._port, self.shown = self._port, None, None
        if port is not None:
            try:
                port.close()
            except OSError:
                pass


def _hello(line: Line) -> Hello:
    try:
        protocol, firmware, tracks, leds, keys = line.args
        return Hello(protocol, firmware, int(tracks), int(leds), tuple(keys.split(",")))
    except ValueError:
        raise Lost(f"the controller's HELLO {' '.join(line.args)[:60]!r} is not "
                   "PROTOCOL FIRMWARE TRACKS LEDS KEYS") from None
