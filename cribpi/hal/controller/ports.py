"""Finding and opening the controller's serial port.

In order: the configured port (a device path such as ``/dev/ttyACM0``, a ``/dev/serial/by-id``
name, a pty, or any pyserial URL: ``socket://host:port``, ``rfc2217://``), else
``/dev/cribpi-controller`` (the name ``cribpi install``'s udev rule gives the Pico), else a
``/dev/serial/by-id`` name MicroPython gives a Pico, else any port whose USB VID:PID is the
Pico's under MicroPython (2E8A:0005). Opened with ``exclusive=True``: a second cribpi (or a
terminal left open) gets a clear error instead of sharing the bytes.
"""

from __future__ import annotations

import glob
import os
from typing import Any

from cribpi.exc import HardwareError

__all__ = ["find_port", "open_port", "PICO_VID_PID", "BY_ID_PATTERN", "UDEV_NAME"]

PICO_VID_PID = (0x2E8A, 0x0005)
BY_ID_PATTERN = "/dev/serial/by-id/usb-MicroPython*"
UDEV_NAME = "/dev/cribpi-controller"


def find_port(configured: str | None, *, udev: str = UDEV_NAME, by_id: str = BY_ID_PATTERN) -> str:
    """The port to open; :class:`HardwareError` when no controller can be seen."""
    if configured:
        return configured
    if os.path.exists(udev):
        return udev
    named = sorted(glob.glob(by_id))
    if named:
        return named[0]
    from serial.tools import list_ports

    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        if (port.vid, port.pid) == PICO_VID_PID:
            return str(port.device)
    raise HardwareError(
        f"no controller found: no {by_id} and no USB serial device "
        f"{PICO_VID_PID[0]:04X}:{PICO_VID_PID[1]:04X}; plug the Pico in or set [controller] port"
    )


def open_port(url: str, *, read_timeout: float) -> Any:
    """A pyserial port on ``url``, exclusive where the platform allows it."""
    import serial

    try:
        return serial.serial_for_url(url, baudrate=115200, timeout=read_timeout, write_timeout=1.0,
                                     exclusive=True)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise HardwareError(f"controller {url}: {exc}") from exc
