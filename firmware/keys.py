"""The key matrix: rows driven low one at a time, columns read with pull-ups; each key
debounced on its own, and reported as KD (down), KU (up) and KH (held HOLD_MS, then again every
REPEAT_MS while still held: a held UNDO keeps undoing).

The matrix is read every SCAN_MS by a timer interrupt (:class:`Sampler`), whatever the loop is
doing: a batch of commands, a frame being drawn, a garbage collection. The interrupt only
records each change of the reading, with when it came and when the reading before it was last
seen; the loop debounces those records (:meth:`Sampler.take`) as if it had scanned on time, so
a press is never lost to a loop that was busy (a 60-line batch took ~60 ms), only reported a
little later.
"""

import time
from array import array

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
        self.reading = 0  # the matrix's last reading taken (Sampler.take), a mask
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


class Sampler:
    """The matrix read every ``period_ms`` from a timer interrupt (``start``), or from the loop
    (``sample``) where the port has no timer. The interrupt allocates nothing (a hard interrupt
    cannot): the reading is a bit mask, each change goes into a ring of ``size`` records of
    three words (the tick the old reading was last seen, the tick of the new one, the new
    mask), and the loop takes them in order with :meth:`take`."""

    def __init__(self, matrix, period_ms=settings.SCAN_MS, size=64):
        self.matrix = matrix
        self.period_ms = period_ms
        self.size = size
        self.ring = array("i", [0] * (3 * size))
        self.written = 0  # records written (the interrupt's)
        self.taken = 0  # records taken (the loop's)
        self.mask = 0  # the reading now (the interrupt's)
        self.seen = time.ticks_ms()  # when it was last read
        self.overrun = 0  # scans whose change the ring had no room for (the loop stalled for 64 changes)
        self.timer = None

    def start(self):
        """Read the matrix from a timer interrupt from now on; False where the port has none
        (the loop then calls :meth:`sample` itself)."""
        make = getattr(machine, "Timer", None)
        if make is None:
            return False
        try:
            self.timer = make(mode=make.PERIODIC, period=self.period_ms, callback=self.sample, hard=True)
        except (TypeError, ValueError):  # a port without hard timer callbacks: soft ones
            self.timer = make(mode=make.PERIODIC, period=self.period_ms, callback=self.sample)
        return True

    def sample(self, _timer=None):
        """One reading; a change is recorded. Runs in an interrupt: allocates nothing."""
        now = time.ticks_ms()
        mask = self.matrix.read()
        if mask != self.mask:
            if self.written - self.taken >= self.size:
                # No room: the change stays unrecorded, the reading before it kept, so the
                # first scan after the loop has taken records it (from when the old reading
                # was last seen). Were the reading kept instead, the loop would never see it.
                self.overrun += 1
                return
            at = (self.written % self.size) * 3
            ring = self.ring
            ring[at] = self.seen
            ring[at + 1] = now
            ring[at + 2] = mask
            self.written += 1
            self.mask = mask
        self.seen = now

    def take(self, keys, clock_ms, tick):
        """The events of the readings recorded since the last take, and of the reading now,
        from ``keys`` (a Debouncer); ``clock_ms`` is the loop's clock at ``tick``
        (time.ticks_ms())."""
        matrix, ring, size = self.matrix, self.ring, self.size
        written = self.written
        if self.taken == written:  # the usual case, 200 times a second: nothing allocated
            return keys.update(matrix.names(keys.reading), clock_ms)
        events = []
        last = keys.reading
        while self.taken < written:
            at = (self.taken % size) * 3
            before = clock_ms - time.ticks_diff(tick, ring[at])
            changed = clock_ms - time.ticks_diff(tick, ring[at + 1])
            events.extend(keys.update(matrix.names(last), before))
            last = ring[at + 2]
            events.extend(keys.update(matrix.names(last), changed))
            self.taken += 1
        keys.reading = last
        events.extend(keys.update(matrix.names(last), clock_ms))
        return events


class Matrix:
    """The pins of the matrix: ``scan()`` gives the names of the keys that read pressed."""

    def __init__(self, rows=settings.ROW_PINS, cols=settings.COL_PINS, keymap=settings.KEYMAP):
        self.rows = [machine.Pin(p, machine.Pin.OPEN_DRAIN, value=1) for p in rows]
        self.cols = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in cols]
        self.keymap = keymap
        self.order = [name for row in keymap for name in row]  # a mask's bits, in order
        self.none = ()

    def scan(self):
        """The names of the keys read pressed, in a new list: a whole reading for the tests'
        rigs (the firmware reads the mask in its interrupt: :meth:`read`, :meth:`names`)."""
        return list(self.names(self.read()))

    def read(self):
        """The keys read pressed, as a mask (bit ``row * columns + column``). Allocates
        nothing: it runs in a timer interrupt."""
        rows, cols = self.rows, self.cols
        if not self._any(rows, cols):
            return 0
        mask = 0
        bit = 1
        r = 0
        while r < len(rows):
            row = rows[r]
            row.value(0)
            c = 0
            while c < len(cols):
                if not cols[c].value():
                    mask |= bit
                bit <<= 1
                c += 1
            row.value(1)
            r += 1
        return mask

    def names(self, mask):
        """The names of the keys in ``mask`` (a reading of :meth:`read`), keyless places left out."""
        if not mask:
            return self.none
        order = self.order
        return [order[n] for n in range(len(order)) if mask >> n & 1 and order[n]]

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
