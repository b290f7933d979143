"""The board drawn in pixels, as cribpi.views.leds.render_board draws it on the host (a test
keeps the two equal on the same layout): marks, pegs, flashing holes, the winner's hole,
animations, game counters; then the brightness and the current cap, in integers.
"""

from array import array

import settings
from protocol import FLASH_STEPS

OFF = (0, 0, 0)


def _round(value, per_mille):
    """``round(value * per_mille / 1000)``, halves to even as Python's round does."""
    q, r = divmod(value * per_mille, 1000)
    return q + 1 if r * 2 > 1000 or (r * 2 == 1000 and q & 1) else q


def scale(colour, per_mille):
    return (_round(colour[0], per_mille), _round(colour[1], per_mille), _round(colour[2], per_mille))


def _holes(board, number, step):
    """``step``: this track's flash step."""
    track = board.tracks[number]
    holes = [OFF] * 121
    for hole in board.marks:
        holes[hole - 1] = settings.MARK_COLOUR
    if track.rear:
        holes[track.rear - 1] = scale(track.colour, settings.REAR_PERMILLE)
    if track.front:
        holes[track.front - 1] = track.colour
    if step < FLASH_STEPS and step % 2 == 0:
        for hole in track.flash:
            holes[hole - 1] = settings.FLASH_COLOUR
    if board.winner == number:
        holes[board.game_length - 1] = track.colour
    return holes


def _animate(board, animation, tracks, games, step):
    if animation == "waiting" and step % 4 < 2:
        for holes in tracks:
            holes[board.game_length - 1] = settings.ALERT_COLOUR
    number = board.anim_track
    if number is None:
        return
    track = board.tracks[number]
    if animation == "winner":
        for hole in range(1 + step % 8, board.game_length, 8):
            tracks[number][hole - 1] = track.colour
    if animation == "alert" and step % 2 == 0:
        for hole in (track.rear, track.front) + track.flash:
            if hole:
                tracks[number][hole - 1] = settings.ALERT_COLOUR
        games[number] = [settings.ALERT_COLOUR] * len(games[number])


def colours(board, counters, step, animation=None, flash_steps=None):
    """Per track, the colour of each hole (121) and of each of its ``counters`` game LEDs,
    before brightness. ``animation`` overrides the board's (the host-lost pattern); each
    track's flash is at its own step in ``flash_steps`` (None: at ``step``, as the host's
    render_board draws it)."""
    if flash_steps is None:
        flash_steps = [step] * len(board.tracks)
    tracks = [_holes(board, n, flash_steps[n]) for n in range(len(board.tracks))]
    games = []
    for track in board.tracks:
        lit = min(track.games, counters)
        games.append([track.colour] * lit + [OFF] * (counters - lit))
    _animate(board, animation or board.animation, tracks, games, step)
    return tracks, games


def power(tracks, games, brightness, cap_ma):
    """Scale every colour by ``brightness`` (per mille), then down to the cap (the lower of
    ``cap_ma`` and the firmware's own) if the WS2812 estimate exceeds it. In place."""
    rows = tracks + games
    total = 0
    for row in rows:
        for i in range(len(row)):
            c = row[i]
            if c != OFF:
                c = row[i] = scale(c, brightness)
                total += c[0] + c[1] + c[2]
    cap = min(cap_ma, settings.CURRENT_CAP_MA) if cap_ma else settings.CURRENT_CAP_MA
    if total * settings.MA_PER_CHANNEL <= cap * 255:
        return
    num, den = cap * 255, total * settings.MA_PER_CHANNEL  # floor: stay at or under the cap
    for row in rows:
        for i in range(len(row)):
            c = row[i]
            row[i] = (c[0] * num // den, c[1] * num // den, c[2] * num // den)


def place(layout, tracks, games, strips):
    """Write the colours into ``strips`` (one array('I') per strip, GRB << 8 words for the
    ws2812 PIO program) through the layout; LEDs under no hole stay off."""
    for buf in strips:
        for i in range(len(buf)):
            buf[i] = 0
    for number in range(min(len(tracks), len(layout.HOLES))):
        _put(strips, layout.HOLES[number], tracks[number])
        _put(strips, layout.COUNTERS[number], games[number])


def _put(strips, spots, row):
    for n in range(min(len(spots), len(row))):
        spot, c = spots[n], row[n]
        strips[spot >> 12][spot & 0xFFF] = (c[1] << 24) | (c[0] << 16) | (c[2] << 8)


def new_strips(layout):
    return [array("I", [0] * length) for length in layout.STRIPS]


def draw(board, layout, strips, step, animation=None, flash_steps=None):
    """The whole frame for ``board`` at animation ``step`` (and each track's flash at its
    step in ``flash_steps``, if given) into ``strips``."""
    counters = len(layout.COUNTERS[0]) if layout.COUNTERS else 0
    tracks, games = colours(board, counters, step, animation, flash_steps)
    power(tracks, games, board.brightness, board.cap_ma)
    place(layout, tracks, games, strips)


def rgb(word):
    """A strip word back to ``(r, g, b)`` (tests and the frame read-back)."""
    return ((word >> 16) & 0xFF, (word >> 24) & 0xFF, (word >> 8) & 0xFF)
