"""The controller link's figures (issue 12's targets):

* bytes on the wire for one peg move (target: at most 24), over the boards of random games;
* command -> ACK round trip through a pty with the real firmware under the MicroPython unix
  port (target: p99 at most 20 ms);
* a full resync of a four-track board, sent at once and every ACK back (target: at most
  200 ms), and the controller backend's whole reconnect (HELLO + full state);
* the firmware's frame drawing (draw.py: 4 tracks x 121 holes, brightness and the cap) in
  Python under the unix port, and under CPython for comparison.

    python benchmarks/bench_controller.py [--round-trips N] [--games N]
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' firmware rig

import serial  # noqa: E402

from cribpi.game import Mode, apply  # noqa: E402
from cribpi.game.simulate import random_game_events  # noqa: E402
from cribpi.hal.controller import LinkTiming, open_controller  # noqa: E402
from cribpi.hal.controller.flash import layout_module  # noqa: E402
from cribpi.hal.layout import load_layout  # noqa: E402
from cribpi.hal.protocol import board_commands, changed_commands, frame, parse_line  # noqa: E402
from cribpi.rules import ACC  # noqa: E402
from cribpi.views.board import Animation, BoardModel, TrackModel, mark_holes  # noqa: E402
from cribpi.views.table import board_model, flash_from  # noqa: E402
from tests.firmware import rig  # noqa: E402

FOUR = load_layout(rig.ROOT / "hardware" / "layouts" / "four-track-serpentine.toml")
BOARD = BoardModel((TrackModel(121, 115, (255, 0, 0), 3), TrackModel(90, 77, (0, 64, 255), 1),
                    TrackModel(61, 60, (0, 255, 0)), TrackModel(5, 3, (255, 160, 0), 9)),
                   brightness=0.5, marks=mark_holes(121), flash=((116, 117, 118, 119, 120, 121),),
                   animation=Animation.WINNER, anim_track=0, winner_track=0)


def peg_move_bytes(games: int) -> list[int]:
    """Per track whose pegs moved: the bytes sent to take the board at rest to the board
    with the move (its flash included), sequence numbers 0-255 in turn."""
    sizes, seq = [], 0
    for number in range(games):
        before = None
        for event, state in random_game_events(random.Random(number), ACC, Mode.COUNT):
            if before is not None:
                _, effects = apply(before, event)
                old, new = board_commands(board_model(before), 2000), board_commands(board_model(state, flash_from(state, effects)), 2000)
                moved = [key for key in new if key.startswith("T") and old.get(key) != new[key]]
                if old["Z"] == new["Z"] and moved:
                    for key in moved:
                        seq = (seq + 1) & 0xFF
                        sizes.append(sum(len(frame(seq, body)) for body in new[key]))
            before = state
    return sizes


def firmware_pico(tmp: Path) -> rig.Pico:
    return rig.Pico(tmp, firmware=rig.firmware_copy(tmp / "fw", layout_module(FOUR)))


def round_trips(count: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        pico = firmware_pico(Path(tmp))
        try:
            port = serial.serial_for_url(pico.port, timeout=1, exclusive=True)
            times = []
            bodies = ["HELLO 2.0", *changed_commands(None, board_commands(BOARD, 2000))]
            for seq, body in enumerate(bodies, start=1):
                port.write(frame(seq, body))
                port.readline()
            for n in range(count):
                seq = (len(bodies) + 1 + n) & 0xFF
                line = frame(seq, f"T {n % 4} {n % 121 + 1} {n % 121} 1")
                start = time.perf_counter()
                port.write(line)
                reply = parse_line(port.readline().rstrip(b"\n"))
                times.append((time.perf_counter() - start) * 1000)
                assert reply.verb == "ACK" and reply.seq == seq, reply
            port.close()
            return times
        finally:
            pico.close()


def resyncs(count: int) -> tuple[list[float], int, int]:
    """A full state sent at once, until the last ACK."""
    with tempfile.TemporaryDirectory() as tmp:
        pico = firmware_pico(Path(tmp))
        try:
            port = serial.serial_for_url(pico.port, timeout=1, exclusive=True)
            port.write(frame(1, "HELLO 2.0"))
            port.readline()
            seq, times = 1, []
            bodies = changed_commands(None, board_commands(BOARD, 2000))
            for _ in range(count):
                start = time.perf_counter()
                lines = []
                for body in bodies:
                    seq = (seq + 1) & 0xFF
                    lines.append(frame(seq, body))
                port.write(b"".join(lines))
                replies = [parse_line(port.readline().rstrip(b"\n")) for _ in lines]
                times.append((time.perf_counter() - start) * 1000)
                assert all(r.verb == "ACK" for r in replies), replies
            port.close()
            return times, len(bodies), sum(map(len, lines))
        finally:
            pico.close()


def reconnects(count: int) -> list[float]:
    """The backend's reconnect: replug -> HELLO -> full state ACKed."""
    with tempfile.TemporaryDirectory() as tmp:
        pico = firmware_pico(Path(tmp))
        part = open_controller(pico.port, timing=LinkTiming(backoff_s=0.01, backoff_max_s=0.02))
        try:
            part.show(BOARD)
            times = []
            for _ in range(count):
                pico.wait_for(lambda: part.link.shown is BOARD, what="the board")
                pico.unplug()
                pico.wait_for(lambda: part.problem is not None, what="the loss")
                start = time.perf_counter()
                pico.plug()
                pico.wait_for(lambda: part.link.shown is BOARD, timeout=10, what="the resync")
                times.append((time.perf_counter() - start) * 1000)
            return times
        finally:
            part.close()
            pico.close()


