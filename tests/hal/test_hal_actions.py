from __future__ import annotations

import select
import threading

import pytest

from cribpi.exc import ConfigError
from cribpi.hal.actions import Action, ActionQueue, Kind

TEXTS = ["ok", "go", "undo", "undo_long", "menu", "rank A", "rank T", "suit H", "peg 0 2",
         "muggins 3", "muggins 3 2", "peg", "muggins", "card 5H"]


@pytest.mark.parametrize("text", TEXTS)
def test_text_round_trips(text):
    action = Action.parse(text)
    assert str(action) == text
    assert eval(repr(action)) == action  # noqa: S307 - repr round-trips


def test_parse_is_forgiving_about_case_and_ten():
    assert Action.parse("RANK 10") == Action.rank_key("T")
    assert Action.parse("card q♠").card is not None


@pytest.mark.parametrize("text", ["", "jump", "rank", "rank Z", "peg 0", "peg 5 1", "peg 0 122",
                                  "ok now", "card 1H", "muggins 0 30", "muggins 0 0", "muggins 0 1 2"])
def test_bad_text_names_the_forms(text):
    with pytest.raises(ConfigError, match="peg SEAT N"):
        Action.parse(text)


def test_bare_peg_and_muggins_are_a_keypads_keys():
    assert Action.parse("peg") == Action.peg_key() and Action.peg_key().is_key
    assert Action.parse("muggins") == Action.muggins_key() and Action.muggins_key().is_key
    assert not Action.peg(0, 2).is_key and not Action.muggins(1).is_key
    assert Action.muggins(1, 3) == Action(Kind.MUGGINS, seat=1, points=3)  # the simulator's x 2 3 Enter


def test_kinds_cover_the_interaction_model():
    assert {k.value for k in Kind} == {"rank", "suit", "go", "ok", "undo", "undo_long", "menu",
                                       "peg", "muggins", "card", "rejected"}


def test_queue_wakes_a_select_and_keeps_order_across_threads():
    with ActionQueue() as queue:
        ready, _, _ = select.select([queue], [], [], 0)
        assert ready == []
        threads = [threading.Thread(target=queue, args=(Action.peg(0, n),)) for n in range(1, 6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        ready, _, _ = select.select([queue], [], [], 1)
        assert ready == [queue]
        assert sorted(a.points for a in queue.drain()) == [1, 2, 3, 4, 5]
        assert select.select([queue], [], [], 0)[0] == []


def test_a_full_pipe_loses_no_action():
    with ActionQueue() as queue:
        for _ in range(100_000):
            queue(Action.parse("ok"))
        assert len(queue.drain()) == 100_000
