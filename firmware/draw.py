"""The board drawn in pixels, as cribpi.views.leds.render_board draws it on the host (a test
keeps the two equal on the same layout): marks, pegs, flashing holes, the winner's hole,
animations, game counters; then the brightness and the current cap, in integers.

A frame holds few distinct colours, so it is drawn through a palette: colours() writes each
hole's and game LED's palette number into a byte per LED (Canvas.rows), power() scales the
dozen palette colours (brightness, then the cap from how many LEDs show each), and place()
maps the bytes through the layout into the strips' words in one viper loop per strip. Every
buffer is made once per layout (a busy frame used to allocate ~150 KB of tuples, and the
collections that followed cost more than the drawing), and per LED the work is a few native
instructions, not a tuple per LED; the figures are in the README (bench_pico).
"""

from array import array

import micropython

import settings
from board import MAX_TRACKS
from protocol import FLASH_STEPS, HOLES

from micropython import const

OFF = (0, 0, 0)
# Palette numbers: four fixed colours, then each track's colour and its rear peg's (const:
# numbers in the bytecode, not a lookup of a global each time).
P_OFF = const(0)
P_MARK = const(1)
P_FLASH = const(2)
P_ALERT = const(3)
P_TRACK = const(4)
PALETTE = P_TRACK + 2 * MAX_TRACKS


@micropython.viper
def scale(colour, per_mille: int):
    """``colour`` times ``per_mille`` / 1000, each channel rounded halves to even as Python's
    round() does (a channel 0-255 and 0-1000 per mille: no sign, no overflow). Viper: a frame
    scales a dozen colours, and as bytecode that was a millisecond on the Pico."""
    r = int(colour[0]) * per_mille
    g = int(colour[1]) * per_mille
    b = int(colour[2]) * per_mille
    rq, gq, bq = r // 1000, g // 1000, b // 1000
    r, g, b = (r - rq * 1000) * 2, (g - gq * 1000) * 2, (b - bq * 1000) * 2  # twice the remainder
    if r > 1000 or (r == 1000 and rq & 1):
        rq += 1
    if g > 1000 or (g == 1000 and gq & 1):
        gq += 1
    if b > 1000 or (b == 1000 and bq & 1):
        bq += 1
    return (rq, gq, bq)


class Canvas:
    """One layout's drawing buffers, made once: ``rows``, a palette number per LED of each
    track (its 121 holes, then its game counters; one row per track the layout or the protocol
    can have, then one byte that stays P_OFF for the LEDs under no hole); ``sources``, per
    strip, the index in ``rows`` each LED shows (the layout's map, inverted); the palette's
    colours, its per-LED counts and its strip words."""

    def __init__(self, layout):
        self.layout = layout
        self.counters = len(layout.COUNTERS[0]) if layout.COUNTERS else 0
        self.width = HOLES + self.counters
        size = max(MAX_TRACKS, len(layout.HOLES)) * self.width
        self.rows = bytearray(size + 1)
        self.blank = bytes(size + 1)
        self.sources = [array("H", [size] * length) for length in layout.STRIPS]
        for number in range(len(layout.HOLES)):  # the order place() used to write them in
            base = number * self.width
            self._map(layout.HOLES[number][:HOLES], base)
            if layout.COUNTERS:
                self._map(layout.COUNTERS[number][:self.counters], base + HOLES)
        self.marks = ()
        self.marked = bytearray(HOLES)  # a track's row with only the marks: copied, not rebuilt
        self.palette = [OFF] * PALETTE
        self.rears = [(None, OFF)] * MAX_TRACKS  # each track's (colour, rear peg's colour)
        self.counts = array("I", [0] * PALETTE)
        self.words = array("I", [0] * PALETTE)

    def _map(self, spots, base):
        for n in range(len(spots)):
            spot = spots[n]
            self.sources[spot >> 12][spot & 0xFFF] = base + n


_canvas = None


def canvas(layout):
    """The canvas of ``layout``, made on first use and kept."""
    global _canvas
    if _canvas is None or _canvas.layout is not layout:
        _canvas = Canvas(layout)
    return _canvas


def colours(board, canvas, step, animation=None, flash_steps=None):
    """Each LED's palette number into ``canvas.rows`` and the palette's colours (before
    brightness) into ``canvas.palette``. ``animation`` overrides the board's (the host-lost
    pattern); each track's flash is at its own step in ``flash_steps`` (None: at ``step``, as
    the host's render_board draws it)."""
    rows, width, palette = canvas.rows, canvas.width, canvas.palette
    if canvas.marks != board.marks:
        marked = canvas.marked
        marked[:] = bytes(HOLES)
        for hole in board.marks:
            marked[hole - 1] = P_MARK
        canvas.marks = board.marks
    rows[:] = canvas.blank
    palette[P_MARK], palette[P_FLASH], palette[P_ALERT] = (
        settings.MARK_COLOUR, settings.FLASH_COLOUR, settings.ALERT_COLOUR)
    end = board.game_length - 1
    tracks, rears, marked, counters = board.tracks, canvas.rears, canvas.marked, canvas.counters
    for number in range(len(tracks)):
        track, base, colour = tracks[number], number * width, P_TRACK + 2 * number
        palette[colour] = track.colour
        rear = rears[number]
        if rear[0] is not track.colour:  # scaled once for each colour the host sets
            rear = rears[number] = (track.colour, scale(track.colour, settings.REAR_PERMILLE))
        palette[colour + 1] = rear[1]
        rows[base:base + HOLES] = marked
        if track.rear:
            rows[base + track.rear - 1] = colour + 1
        if track.front:
            rows[base + track.front - 1] = colour
        flash = step if flash_steps is None else flash_steps[number]
        if flash < FLASH_STEPS and not flash & 1:
            _put(rows, base - 1, track.flash, P_FLASH)
        if board.winner == number:
            rows[base + end] = colour
        games = min(track.games, counters)
        if games:
            _fill(rows, base + HOLES, games, colour)
    animation = animation or board.animation
    if animation == "waiting" and step % 4 < 2:
        for number in range(len(tracks)):
            rows[number * width + end] = P_ALERT
    number = board.anim_track
    if number is None:
        return
    track, base = tracks[number], number * width
    if animation == "winner":
        for hole in range(1 + step % 8, board.game_length, 8):
            rows[base + hole - 1] = P_TRACK + 2 * number
    if animation == "alert" and step % 2 == 0:
        for hole in (track.rear, track.front) + track.flash:
            if hole:
                rows[base + hole - 1] = P_ALERT
        for n in range(counters):
            rows[base + HOLES + n] = P_ALERT


