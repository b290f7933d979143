"""Putting the firmware on the Pico: ``python -m cribpi.hal.controller.flash`` copies
firmware/*.py and the board's layout (as ``layout.py``, generated from the layout file) with
``mpremote``, resets the Pico and checks the protocol version it then reports.

A Pico already running the firmware is first sent ``REPL`` (docs/protocol.md): the firmware
takes Ctrl-C as data and runs a watchdog, so mpremote could not stop it; after the command it
resets and waits at the REPL for one boot, and mpremote's final reset runs the new firmware.

    python -m cribpi.hal.controller.flash --layout hardware/layouts/four-track-serpentine.toml
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cribpi.exc import CribpiError, HardwareError
from cribpi.hal.controller.link import LinkTiming
from cribpi.hal.controller.ports import find_port
from cribpi.hal.layout import Layout, load_layout

__all__ = ["layout_module", "flash", "add_arguments", "run", "main"]

ROW = 12  # numbers a line in the generated module
#: The firmware beside the package in a checkout (where `cribpi flash` is run from).
FIRMWARE = Path(__file__).resolve().parents[3] / "firmware"
#: Where an installed cribpi keeps it: the wheel puts firmware/*.py in the environment's data
#: folder (pyproject.toml's data-files), /opt/cribpi/share/cribpi/firmware in the guide's venv.
SHARED = Path("share") / "cribpi" / "firmware"


def firmware_folders() -> list[Path]:
    """Where the firmware is looked for, in order: the checkout's, then the installed one's."""
    data = [Path(sysconfig.get_path("data")), Path(sys.prefix)]
    try:
        data.append(Path(sysconfig.get_path("data", f"{os.name}_user")))  # pip install --user
    except KeyError:
        pass
    return [FIRMWARE, *dict.fromkeys(folder / SHARED for folder in data)]


def default_firmware() -> Path:
    """The firmware this cribpi came with (a folder with main.py)."""
    folders = firmware_folders()
    for folder in folders:
        if (folder / "main.py").is_file():
            return folder
    raise HardwareError(f"the controller's firmware is not installed with this cribpi (looked in "
                        f"{', '.join(map(str, folders))}): install cribpi again, or give --firmware with the "
                        "source's firmware/ folder")


MPREMOTE = "'mpremote>=1.22'"  # as cribpi's [controller] extra names it


def pip_install(package: str) -> str:
    """The command that installs ``package`` into the environment this cribpi runs from."""
    pip = Path(sys.executable).parent / "pip"
    sudo = "" if os.access(sys.prefix, os.W_OK) else "sudo "
    return f"{sudo}{pip} install {package}"


def check_mpremote() -> None:
    if importlib.util.find_spec("mpremote") is None:
        raise HardwareError(f"flashing needs mpremote: install it into the environment cribpi runs from with"
                            f" `{pip_install(MPREMOTE)}` (installing cribpi[controller] brings it too)")



def _rows(spots: list[int]) -> str:
    lines = [", ".join(str(n) for n in spots[i:i + ROW]) for i in range(0, len(spots), ROW)]
    return "\n".join(f"        {line}," for line in lines)


def layout_module(layout: Layout) -> str:
    """The layout as the firmware reads it: strip lengths, and per track the LED of each hole
    1-121 and of each game counter, packed as ``strip << 12 | index``."""
    def packed(places: dict[tuple[int, int], tuple[int, int]], track: int, count: int) -> list[int]:
        return [places[(track, n)][0] << 12 | places[(track, n)][1] for n in range(1, count + 1)]

    tracks = range(1, layout.tracks + 1)
    holes = "\n".join(f"    (\n{_rows(packed(dict(layout.holes), t, 121))}\n    )," for t in tracks)
    counters = "\n".join(f"    ({', '.join(map(str, packed(dict(layout.counters), t, layout.game_counters)))}{',' if layout.game_counters else ''}),"
                         for t in tracks)
    lengths = ", ".join(str(layout.strip_lengths.get(s, 0)) for s in range(max(layout.strip_lengths) + 1))
    return (f'"""The board\'s layout, generated from {Path(layout.source).name} by cribpi.hal.controller.flash:\n'
            f'do not edit. HOLES[t][h - 1] and COUNTERS[t][n - 1] are strip << 12 | index."""\n\n'
            f"STRIPS = ({lengths},)\nHOLES = (\n{holes}\n)\nCOUNTERS = (\n{counters}\n)\n")


