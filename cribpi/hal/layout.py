"""Layout files: where each hole's LED sits on the strips, so any board needs no code change.

A layout is TOML. ``tracks`` (2-4) and ``game_counters`` (LEDs per track showing games won,
0-10) head it; then each ``[[run]]`` is a stretch of one strip, listed in wiring order::

    tracks = 2
    game_counters = 5

    [[run]]
    strip = 0      # which strip (controller output)
    start = 0      # index of the run's first LED; default: right after the strip's last run
    leds = ["1:1-30", "2:30-1", "skip 2", "games 1:1-5"]

Each ``leds`` item takes the next LEDs of the strip in order:

* ``"T:A-B"`` holes A to B of track T (``"2:30-1"`` counts down: a serpentine row wired back);
* ``"T:H"`` one hole (``"1:121"``, the game hole);
* ``"games T:A-B"`` / ``"games T:N"`` game-counter LEDs of track T;
* ``"skip N"`` N LEDs under no hole (a fold, a corner).

Loading checks every hole 1-121 of every track and every game counter is mapped exactly once,
that no LED is used twice and that no strip is longer than the controller drives
(:data:`MAX_STRIP_LEDS`); each error is a :class:`~cribpi.exc.ConfigError` naming the
file, the entry, the value and what would be accepted.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cribpi.exc import ConfigError
from cribpi.inputs import escaped, read_user_text, shown, unprintable
from cribpi.nesting import TooDeep, loads_toml
from cribpi.views.board import HOLES, RGB
from cribpi.views.leds import LedFrame

__all__ = ["Layout", "load_layout", "parse_layout", "ENTRY_FORMS", "MAX_STRIP_LEDS"]

Led = tuple[int, int]  # (strip, index)
Spot = tuple[str, int, int]  # ("hole" | "games", track, number)
ENTRY_FORMS = '"T:A-B", "T:H", "games T:A-B", "games T:N", "skip N"'
# [0-9], not \d: \d also matches "١" and "１", which int() then takes (see cribpi.inputs.parse_int)
_ENTRY = re.compile(r"(?:(?P<games>games)\s+)?(?P<track>[0-9]{1,4}):(?P<a>[0-9]{1,4})(?:-(?P<b>[0-9]{1,4}))?")
#: The most LEDs a strip may have: what the controller's firmware drives (its ``MAX_LEDS``,
#: firmware/settings.py; tests/hal/test_strip_limit.py holds the two equal).
MAX_STRIP_LEDS: Final = 512
_SKIP = re.compile(r"skip\s+(?P<n>[0-9]{1,40})")


@dataclass(frozen=True)
class Layout:
    """``holes[(track, hole)]`` and ``counters[(track, n)]`` give ``(strip, index)``; tracks
    and counters count from 1 as written in the file."""

    source: str
    tracks: int
    game_counters: int
    holes: Mapping[tuple[int, int], Led]
    counters: Mapping[tuple[int, int], Led]
    strip_lengths: Mapping[int, int]

    def place(self, frame: LedFrame) -> dict[int, list[RGB]]:
        """Per strip, the colour of every LED (unmapped LEDs off)."""
        strips = {strip: [(0, 0, 0)] * length for strip, length in self.strip_lengths.items()}
        for (track, hole), (strip, index) in self.holes.items():
            if track <= len(frame.tracks):
                strips[strip][index] = frame.tracks[track - 1][hole - 1]
        for (track, n), (strip, index) in self.counters.items():
            if track <= len(frame.games) and n <= len(frame.games[track - 1]):
                strips[strip][index] = frame.games[track - 1][n - 1]
        return strips


class _Builder:
    def __init__(self, source: str, tracks: int, game_counters: int) -> None:
        self.source = source
        self.tracks = tracks
        self.game_counters = game_counters
        self.spots: dict[Spot, tuple[Led, str]] = {}
        self.leds: dict[Led, str] = {}
        self.next_index: dict[int, int] = {}

    def fail(self, key: str, value: Any, accepted: str) -> ConfigError:
        return ConfigError(f"{escaped(self.source)}: {escaped(key)} = {shown(value)} is not valid: {accepted}")

    def run(self, number: int, run: Any) -> None:
        key = f"run[{number}]"
        if not isinstance(run, dict) or set(run) - {"strip", "start", "leds"}:
            raise self.fail(key, run, "a table with strip, start (optional) and leds")
        strip = self._int(run.get("strip", 0), f"{key}.strip", 0, 15)
        index = self._int(run.get("start", self.next_index.get(strip, 0)), f"{key}.start", 0, MAX_STRIP_LEDS - 1)
        leds = run.get("leds")
        if not isinstance(leds, list) or not leds:
            raise self.fail(f"{key}.leds", leds, f"a non-empty list of entries: {ENTRY_FORMS}")
        for n, entry in enumerate(leds):
            index = self.entry(f"{key}.leds[{n}]", entry, strip, index)
        self.next_index[strip] = index

    def _int(self, value: Any, key: str, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.fail(key, value, f"an integer {low}-{high}")
        return value

    def entry(self, key: str, entry: Any, strip: int, index: int) -> int:
        text = entry.strip().lower() if isinstance(entry, str) else ""
        skip = _SKIP.fullmatch(text)
        if skip:
            self._within(key, entry, strip, index + int(skip["n"]))
            return index + int(skip["n"])
        match = _ENTRY.fullmatch(text)
        if match is None:
            raise self.fail(key, entry, f"one of {ENTRY_FORMS}")
        kind = "games" if match["games"] else "hole"
        numbers = self._numbers(key, entry, match, kind)
        self._within(key, entry, strip, index + len(numbers))
        for number in numbers:
            self.place(key, (kind, int(match["track"]), number), (strip, index))
            index += 1
        return index

    def _within(self, key: str, entry: Any, strip: int, length: int) -> None:
        """Refuse an entry that makes ``strip`` ``length`` LEDs long, past what the controller drives."""
        if length > MAX_STRIP_LEDS:
            raise self.fail(key, entry, f"it makes strip {strip} {length} LEDs long; the controller drives "
                                        f"at most {MAX_STRIP_LEDS} LEDs a strip")

    def _numbers(self, key: str, entry: str, match: re.Match[str], kind: str) -> range:
        track, a = int(match["track"]), int(match["a"])
        b = int(match["b"]) if match["b"] else a
        top = HOLES if kind == "hole" else self.game_counters
        if not 1 <= track <= self.tracks:
            raise self.fail(key, entry, f"track {track} does not exist: tracks are 1-{self.tracks}")
        if not (1 <= a <= top and 1 <= b <= top):
            what = "holes" if kind == "hole" else "game counters"
            raise self.fail(key, entry, f"{what} are 1-{top}" if top else "game_counters is 0")
        return range(a, b + 1) if a <= b else range(a, b - 1, -1)

    def place(self, key: str, spot: Spot, led: Led) -> None:
        kind, track, number = spot
        if spot in self.spots:
            raise self.fail(key, f"{kind} {track}:{number}", f"already mapped by {self.spots[spot][1]}")
        if led in self.leds:
            raise self.fail(key, f"strip {led[0]} index {led[1]}", f"LED already used by {self.leds[led]}")
        self.spots[spot] = (led, key)
        self.leds[led] = key

    def check_complete(self) -> None:
        for track in range(1, self.tracks + 1):
            for kind, top in (("hole", HOLES), ("games", self.game_counters)):
                missing = [n for n in range(1, top + 1) if (kind, track, n) not in self.spots]
                if missing:
                    raise self.fail(
                        f"track {track}", f"{kind} {_ranges(missing)} unmapped",
                        f"every {kind} 1-{top} of every track mapped exactly once",
                    )

    def build(self) -> Layout:
        self.check_complete()
        lengths: dict[int, int] = {}
        for strip, index in self.leds:
            lengths[strip] = max(lengths.get(strip, 0), index + 1)
        holes = {(t, n): led for (k, t, n), (led, _) in self.spots.items() if k == "hole"}
        counters = {(t, n): led for (k, t, n), (led, _) in self.spots.items() if k == "games"}
        return Layout(self.source, self.tracks, self.game_counters, holes, counters, dict(sorted(lengths.items())))


def _ranges(numbers: list[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``"1-3, 7"``."""
    parts, start = [], numbers[0]
    for prev, n in zip(numbers, [*numbers[1:], None]):
        if n != prev + 1:
            parts.append(f"{start}-{prev}" if start != prev else str(start))
            start = n if n is not None else start
    return ", ".join(parts)