@micropython.viper
def _put(rows: ptr8, base: int, holes, value: int):
    """``value`` at ``base`` + each of ``holes`` (a tuple of ints) in ``rows``."""
    for hole in holes:
        rows[base + int(hole)] = value


@micropython.viper
def _fill(rows: ptr8, start: int, count: int, value: int):
    """``value`` at ``count`` places of ``rows`` from ``start``."""
    for i in range(start, start + count):
        rows[i] = value


def power(palette, counts, brightness, cap_ma):
    """Scale each palette colour by ``brightness`` (per mille), then all of them down to the
    cap (the lower of ``cap_ma`` and the firmware's own) if the WS2812 estimate over the LEDs
    (``counts[p]`` of them show colour ``p``) exceeds it. In place; as the host scales each LED,
    since every LED of a colour scales alike."""
    total = _brighten(palette, counts, brightness)
    cap = min(cap_ma, settings.CURRENT_CAP_MA) if cap_ma else settings.CURRENT_CAP_MA
    if total * settings.MA_PER_CHANNEL <= cap * 255:
        return
    _cap(palette, cap * 255, total * settings.MA_PER_CHANNEL)


@micropython.viper
def _brighten(palette, counts: ptr32, brightness: int) -> int:
    """Each colour some LED shows times ``brightness``; the sum of their channels over the LEDs
    (at most 765 an LED: no overflow)."""
    total = 0
    for p in range(int(len(palette))):
        n = counts[p]
        if n:
            c = scale(palette[p], brightness)
            palette[p] = c
            total += n * (int(c[0]) + int(c[1]) + int(c[2]))
    return total


# _cap multiplies a channel (up to 255) by the cap times 255 in a 32-bit viper integer
assert 255 * 255 * settings.CURRENT_CAP_MA < 1 << 31, "CURRENT_CAP_MA too high for _cap's integers"


@micropython.viper
def _cap(palette, num: int, den: int):
    """Each palette colour times ``num / den`` (under 1), rounded down: at or under the cap."""
    for p in range(int(len(palette))):
        c = palette[p]
        palette[p] = (int(c[0]) * num // den, int(c[1]) * num // den, int(c[2]) * num // den)


def place(canvas, strips):
    """Write the frame into ``strips`` (one array('I') per strip, GRB << 8 words for the
    ws2812 PIO program) through the layout; LEDs under no hole stay off."""
    _words(canvas.words, canvas.palette)
    for n in range(len(strips)):
        _place(strips[n], canvas.sources[n], canvas.rows, canvas.words)


@micropython.viper
def _place(strip, sources: ptr16, rows: ptr8, words: ptr32):
    out = ptr32(strip)
    for i in range(int(len(strip))):
        out[i] = words[rows[sources[i]]]


@micropython.viper
def _words(words: ptr32, palette):
    """Each palette colour as a strip word (in Python, a green over 127 makes a long integer
    on the heap)."""
    for p in range(int(len(palette))):
        colour = palette[p]
        words[p] = (int(colour[1]) << 24) | (int(colour[0]) << 16) | (int(colour[2]) << 8)


@micropython.viper
def _count(rows: ptr8, n: int, counts):
    """How many of the first ``n`` LEDs of ``rows`` show each palette colour, into ``counts``."""
    tally = ptr32(counts)
    for p in range(int(len(counts))):
        tally[p] = 0
    for i in range(n):
        p = rows[i]
        tally[p] = tally[p] + 1


def new_strips(layout):
    return [array("I", [0] * length) for length in layout.STRIPS]


def draw(board, layout, strips, step, animation=None, flash_steps=None, stop=None):
    """The whole frame for ``board`` at animation ``step`` (and each track's flash at its
    step in ``flash_steps``, if given) into ``strips``; True once drawn. ``stop``, if given,
    is asked between the parts: when it says so, the frame is left half drawn (False)."""
    paper = canvas(layout)
    colours(board, paper, step, animation, flash_steps)
    if stop is not None and stop():
        return False
    counts = paper.counts
    # the board's tracks only, as the host counts them; the palette entries of absent tracks
    # are then unused
    _count(paper.rows, len(board.tracks) * paper.width, counts)
    power(paper.palette, counts, board.brightness, board.cap_ma)
    if stop is not None and stop():
        return False
    place(paper, strips)
    return True


def rgb(word):
    """A strip word back to ``(r, g, b)`` (tests and the frame read-back)."""
    return ((word >> 16) & 0xFF, (word >> 24) & 0xFF, (word >> 8) & 0xFF)
