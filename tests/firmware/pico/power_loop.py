"""Boots the current firmware on the emulated Pico many times and counts the boots that ended
at MicroPython's REPL instead of running main.py (the flake that kept the shared, power-cycled
emulator opt-in until its cause was found: conftest.py). Not a test: a tool for a flake of
the boot.

    python -m tests.firmware.pico.power_loop [-n 40] [--fresh] [--hello] [--host] [--py]

Each boot is a power op on one Node (``EmulatedPico.power_cycle``), or with ``--fresh`` a new
Node each time, of the firmware compiled by mpy-cross as the tests boot it (``--py``: its .py
files); with ``--hello`` a HELLO line is offered to the USB input at once, as a host
that opens the port at power-up does (without, nothing is sent: the boot has no input). With
``--host`` a host writes to the serial port all along (a line every millisecond, through
the host-port bridge, reopening the port after each power cycle), as the tests' hosts do: the
bridge is then busy while power_cycle closes the old port and writes the new image, which is
where the flake came from (conftest.py). A boot counts as good at the first frame on strip 0
(the firmware's loop running) or, with ``--hello``, at the HELLO reply; as bad at a ``>>>``
prompt, whose traceback is printed. Prints one line a boot that went bad, and the count at
the end."""

from __future__ import annotations

import argparse
import base64
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

from cribpi.hal.protocol import PROTOCOL, frame
from tests.firmware import rig
from tests.firmware.pico.emulated import EmulatedPico, precompiled


def boot_ended(pico: EmulatedPico, hello: bool) -> bytes:
    """What the boot ended with: the firmware's output once it is running or at the REPL."""
    def ended() -> bytes | None:
        out = bytes(pico.serial_out)
        if b">>>" in out:
            return out
        if hello:
            return out if b" HELLO " in out else None
        return b"running" if pico.frame(0)["frames"] else None
    return bytes(pico.wait_for(ended, what="the firmware running or at the REPL"))


class Chatter:
    """A host writing a line to the port every millisecond, reopening it when it goes away."""

    def __init__(self, pico: EmulatedPico) -> None:
        self.pico, self.stop, self.lines = pico, False, 0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stop:
            try:  # the port as it is now (no O_CREAT: never a file where the link goes)
                port = os.open(self.pico.port, os.O_WRONLY | os.O_NOCTTY)
            except OSError:
                time.sleep(0.001)
                continue
            try:
                while not self.stop:
                    os.write(port, b"\n")
                    self.lines += 1
                    time.sleep(0.001)
            except OSError:
                pass  # unplugged
            finally:
                os.close(port)

    def close(self) -> None:
        self.stop = True
        self.thread.join(timeout=2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=40, help="boots (default 40)")
    parser.add_argument("--fresh", action="store_true", help="a new Node for every boot")
    parser.add_argument("--hello", action="store_true", help="a HELLO offered at power-up")
    parser.add_argument("--host", action="store_true", help="a host writing to the port all along")
    parser.add_argument("--py", action="store_true", help="the .py files, not the mpy-cross'd modules")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        firmware = rig.firmware_copy(tmp / "fw")
        if not args.py:
            firmware = precompiled(firmware, tmp / "mpy")
        pico = EmulatedPico(tmp, firmware)
        chatter = Chatter(pico) if args.host else None
        bad = 0
        started = time.monotonic()
        try:
            for boot in range(args.n):
                if boot and args.fresh:
                    pico.close()
                    pico = EmulatedPico(tmp, firmware)
                    if chatter is not None:
                        chatter.pico = pico
                elif boot:
                    pico.power_cycle(firmware)
                if args.hello:
                    pico.request("serial", data=base64.b64encode(frame(1, f"HELLO {PROTOCOL}")).decode())
                out = boot_ended(pico, args.hello)
                if b">>>" in out:
                    bad += 1
                    print(f"boot {boot}: at the REPL: {out[-400:]!r}", flush=True)
        finally:
            if chatter is not None:
                chatter.close()
            pico.close()
        print(f"{bad} of {args.n} boots at the REPL ({'a Node each' if args.fresh else 'one Node, power ops'}, "
              f"{'.py files' if args.py else 'mpy-cross modules'}, "
              f"{'HELLO at power-up' if args.hello else 'no input'}"
              f"{f', a host writing {chatter.lines} lines to the port' if chatter else ''}), "
              f"{time.monotonic() - started:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
