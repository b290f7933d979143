"""Speed of the firmware on the target: the real MicroPython rp2 port (v1.28.0, RPI_PICO) on an
emulated RP2040 (tests/firmware/pico), all figures in emulated time at the chip's clock.

    python benchmarks/bench_pico.py [--pegs N] [--layout four-track-serpentine]

- boot to HELLO: power-up to the HELLO reply (the host's HELLO waits in the USB buffer from
  the moment the device enumerates);
- a peg command's last byte to its ACK (and a PING's, for the link's own share);
- a peg command to the last bit of the frame on the data pins, for a busy frame (every track
  pegged, the marks on, a ten-hole flash on the track that moves), split into drawing in
  MicroPython (the command to the frame's first bit) and the wire (first bit to last; a
  WS2812 takes 30 µs an LED). Target: at most 20 ms on four tracks;
- the key matrix's scan period: the time between two scans (a row driven low, seen on the
  pins), idle and while the firmware answers a peg, the whole-board resync a host sends after
  a reconnect, and 20- and 60-line batches written at once. Target: at most 6 ms;
- gc.mem_free() after boot and after a busy frame. The protocol has no way to ask, so this
  benchmark (only) runs the firmware's main under a small wrapper that answers through the
  watchdog's scratch registers 0-2, which the SDK leaves to the program: the harness sets
  scratch 1, the wrapper writes gc.mem_free() as it stands to scratch 2, collects, writes it
  again to scratch 0 and clears scratch 1. It looks every 20 ms and costs the loop nothing else.
  The wrapper also times the parts of a redraw (colours(), power(), place() and the words into
  the state machines) into an array whose address it leaves in scratch 3; the harness reads it
  from the emulated memory, so the drawing figure splits further.

A real Pico is somewhat slower than these figures: the harness answers the ROM's functions
(memcpy, memset, soft float, flash) in zero cycles, and rp2040js models no flash wait states
or XIP cache misses. tests/firmware/pico/test_pico_speed.py holds the 20 ms target with
show_busy_board() and peg() below.

Needs what the pico tests need (README: the emulated Pico).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribpi.hal.controller.flash import layout_module  # noqa: E402
from cribpi.hal.layout import load_layout  # noqa: E402
from cribpi.hal.protocol import board_commands, changed_commands, frame, parse_line  # noqa: E402
from cribpi.views.board import BoardModel, TrackModel, mark_holes  # noqa: E402
from cribpi.views.leds import LedSettings, render_board  # noqa: E402
from tests.firmware import rig  # noqa: E402
from tests.firmware.pico import emulated  # noqa: E402

TARGET_MS = 20.0
SCAN_TARGET_MS = 6.0  # at most between two scans of the key matrix, whatever the host sends
SCAN_LEAD_US = 20_000  # scans looked at before a batch's write
CAP_MA = 4000
COLOURS = ((255, 0, 0), (0, 64, 255), (0, 255, 0), (255, 160, 0))
PROBE = '''"""The benchmark's wrapper: the firmware's main (firmware_main.py), a probe of the heap, and
the time of each part of a redraw."""
import asyncio
import gc
import machine
import micropython
import time
import uctypes
from array import array

import draw
import firmware_main
import leds

SCRATCH = 0x4005800C  # WATCHDOG_BASE + SCRATCH0
#: The last 16 drawn redraws, five words each: the redraw's start (ticks_us), then the
#: microseconds of colours(), power(), place() and Strips.write() (the strips' DMA channels
#: started); the last word counts the redraws that drew.
PHASES = array("I", [0] * 81)
machine.mem32[SCRATCH + 12] = uctypes.addressof(PHASES)
started = 0


def timed(function, slot):
    def run(*args):
        start = time.ticks_us()
        result = function(*args)
        at = (PHASES[80] % 16) * 5
        if slot == 1:
            PHASES[at] = started
        PHASES[at + slot] = time.ticks_diff(time.ticks_us(), start)
        if slot == 4:
            PHASES[80] += 1
        return result
    return run


draw.colours = timed(draw.colours, 1)  # draw() finds them in its module when it runs
draw.power = timed(draw.power, 2)
draw.place = timed(draw.place, 3)
leds.Strips.write = timed(leds.Strips.write, 4)
_redraw = firmware_main.Firmware.redraw


def redraw(self, *args, **kwargs):
    global started
    started = time.ticks_us() & 0x3FFFFFFF
    _redraw(self, *args, **kwargs)


firmware_main.Firmware.redraw = redraw


async def probe():
    while True:
        if machine.mem32[SCRATCH + 4]:
            machine.mem32[SCRATCH + 8] = gc.mem_free()
            gc.collect()
            machine.mem32[SCRATCH] = gc.mem_free()
            machine.mem32[SCRATCH + 4] = 0
        await asyncio.sleep_ms(20)


async def run():
    await asyncio.gather(firmware_main.run(), probe())


micropython.kbd_intr(-1)
asyncio.run(run())
'''


class Host:
    """Our own end of the line, timed in emulated microseconds."""

    def __init__(self, pico: emulated.EmulatedPico) -> None:
        self.pico = pico
        self.seq = 0
        self.seen = 0  # chunks of serial_times read

    def send(self, body: str) -> tuple[int, float]:
        self.seq = self.seq % 255 + 1
        sent = self.pico.request("serial", data=__import__("base64").b64encode(frame(self.seq, body)).decode())
        return self.seq, float(sent["us"])

    def batch(self, bodies: list[str]) -> bytes:
        """``bodies`` as numbered lines, one after another, to be written at once."""
        data = b""
        for body in bodies:
            self.seq = self.seq % 255 + 1
            data += frame(self.seq, body)
        return data

    def reply(self, seq: int, verb: str) -> float:
        """The emulated time of the reply to ``seq`` (its chunk's arrival)."""
        buffer = b""

        def found() -> float | None:
            nonlocal buffer
            while self.seen < len(self.pico.serial_times):
                us, data = self.pico.serial_times[self.seen]
                self.seen += 1
                buffer += data
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    try:
                        parsed = parse_line(line)
                    except Exception:
                        continue
                    if parsed.seq == seq and parsed.verb == verb:
                        return us
                    if parsed.seq == seq and parsed.verb == "ERR":
                        raise SystemExit(f"the firmware refused {seq:02X}: {line!r}")
            return None

        return self.pico.wait_for(found, what=f"{verb} {seq:02X}", poll=0.005)

    def command(self, body: str) -> tuple[float, float]:
        seq, sent = self.send(body)
        return sent, self.reply(seq, "HELLO" if body.startswith("HELLO") else "ACK")

    def phases(self, since_us: float) -> list[int] | None:
        """The first redraw that began after ``since_us``, from the probe's ring: [its start
        (µs since power-up), colours, power, place, write (µs each)]."""
        address = self.pico.request("scratch", index=3)["value"]
        data = bytes.fromhex(self.pico.request("peek", address=address, length=81 * 4)["data"])
        words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, 81 * 4, 4)]
        ring = sorted((words[k * 5:k * 5 + 5] for k in range(min(16, words[80]))), key=lambda e: e[0])
        return next((entry for entry in ring if entry[0] >= since_us), None)

    def mem_free(self) -> tuple[int, int]:
        """(gc.mem_free() as it stood, after gc.collect())."""
        self.pico.request("scratch", index=1, value=1)
        self.pico.wait_for(lambda: self.pico.request("scratch", index=1)["value"] == 0, what="the heap probe")
        return self.pico.request("scratch", index=2)["value"], self.pico.request("scratch", index=0)["value"]


