"""The keys while the firmware works through the host's commands, on the real rp2 port in an
emulated RP2040 (issue 31): the matrix is scanned every SCAN_MS (≤ 6 ms between scans, in
emulated time) whatever the host sends — a single command, the whole-board resync a host sends
after a reconnect, batches of 20 and 60 lines — and no tap of 30 ms or longer is lost, at any
offset from a resync. One emulator for the module; every time is emulated, so the host's load
does not enter into it."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest

from benchmarks import bench_pico
from cribpi.hal.controller.flash import layout_module
from cribpi.hal.layout import load_layout
from cribpi.hal.protocol import PROTOCOL, parse_line
from tests.firmware import rig
from tests.firmware.pico.emulated import EmulatedPico, precompiled

LAYOUT = load_layout(rig.ROOT / "hardware" / "layouts" / "four-track-serpentine.toml")
KEY, PINS = "5", (6, 14)  # KEYMAP row 0 (GP6), column 4 (GP14)
TAPS_MS = (30, 40, 60)
OFFSETS_MS = range(-8, 56, 4)  # from the tap going down to the resync's first byte


class Line:
    """The host's end: numbered command lines, and the events the firmware sent."""

    def __init__(self, pico: EmulatedPico) -> None:
        self.pico, self.host = pico, bench_pico.Host(pico)

    def lines_since(self, since_us: float) -> list[tuple[float, str, tuple[str, ...]]]:
        """(µs, verb, arguments) of every line the firmware wrote after ``since_us``."""
        found, buffer = [], b""
        for us, data in list(self.pico.serial_times):
            buffer += data
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                if us < since_us:
                    continue
                try:
                    line = parse_line(raw)
                except Exception:
                    continue
                found.append((us, line.verb, tuple(line.args)))
        return found

    def acked(self, since_us: float, count: int) -> float:
        """The time of the last of ``count`` replies after ``since_us`` (waits for them)."""
        def done() -> float | None:
            replies = [us for us, verb, _ in self.lines_since(since_us) if verb in ("ACK", "ERR")]
            return replies[count - 1] if len(replies) >= count else None
        return float(self.pico.wait_for(done, what=f"{count} replies", poll=0.01))


@pytest.fixture(scope="module")
def line(bench, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Line]:
    firmware = precompiled(rig.firmware_copy(tmp_path_factory.mktemp("fw"), layout_module(LAYOUT)),
                           tmp_path_factory.mktemp("fw-mpy"))
    pico = bench.boot(firmware)
    pico.wait_for(lambda: pico.state()["usb"], what="the USB enumeration")
    host = Line(pico)
    host.host.command(f"HELLO {PROTOCOL}")
    try:
        yield host
    finally:
        bench.off()


def resync() -> list[str]:
    return bench_pico.resync_commands(LAYOUT)


@pytest.mark.parametrize("batch", ["one T", "resync", "20 lines", "60 lines"])
def test_the_matrix_is_scanned_every_6_ms_while_commands_come_in(line: Line, batch: str) -> None:
    pegs = bench_pico.peg_commands
    bodies = {"one T": pegs(1), "resync": resync(), "20 lines": pegs(20), "60 lines": pegs(60)}[batch]
    line.pico.sleep(300)
    line.host.seen = len(line.pico.serial_times)  # the replies to this batch only
    between, answered = bench_pico.scan_gaps(line.host, bodies)
    assert len(between) > 10
    assert max(between) <= bench_pico.SCAN_TARGET_MS * 1000, (
        f"{batch}: {len(bodies)} lines answered in {answered / 1000:.1f} ms; longest time without "
        f"a scan {max(between) / 1000:.1f} ms (at most {bench_pico.SCAN_TARGET_MS} ms)")


@pytest.mark.parametrize("tap_ms", TAPS_MS)
def test_no_tap_is_lost_at_any_offset_of_a_resync(line: Line, tap_ms: int) -> None:
    pico, bodies = line.pico, resync()
    lost, offsets = [], []
    for offset in OFFSETS_MS:
        pico.sleep(150)
        data = base64.b64encode(line.host.batch(bodies)).decode()
        replies = pico.request("together", requests=[
            {"op": "press", "keys": [list(PINS)], "ms": tap_ms, "after_ms": max(0, -offset) or None},
            {"op": "serial", "data": data, "after_ms": max(0, offset) or None},
        ])["replies"]
        down, sent = float(replies[0]["us"]), float(replies[1]["us"])
        offsets.append(round((sent - down) / 1000, 3))  # to the µs: the emulated clock sums 8 ns cycles as floats
        line.acked(sent, len(bodies))
        pico.sleep_until((down + tap_ms * 1000) / 1000 + 60)  # up, and its KU's debounce
        events = [verb for us, verb, args in line.lines_since(down) if args == (KEY,) and verb in ("KD", "KU")]
        if events != ["KD", "KU"]:
            lost.append((offset, events))
    assert offsets == [float(o) for o in OFFSETS_MS]  # each tap where it was meant to be
    assert not lost, f"taps of {tap_ms} ms at these offsets (ms) from the resync were not reported once: {lost}"
