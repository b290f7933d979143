"""The key matrix: rows driven low one at a time, columns read with pull-ups; each key
debounced on its own, and reported as KD (down), KU (up) and KH (held HOLD_MS, then again every
REPEAT_MS while still held: a held UNDO keeps undoing).
"""

import machine

import settings


class Debouncer:
    """Turns raw readings (the set of keys that read pressed, at ``now`` ms) into events.
    A key changes state only after reading the same for ``debounce_ms``."""

    def __init__(self, debounce_ms=settings.DEBOUNCE_MS, hold_ms=settings.HOLD_MS,
                 repeat_ms=settings.REPEAT_MS):
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.repeat_ms = repeat_ms
        self.down = {}  # key -> when its next KH is due (its press accepted + hold_ms, then + repeat_ms)
        self.changing = {}  # key -> when its reading first differed from its state

    def update(self, pressed, now):
        if not pressed and not self.down and not self.changing:
            return ()  # nothing pressed, nothing changing: no garbage, 200 times a second
        events = []
        for key in set(pressed) | set(self.down) | set(self.changing):
            is_down = key in self.down
            if (key in pressed) == is_down:
                self.changing.pop(key, None)
            elif now - self.changing.setdefault(key, now) >= self.debounce_ms:
                del self.changing[key]
                if is_down:
                    del self.down[key]
                    events.append(("KU", key))
                else:
                    self.down[key] = now + self.hold_ms
                    events.append(("KD", key))
                continue
            due = self.down.get(key)
            if due is not None and now >= due:
                self.down[key] = now + self.repeat_ms
                events.append(("KH", key))
        return events


class Matrix:
    """The pins of the matrix: ``scan()`` gives the names of the keys that read pressed."""

    def __init__(self, rows=settings.ROW_PINS, cols=settings.COL_PINS, keymap=settings.KEYMAP):
        self.rows = [machine.Pin(p, machine.Pin.OPEN_DRAIN, value=1) for p in rows]
        self.cols = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in cols]
        self.keymap = keymap
        self.pressed = []

    def scan(self):
        """The keys read pressed, in a list the next scan reuses. It runs every SCAN_MS and
        allocates nothing: its garbage (enumerate objects, a list) made the heap fill every
        few seconds, and a collection takes ~8 ms, often in the middle of a command."""
        pressed = self.pressed
        pressed.clear()
        rows, cols, keymap = self.rows, self.cols, self.keymap
        if not self._any(rows, cols):
            return pressed
        for r in range(len(rows)):
            rows[r].value(0)
            for c in range(len(cols)):
                if not cols[c].value() and keymap[r][c]:
                    pressed.append(keymap[r][c])
            rows[r].value(1)
        return pressed

    def _any(self, rows, cols):
        """Whether any key reads pressed, all rows driven low at once: one read a column, where
        the scan proper takes one a key; most scans find nothing, and the loop's other tasks
        (a command, its frame) wait for each."""
        for row in rows:
            row.value(0)
        found = False
        for col in cols:
            if not col.value():
                found = True
                break
        for row in rows:
            row.value(1)
        return found
