"""The serial card reader on a real pseudo-terminal: whole cards, split lines, garbage."""

import os
import queue
import time

import pytest

from cribpi.hal.actions import Kind
from cribpi.hal.serial_cards import SerialCardReader


@pytest.fixture
def pty_reader():
    master, slave = os.openpty()
    reader = SerialCardReader(os.ttyname(slave))
    got: queue.SimpleQueue = queue.SimpleQueue()
    reader.start(got.put)
    yield master, reader, got
    reader.close()
    os.close(master)
    os.close(slave)


def _next(got, timeout=30.0):  # only bounds a failure: both cores may be busy
    return got.get(timeout=timeout)


def test_cards_arrive_as_card_actions(pty_reader):
    master, _, got = pty_reader
    os.write(master, "5H\r\n10d\nq♠\n".encode())
    assert [str(_next(got).card) for _ in range(3)] == ["5H", "TD", "QS"]


def test_a_line_split_across_reads_is_one_card(pty_reader):
    master, _, got = pty_reader
    os.write(master, b"1")
    time.sleep(0.3)  # longer than the reader's read timeout
    os.write(master, b"0h\n")
    action = _next(got)
    assert action.kind is Kind.CARD and str(action.card) == "TH"


def test_garbage_is_rejected_with_a_reason_and_reading_goes_on(pty_reader):
    master, _, got = pty_reader
    os.write(master, b"\xff\xfegarbage\nZZ\n" + b"x" * 200 + b"\n7C\n")
    rejected = [_next(got) for _ in range(3)]
    assert all(a.kind is Kind.REJECTED for a in rejected)
    assert "garbage" in rejected[0].text and "accepted" not in rejected[0].text or "expected" in rejected[0].text
    assert "ZZ" in rejected[1].text
    assert str(_next(got).card) == "7C"


def test_a_rejected_line_shows_on_the_table_and_changes_nothing():
    import random

    from cribpi.app import TableSettings, TableUI
    from cribpi.hal.actions import Action
    from cribpi.views.model import AlertScreen

    ui = TableUI(TableSettings(), rng=random.Random(1))
    before = ui.state
    ui.handle(Action.rejected("card reader sent 'ZZ' is not a card"))
    assert ui.state is before
    assert isinstance(ui.screen(), AlertScreen) and "ZZ" in " ".join(ui.screen().lines)


def test_the_rest_of_an_over_long_line_is_not_a_card():
    from cribpi.hal.serial_cards import MAX_LINE

    class Port:
        chunks = [b"x" * (MAX_LINE + 6), b"5H\n", b"7C\n", b""]

        def readline(self):
            return self.chunks.pop(0) if self.chunks else b""

        def close(self):
            pass

    got: queue.SimpleQueue = queue.SimpleQueue()
    reader = SerialCardReader("test://", port=Port())
    reader.start(got.put)
    first, second = _next(got), _next(got)
    reader.close()
    assert first.kind is Kind.REJECTED
    assert second.kind is Kind.CARD and str(second.card) == "7C"  # not the tail "…5H"


def test_a_closed_queue_ignores_late_deliveries():
    from cribpi.hal.actions import Action, ActionQueue

    q = ActionQueue()
    q(Action.of_card("7C"))
    read_fd, write_fd = q._read_fd, q._write_fd
    q.close()
    q(Action.of_card("5H"))  # an input thread delivering while the table shuts down
    q.close()
    assert q._queue.qsize() == 1  # only the action from before the close; the late one was dropped
    for fd in (read_fd, write_fd):  # both ends of the wake-up pipe were released
        with pytest.raises(OSError):
            os.fstat(fd)