def _mpremote(port: str, *args: str) -> None:
    check_mpremote()
    command = [sys.executable, "-m", "mpremote", "connect", port, *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines() or ["no message"]
        raise HardwareError(f"mpremote {args[0]} on {port} failed: {said[-1][-200:]}")


#: Seconds to wait for a running firmware's answer, for the Pico to come back at its REPL
#: after REPL (a reset and a boot: about a second on a Pico), and for the flashed firmware's
#: HELLO; and the link's timing for that HELLO. (The emulated Pico's tests, slower than real
#: time, set their own.)
ANSWER_S = 5.0
BACK_S = 60.0
HELLO_S = 15.0
TIMING = LinkTiming(backoff_s=0.5)


def _answer(link: Any, line: bytes, seq: int, deadline: float) -> str | None:
    """Sends ``line`` and reads until the reply to ``seq``: its verb ("HELLO", "ACK", "ERR ..."),
    or "REPL" if MicroPython's prompt shows instead (no firmware running), or None (silence)."""
    from cribpi.hal.protocol import LineError, parse_line

    link.write(line)
    seen = b""
    while time.monotonic() < deadline:
        seen += link.read(256)
        if b">>> " in seen:
            return "REPL"
        while b"\n" in seen:
            raw, seen = seen.split(b"\n", 1)
            try:
                reply = parse_line(raw.rstrip(b"\r"))
            except LineError:
                continue  # a key event's line cut by our own start, a REPL's echo: not ours
            if reply.seq == seq:
                return " ".join((reply.verb, *reply.args))
    return None


def _to_repl(port: str) -> bool:
    """If the firmware answers on ``port``, send it REPL and wait until the Pico is back at its
    REPL; True then. False: no firmware answered (a fresh Pico sits at its REPL already)."""
    from cribpi.hal.controller.ports import open_port
    from cribpi.hal.protocol import PROTOCOL, frame

    link = open_port(port, read_timeout=0.1)
    try:
        link.reset_input_buffer()
        hello = _answer(link, frame(1, f"HELLO {PROTOCOL}"), 1, time.monotonic() + ANSWER_S)
        if hello is None or not hello.startswith("HELLO"):
            return False
        done = _answer(link, frame(2, "REPL"), 2, time.monotonic() + ANSWER_S)
        if done != "ACK":
            raise HardwareError(f"controller {port}: REPL answered {done or 'nothing'}: its firmware is older "
                                "than protocol 2.2; hold BOOTSEL and put MicroPython on it again")
    finally:
        link.close()
    deadline = time.monotonic() + BACK_S
    while time.monotonic() < deadline:  # the port goes away with the reset and comes back
        time.sleep(0.5)
        try:
            link = open_port(port, read_timeout=0.1)
        except HardwareError:
            continue
        try:
            if _answer(link, b"\r\n", -1, time.monotonic() + 2.0) == "REPL":
                return True
        except OSError:
            pass
        finally:
            link.close()
    raise HardwareError(f"controller {port}: not back at the REPL {BACK_S:.0f} s after REPL")


def flash(port: str, layout: Layout, firmware: Path) -> str:
    """Copy the firmware and layout, reset, and return the firmware version now running."""
    sources = sorted(p for p in firmware.glob("*.py") if p.name != "layout.py")
    if not any(p.name == "main.py" for p in sources):
        raise HardwareError(f"{firmware}: no main.py: point --firmware at cribpi's firmware/ folder")
    check_mpremote()  # before the Pico is told to stop its firmware
    _to_repl(port)
    with tempfile.TemporaryDirectory() as tmp:
        generated = Path(tmp) / "layout.py"
        generated.write_text(layout_module(layout))
        copies = [arg for path in (*sources, generated) for arg in ("cp", str(path), ":", "+")]
        _mpremote(port, *copies[:-1], "+", "reset")
    return _check(port)


def _check(port: str) -> str:
    from cribpi.hal.controller import open_controller

    part = open_controller(port, timing=TIMING)
    try:
        deadline = time.monotonic() + HELLO_S
        while time.monotonic() < deadline and part.link.hello is None:
            time.sleep(0.1)
        hello = part.link.hello
        if hello is None:
            raise HardwareError(f"controller {port}: {part.problem or 'no answer'} after flashing")
        return hello.firmware
    finally:
        part.close()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``python -m cribpi.hal.controller.flash`` (and of a ``cribpi flash``)."""
    from cribpi.inputs import path_option

    parser.add_argument("--port", type=lambda text: str(path_option("serial port")(text)),
                        help="the Pico's port (default: find it by USB id)")
    parser.add_argument("--layout", required=True, type=path_option("layout file"),
                        help="the board's layout file (hardware/layouts/*.toml)")
    parser.add_argument("--firmware", type=path_option("firmware folder", folder=True), default=None,
                        help="the firmware folder (default: the one this cribpi was installed with,"
                             " or the checkout's firmware/)")


def run(args: argparse.Namespace) -> int:
    layout = load_layout(args.layout)  # a bad layout is refused before the Pico is looked for
    firmware = Path(args.firmware) if args.firmware else default_firmware()
    check_mpremote()
    version = flash(find_port(args.port), layout, firmware)
    print(f"controller firmware {version} running")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cribpi.hal.controller.flash", description=__doc__.split("\n")[0])
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except CribpiError as exc:
        print(f"cribpi flash: {exc}", file=sys.stderr)
        return exc.exit_code


if __name__ == "__main__":
    sys.exit(main())
