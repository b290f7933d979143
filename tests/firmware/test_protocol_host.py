"""The host's controller link against the firmware's own logic (in this process) over a port
that damages or loses lines: a line answered ERR CRC is sent again with the same number, a
lost one ends in a GAP and the full state from Z, and either way the controller ends up
holding the host's board."""

import threading
import time

import layout as fw_layout
import link as fw_link
import protocol as fw
from cribpi.hal.controller import LinkTiming
from cribpi.hal.controller.link import Link
from cribpi.views.board import BoardModel, TrackModel

QUICK = LinkTiming(ack_timeout_s=0.05, retries=3, ping_s=2.0, backoff_s=0.02, backoff_max_s=0.1)
BOARD = BoardModel((TrackModel(12, 6, (255, 0, 0), 1), TrackModel(4, 0, (0, 64, 255))), brightness=1.0)
MOVED = BoardModel((TrackModel(20, 12, (255, 0, 0), 1), TrackModel(4, 0, (0, 64, 255))), brightness=1.0)


class FirmwarePort:
    """A serial port with the firmware's Controller behind it; ``fault(line, n)`` gives the
    bytes that arrive for the host's ``n``-th line (None: lost)."""

    def __init__(self, fault=None):
        self.controller = fw_link.Controller(fw_layout, 0)
        self.lines = fw_link.LineBuffer()
        self.fault = fault or (lambda line, n: line)
        self.sent = []  # every line the host wrote, as it wrote it
        self.out = bytearray()
        self.lock = threading.Lock()
        self.pending = b""

    def write(self, data):
        self.pending += data
        while b"\n" in self.pending:
            line, self.pending = self.pending.split(b"\n", 1)
            self.sent.append(line)
            arrived = self.fault(line + b"\n", len(self.sent))
            if arrived is None:
                continue
            for received in self.lines.feed(arrived):
                with self.lock:
                    self.out += self.controller.handle(received, int(time.monotonic() * 1000))

    @property
    def in_waiting(self):
        return len(self.out)

    def read(self, size=1):
        deadline = time.monotonic() + 0.02
        while not self.out and time.monotonic() < deadline:
            time.sleep(0.002)
        with self.lock:
            data, self.out[:] = bytes(self.out[:size]), self.out[size:]
        return data

    def close(self):
        pass


def driven(port, board):
    link = Link("fake", timing=QUICK, opener=lambda name, read_timeout: port, finder=lambda name: name)
    link.show(board)
    deadline = time.monotonic() + 5
    while link.shown is not board and time.monotonic() < deadline:
        time.sleep(0.01)
    return link


def holds(controller, board):
    tracks = controller.board.tracks
    return all((t.front, t.rear, t.colour, t.games) == (m.front, m.rear, m.colour, m.games_won)
               for t, m in zip(tracks, board.tracks))


def bodies(port):
    return [line.split(b"*")[0].decode() for line in port.sent]


def test_a_damaged_line_is_sent_again_with_its_own_number():
    def damage_the_peg_move_once(line, n):
        if line.startswith(b"0C T 0 20") and not damage_the_peg_move_once.done:
            damage_the_peg_move_once.done = True
            return line.replace(b"T 0 20", b"T 0 21")
        return line
    damage_the_peg_move_once.done = False
    port = FirmwarePort(damage_the_peg_move_once)
    link = driven(port, BOARD)
    try:
        assert holds(port.controller, BOARD)
        link.show(MOVED)
        deadline = time.monotonic() + 5
        while not holds(port.controller, MOVED) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert holds(port.controller, MOVED) and damage_the_peg_move_once.done
        assert bodies(port)[-2:] == ["0C T 0 20 12 0", "0C T 0 20 12 0"]  # the same number again, no Z
        assert link.problem is None
    finally:
        link.close()