DRAW = """
import time, layout
from board import Board
from draw import draw, new_strips
b = Board(4)
for words in {commands!r}:
    b.apply(words.split(" "))
strips = new_strips(layout)
times = []
for step in range({runs}):
    t = time.ticks_us() if hasattr(time, "ticks_us") else int(time.perf_counter() * 1e6)
    draw(b, layout, strips, step)
    times.append((time.ticks_us() if hasattr(time, "ticks_us") else int(time.perf_counter() * 1e6)) - t)
print(" ".join(str(t) for t in times))
"""


def draw_times(python: str, runs: int) -> list[float]:
    commands = changed_commands(None, board_commands(BOARD, 2000))
    with tempfile.TemporaryDirectory() as tmp:
        folder = rig.firmware_copy(Path(tmp) / "fw", layout_module(FOUR))
        script = DRAW.format(commands=commands, runs=runs)
        if python == "micropython":
            command = [rig.micropython(), "-c", script]
            env = {"MICROPYPATH": rig.mpy_path(folder, rig.STUBS)}
        else:
            command, env = [sys.executable, "-c", script], {"PYTHONPATH": f"{folder}:{rig.STUBS}"}
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=True)
    return [int(t) / 1000 for t in done.stdout.split()]


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--round-trips", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    logging.getLogger("cribpi").setLevel(logging.ERROR)  # each unplug is logged: not a figure

    sizes = peg_move_bytes(args.games)
    print(f"peg move: {len(sizes)} moves over {args.games} games: mean {statistics.mean(sizes):.1f} bytes, "
          f"max {max(sizes)} bytes (target <= 24)")
    times = round_trips(args.round_trips)
    print(f"command -> ACK through the pty, firmware under MicroPython: {len(times)} round trips: "
          f"p50 {p(times, 50):.2f} ms, p99 {p(times, 99):.2f} ms, max {max(times):.2f} ms (target p99 <= 20 ms)")
    times, lines, size = resyncs(50)
    print(f"full resync of a 4-track board ({lines} lines, {size} bytes) sent at once: "
          f"median {statistics.median(times):.2f} ms, max {max(times):.2f} ms (target <= 200 ms)")
    times = reconnects(10)
    print(f"backend reconnect (plug -> HELLO -> full state ACKed): median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms")
    for python in ("micropython", "cpython"):
        times = draw_times(python, 40)
        print(f"frame draw, 4 x 121 holes + counters, {python}: median {statistics.median(times):.2f} ms, "
              f"max {max(times):.2f} ms")


if __name__ == "__main__":
    main()
