"""Runs the firmware's logic on a script and prints what it did, as JSON: under CPython
(imported by the tests) and under the MicroPython unix port (``micropython probe.py`` with
the script on stdin), so a test can hold the two to the same answers.

The script: ``input`` (hex of the bytes the host sends), ``steps`` (animation steps to draw
the board at afterwards) and ``keys`` (``[[pressed keys], ms], ...`` for the debouncer).
"""

import json
import sys

from draw import draw, new_strips
from keys import Debouncer
from link import Controller, LineBuffer


def run(script, layout):
    controller = Controller(layout, 0)
    lines = LineBuffer()
    replies = []
    for line in lines.feed(bytes.fromhex(script["input"])):
        replies.append(controller.handle(line, 0).decode())
    frames = []
    strips = new_strips(layout)
    for step in script.get("steps", ()):
        draw(controller.board, layout, strips, step, script.get("animation"))
        frames.append([list(buf) for buf in strips])
    keys = Debouncer()
    events = []
    for pressed, now in script.get("keys", ()):
        events.extend(list(e) for e in keys.update(pressed, now))
    return {"replies": replies, "frames": frames, "events": events}


if __name__ == "__main__":
    import layout

    print(json.dumps(run(json.loads(sys.stdin.read()), layout)))