def board_at(front: int, tracks: int) -> BoardModel:
    fronts = (front, 88, 61, 40)[:tracks]
    return BoardModel(tuple(TrackModel(f, f - 10, COLOURS[n], n) for n, f in enumerate(fronts)), brightness=1.0,
                      marks=mark_holes(121), flash=(tuple(range(front - 9, front + 1)),))


def show_busy_board(host: Host, layout) -> dict:
    """The busy board (every track pegged, the marks, a ten-hole flash) sent and ACKed, and its
    flash over (nothing being drawn); returns its state for :func:`peg`."""
    state = board_commands(board_at(30, layout.tracks), CAP_MA)
    for body in changed_commands(None, state):
        host.command(body)
    host.pico.sleep(1500)  # the board's flash has run its steps: nothing is being drawn
    return state


def peg(host: Host, layout, state: dict, n: int) -> dict:
    """The ``n``th peg command of the run (the front peg moves on: one ``T`` command, a new
    ten-hole flash), timed in emulated µs from its last byte going in: ``sent``, ``acked``, and
    the first redraw after it that shows the new board on every strip, side by side:
    ``first`` (its first bit) and ``last`` (the last bit on any strip), ``leds``, ``longest``
    (the longest strip's LEDs), ``state`` (the new board's, for the next peg)."""
    pico = host.pico
    settings = LedSettings(current_cap_ma=CAP_MA, game_counter_leds=layout.game_counters)
    new = board_at(40 + 10 * (n % 8), layout.tracks)  # the front peg goes round 40-110
    new_state = board_commands(new, CAP_MA)
    bodies = changed_commands(state, new_state)
    assert len(bodies) == 1 and bodies[0].startswith("T "), bodies
    wanted = [layout.place(render_board(new, settings, step)) for step in range(8)]
    sent, acked = host.command(bodies[0])

    def peg_frames() -> list[dict] | None:
        """The frames of the first redraw after the command that shows the new board on
        every strip (one frame a strip, the strips side by side)."""
        strips = len(wanted[0])
        history = [pico.request("history", pin=pico.led_pins[k], since_us=sent)["frames"] for k in range(strips)]
        for first in history[0]:
            group = [first]
            for k in range(1, strips):
                later = [f for f in history[k] if f["start_us"] >= group[-1]["start_us"]]
                if not later:
                    return None
                group.append(later[0])
            shown = [[tuple(p) for p in f["pixels"]] for f in group]
            if any(shown == [w[k] for k in range(strips)] for w in wanted):
                return group
        return None

    got = pico.wait_for(peg_frames, what="the peg's frame on every data pin")
    return {"sent": sent, "acked": acked, "first": min(f["start_us"] for f in got),
            "last": max(f["end_us"] for f in got), "leds": sum(len(f["pixels"]) for f in got),
            "longest": max(len(f["pixels"]) for f in got), "state": new_state}