def parse_layout(data: Mapping[str, Any], source: str = "<layout>") -> Layout:
    """Expand and check a layout already read from TOML."""
    probe = _Builder(source, 0, 0)
    unknown = set(data) - {"tracks", "game_counters", "run", "name", "description"}
    if unknown:
        key = sorted(unknown)[0]
        raise probe.fail(key, data[key], "unknown key; accepted: tracks, game_counters, run, name, description")
    for key in ("name", "description"):
        if key in data and (not isinstance(data[key], str) or unprintable(data[key]) is not None):
            raise probe.fail(key, data[key], "printable text, on one line")
    tracks = probe._int(data.get("tracks"), "tracks", 2, 4)
    counters = probe._int(data.get("game_counters", 0), "game_counters", 0, 10)
    builder = _Builder(source, tracks, counters)
    runs = data.get("run")
    if not isinstance(runs, list) or not runs:
        raise builder.fail("run", runs, "one or more [[run]] tables")
    for number, run in enumerate(runs):
        builder.run(number, run)
    return builder.build()


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """A TOML file as a table; any failure is one ConfigError naming the file and ``what`` it is.
    Only a regular file of a sane size is read (:mod:`cribpi.inputs`), and only one nested at
    most :data:`~cribpi.nesting.MAX_DEPTH` deep is parsed (:mod:`cribpi.nesting`)."""
    text = read_user_text(path, what)
    try:
        return loads_toml(text)
    except TooDeep as exc:
        raise ConfigError(f"{escaped(path)}: {exc} in a {what}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{escaped(path)}: not valid TOML: {exc}") from None
    except ValueError as exc:  # a number of thousands of digits
        raise ConfigError(f"{escaped(path)}: not valid TOML: {str(exc)[:50]}; a {what} holds short numbers") from None


def load_layout(path: str | Path) -> Layout:
    path = Path(path)
    return parse_layout(read_toml(path, "layout file"), str(path))
