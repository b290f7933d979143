"""Status marks through the app: another thread (a publisher's network thread) posts
``set_mark``/``clear_mark``; the loop wakes, and every display shows the mark beside the
table's screen, which stays as it was."""

from __future__ import annotations

import threading
import time

import pytest

from cribpi.app.listeners import Update
from cribpi.exc import ViewError
from cribpi.views.oled import MARKS, render_screen
from tests.app.table_keys import mock_table


def _corner(image) -> list[str]:  # type: ignore[no-untyped-def]
    return ["".join("#" if image.getpixel((x, y)) else "." for x in range(121, 128)) for y in range(7)]


def _run_until(app, done) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + 30  # only bounds a failure: both cores may be busy
    app.run(should_stop=lambda: done() or time.monotonic() > deadline)
    assert done(), "the loop never drew the posted mark"


def test_a_mark_set_from_another_thread_is_drawn_by_the_loop_and_cleared() -> None:
    with mock_table() as (parts, ui, app):
        told: list[Update] = []
        app.subscribe(told.append)
        plain = parts.image
        assert plain is not None and _corner(plain) != list(MARKS["offline"])
        threading.Thread(target=app.set_mark, args=("offline",)).start()
        _run_until(app, lambda: bool(told) and told[-1].marks == {"offline"})
        marked = parts.image
        assert marked is not None and _corner(marked) == list(MARKS["offline"])
        assert told[-1].screen == ui.screen()  # the screen is kept: the mark is beside it
        assert marked.tobytes() == render_screen(ui.screen(), marks={"offline"}).tobytes()
        threading.Thread(target=app.clear_mark, args=("offline",)).start()
        _run_until(app, lambda: told[-1].marks == frozenset())
        cleared = parts.image
        assert cleared is not None and cleared.tobytes() == plain.tobytes()


def test_setting_a_mark_twice_tells_the_listeners_once_and_an_unknown_one_is_refused() -> None:
    with mock_table() as (parts, ui, app):
        told: list[Update] = []
        app.subscribe(told.append)
        app.set_mark("offline")
        app.set_mark("offline")
        assert app.run_posts() == 2 and len(told) == 1 and app.marks == {"offline"}
        with pytest.raises(ViewError, match="no status mark 'busy'"):
            app.set_mark("busy")
        assert app.run_posts() == 0 and app.marks == {"offline"}
    app.set_mark("offline")  # after close: a late post from a network thread is dropped
    assert app.run_posts() == 0