def test_a_lost_line_ends_in_a_gap_and_the_full_state_from_z():
    port = FirmwarePort(lambda line, n: None if n == 4 else line)  # the full state's G 0 1
    link = driven(port, BOARD)
    try:
        assert holds(port.controller, BOARD)  # one game on track 0: the G came again
        sent = bodies(port)
        assert sent[3] == "04 G 0 1" and sent[4] == "05 T 0 12 6 0"  # lost; then 05 got GAP
        again = [body for body in sent if body.endswith(" Z 2 121")]
        assert len(again) == 2, sent  # the full state was sent again, from Z
        assert port.controller.last[1] == fw.frame(port.controller.last[0], "ACK")
    finally:
        link.close()


def test_after_a_damaged_line_and_a_gap_the_full_state_is_taken_at_once_from_z():
    def damage_once(line, n):
        return line.replace(b"FF0000", b"FF0001") if n == 3 else line  # the C 0 of the first full state
    port = FirmwarePort(damage_once)
    link = driven(port, BOARD)
    try:
        assert holds(port.controller, BOARD)
        sent = bodies(port)
        # 03 damaged: ERR CRC, so 04 got GAP; 03 sent again got GAP too (counting had moved on);
        # the full state after it starts with Z at the host's next number, which is taken.
        assert sent.count("03 C 0 FF0000") == 2
        assert len([body for body in sent if body.endswith(" Z 2 121")]) == 2, sent
    finally:
        link.close()


def test_the_host_reads_every_line_the_document_says_the_controller_sends():
    from cribpi.hal.protocol import parse_line
    from tests.firmware import conformance

    replies = [s.text for _, steps in conformance.examples() for s in steps if s.kind == "<"]
    assert len(replies) > 50
    for text in replies:
        line = parse_line(text.encode())
        assert line.verb == text[3:].split("*")[0].split(" ")[0]


def test_the_host_holds_the_controllers_lines_to_the_one_form():
    import pytest

    from cribpi.hal.protocol import LineError, crc8, parse_line

    def framed(head):
        return head + b"*%02X" % crc8(head)

    assert parse_line(framed(b"0A ACK")).seq == 10
    assert parse_line(framed(b"0A ACK") + b"\r").verb == "ACK"
    for bad in (framed(b"0a ACK"), framed(b"0A ACK")[:-2] + b"%02x" % crc8(b"0A ACK"),  # be, not BE
                framed(b"0A CARD Q\xe2\x99\xa0"), framed(b"0A CARD 5*H"), framed(b"0A ACK\r")):
        with pytest.raises(LineError):
            parse_line(bad)


def test_err_version_says_hello_again_on_the_same_port_then_the_full_state():
    """docs/protocol.md: on ERR VERSION (the controller restarted, the port stayed) the host
    says HELLO again, then sends the full state; it does not close the port nor say "lost"."""
    port = FirmwarePort()
    opened = []
    link = Link("fake", timing=QUICK, opener=lambda name, read_timeout: opened.append(name) or port,
                finder=lambda name: name)
    problems = set()
    try:
        link.show(BOARD)
        deadline = time.monotonic() + 5
        while link.shown is not BOARD and time.monotonic() < deadline:
            time.sleep(0.01)
        port.controller = fw_link.Controller(fw_layout, 0)  # restarted: no handshake, blank board
        link.show(MOVED)
        deadline = time.monotonic() + 5
        while not (link.shown is MOVED and holds(port.controller, MOVED)) and time.monotonic() < deadline:
            problems.add(link.problem)
            time.sleep(0.002)
        assert holds(port.controller, MOVED)
        sent = bodies(port)
        hellos = [i for i, body in enumerate(sent) if body.endswith(f" HELLO {fw.PROTOCOL}")]
        assert len(hellos) == 2 and sent[hellos[1] + 1].endswith(" Z 2 121"), sent
        assert opened == ["fake"] and link.connections == 2  # the port was never closed
        assert problems <= {None} and link.problem is None
    finally:
        link.close()