def resync_commands(layout) -> list[str]:
    """What the host sends after a reconnect: the whole busy board, ``Z`` first."""
    return changed_commands(None, board_commands(board_at(30, layout.tracks), CAP_MA))


def peg_commands(count: int) -> list[str]:
    """``count`` peg commands in a row, the front peg of track 0 moving on with a flash each."""
    return [f"T 0 {20 + n % 90} {10 + n % 90} 3" for n in range(count)]


def scan_gaps(host: Host, bodies: list[str]) -> tuple[list[float], float]:
    """``bodies`` written at once, as a host writes a batch: the times (µs) between the
    firmware's scans of the key matrix from the write to 40 ms after the last reply (the frame
    drawn after it included), and the time the batch took to be answered."""
    pico = host.pico
    data = host.batch(bodies)
    sent = float(pico.request("serial", data=__import__("base64").b64encode(data).decode())["us"])
    done = host.reply(host.seq, "ACK")
    pico.sleep(60)
    times = [t for t in pico.scans(sent - SCAN_LEAD_US) if t <= done + 40_000]
    return [b - a for a, b in zip(times, times[1:])], done - sent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pegs", type=int, default=16, help="peg commands timed (default 16)")
    parser.add_argument("--layout", default="four-track-serpentine")
    args = parser.parse_args(argv)
    why = emulated.missing()
    if why:
        print(f"bench_pico: {why}", file=sys.stderr)
        return 2
    layout = load_layout(rig.ROOT / "hardware" / "layouts" / f"{args.layout}.toml")
    tracks = layout.tracks
    settings = LedSettings(current_cap_ma=CAP_MA, game_counter_leds=layout.game_counters)
    with tempfile.TemporaryDirectory(prefix="cribpi-bench-pico-") as folder:
        tmp = Path(folder)
        fw = rig.firmware_copy(tmp / "fw", layout_module(layout))
        (fw / "main.py").rename(fw / "firmware_main.py")
        (fw / "main.py").write_text(PROBE)
        started = time.monotonic()
        pico = emulated.EmulatedPico(tmp, fw)
        try:
            host = Host(pico)
            pico.wait_for(lambda: pico.state()["usb"], what="the USB enumeration")
            from cribpi.hal.protocol import PROTOCOL

            _, hello_us = host.command(f"HELLO {PROTOCOL}")
            clk = pico.state()["clk_sys"]
            boot_free = host.mem_free()
            board = board_at(30, tracks)
            state = show_busy_board(host, layout)
            pings = []
            for _ in range(5):
                sent, acked = host.command("PING")
                pings.append(acked - sent)
                pico.sleep(37)
            acks, totals, draws, wires = [], [], [], []
            parts: dict[str, list[float]] = {name: [] for name in ("wait", "colours", "power", "place", "write")}
            leds = longest = 0
            for n in range(args.pegs):
                timed = peg(host, layout, state, n)
                sent, first, last = timed["sent"], timed["first"], timed["last"]
                acks.append(timed["acked"] - sent)
                leds, longest = timed["leds"], timed["longest"]
                totals.append(last - sent)
                draws.append(first - sent)
                wires.append(last - first)
                phases = host.phases(sent)
                if phases is not None:
                    parts["wait"].append(phases[0] - sent)
                    for name, value in zip(("colours", "power", "place", "write"), phases[1:]):
                        parts[name].append(float(value))
                state = timed["state"]
                pico.sleep(250)
            busy_free = host.mem_free()
            pico.sleep(300)
            idle_from = pico.now_ms() * 1000
            pico.sleep(500)
            idle_scans = pico.scans(idle_from)
            idle = [b - a for a, b in zip(idle_scans, idle_scans[1:])]
            batches = {"idle": (idle, 0.0)}
            for name, bodies in (("a peg (one T)", peg_commands(1)), ("the resync", resync_commands(layout)),
                                 ("20 lines", peg_commands(20)), ("60 lines", peg_commands(60))):
                pico.sleep(300)
                batches[f"{name} ({len(bodies)} lines)" if name == "the resync" else name] = scan_gaps(host, bodies)
        finally:
            pico.close()
    wall = time.monotonic() - started

    def ms(values: list[float]) -> str:
        p90 = sorted(values)[min(len(values) - 1, int(0.9 * len(values)))]
        return (f"median {statistics.median(values) / 1000:.2f} ms, p90 {p90 / 1000:.2f} ms, "
                f"max {max(values) / 1000:.2f} ms")

    strips = len(layout.place(render_board(board, settings, 0)))
    print(f"emulated RP2040 at {clk / 1e6:.0f} MHz, MicroPython v1.28.0 (rp2, RPI_PICO), layout {args.layout} "
          f"({tracks} tracks, {leds} LEDs on {strips} strip{'s' if strips != 1 else ''})")
    print(f"boot to HELLO:                     {hello_us / 1000:.1f} ms")
    print(f"PING's last byte to ACK:           {ms(pings)} (nothing drawing: the USB both ways and the read loop)")
    print(f"peg command's last byte to ACK:    {ms(acks)} (longer when it lands during a draw)")
    print(f"peg command to the frame's last bit: {ms(totals)} (target {TARGET_MS:.0f} ms)")
    print(f"  drawing in MicroPython:          {ms(draws)}")
    for name, what in (("wait", "command to redraw (USB, read, parse, ACK)"), ("colours", "colours()"),
                       ("power", "power() (brightness, cap)"), ("place", "place() (into the strips' words)"),
                       ("write", "Strips.write() (the wire free, the DMA started)")):
        if parts[name]:
            print(f"    {what + ':':48} {ms(parts[name])}")
    print(f"  the wire:                        {ms(wires)} ({statistics.median(wires) / longest:.1f} us an LED "
          "of the longest strip)")
    print(f"gc.mem_free() after boot:          {boot_free[0]} bytes ({boot_free[1]} after gc.collect())")
    print(f"gc.mem_free() after a busy frame:  {busy_free[0]} bytes ({busy_free[1]} after gc.collect())")
    print(f"key matrix, time between scans (target at most {SCAN_TARGET_MS:.0f} ms):")
    for name, (gaps, answered) in batches.items():
        took = f"; answered in {answered / 1000:.1f} ms" if answered else ""
        print(f"    {name + ':':28} {ms(gaps)}{took}")
    print(f"({args.pegs} pegs; {wall:.0f} s of wall-clock time)")
    worst_scan = max(max(gaps) for gaps, _ in batches.values())
    return 0 if max(totals) <= TARGET_MS * 1000 and worst_scan <= SCAN_TARGET_MS * 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
