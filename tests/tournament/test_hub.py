"""The wall's stream (cribpi.tournament.director.web.hub) in a real asyncio loop, fed from another thread as
paho's is: a table's boards drawn a few times a second, the newest only; a page that reads
nothing lets its oldest changes go, counted, with no exception in the loop and no log flood."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter
from typing import Any

import pytest

from cribpi.tournament.director.web.hub import Hub


def run(hub: Hub, feed: Any) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    """Open one stream on ``hub`` in a new loop, call ``feed(hub)`` from another thread, then
    read what comes (after 'hello') till nothing has for a second; what was read and what the
    loop's exception handler saw."""
    errors: list[dict[str, Any]] = []

    async def main() -> list[dict[str, str]]:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _, context: errors.append(context))
        hub.loop = loop
        stream = hub.stream()
        assert (await stream.__anext__())["event"] == "hello"
        feeder = threading.Thread(target=feed, args=(hub,))
        feeder.start()
        while feeder.is_alive():
            await asyncio.sleep(0.01)
        got = []
        try:
            while True:
                got.append(await asyncio.wait_for(stream.__anext__(), 1))
        except TimeoutError:
            pass
        await stream.aclose()
        return got

    return asyncio.run(main()), errors


def test_a_tables_boards_go_out_a_frame_at_a_time_the_newest_only() -> None:
    drops: Counter[str] = Counter()
    hub = Hub(drops, frame=0.2, burst=1)  # one frame in hand: the first board, then one each 0.2 s
    fed = []

    def feed(h: Hub) -> None:
        start = time.monotonic()
        for n in range(5_000):  # t1 floods; t2 sends one board
            h("table", {"table": "t1", "online": True, "state": {"id": n}})
        h("table", {"table": "t2", "online": True, "state": {"id": 7}})
        fed.append(time.monotonic() - start)

    got, errors = run(hub, feed)
    assert not errors and {g["event"] for g in got} == {"table"}
    t1 = [g["data"] for g in got if '"t1"' in g["data"]]
    assert [g["data"] for g in got if '"t2"' in g["data"]] == ['{"table":"t2","online":true,"state":{"id":7}}']
    frames = 2 + int(fed[0] / 0.2)  # the first, one a frame while the flood lasted (longer on a busy machine), the last
    assert 1 <= len(t1) <= frames and t1[-1] == '{"table":"t1","online":true,"state":{"id":4999}}'  # the newest
    assert drops["board"] == 5_000 - len(t1)  # the rest drawn over


def test_a_page_that_reads_nothing_lets_its_oldest_changes_go(caplog: pytest.LogCaptureFixture) -> None:
    drops: Counter[str] = Counter()
    hub = Hub(drops, most=100)

    def feed(h: Hub) -> None:
        for n in range(5_000):
            h("standings", {"n": n})

    with caplog.at_level(logging.WARNING, logger="cribpi.tournament.director.web"):
        got, errors = run(hub, feed)
    assert not errors  # no QueueFull in the loop's callbacks
    assert drops["wall"] == 4_900 and [g["data"] for g in got] == [f'{{"n":{n}}}' for n in range(4_900, 5_000)]
    assert len(caplog.records) <= 5  # a line a second, not one a change
