"""The Raspberry Pi backend: buttons on GPIO through gpiozero, the OLED through luma.oled.

Like gpiozero devices, every part takes its hardware keyword-only, so tests inject
gpiozero's ``MockFactory`` (``pin_factory=``), luma's ``dummy`` (``device=``) and a
:class:`~cribpi.hal.buttons.ManualClock` (``clock=``), and the same code runs on a Pi with
the defaults. The Pi drives no LEDs itself (the controller does, see
:mod:`cribpi.hal.controller`): without a controller the pegboard is a
:class:`HeadlessPegboard` that keeps the last board and lights nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from cribpi.exc import ConfigError, HardwareError
from cribpi.hal.base import DISPLAY_SIZE, Deliver, check_contrast, check_image, check_open, check_size
from cribpi.hal.buttons import ButtonDriver, ButtonLogic, ButtonTiming, Clock, PinBinding, ThreadClock
from cribpi.views.board import BoardModel

__all__ = ["GpioInputs", "OledDisplay", "HeadlessPegboard", "luma_device", "OLED_DRIVERS"]

OLED_DRIVERS = ("ssd1306", "sh1106")
OLED_ROTATIONS = {0: 0, 180: 2}  # degrees -> luma's rotate; 90/270 would need portrait screens


class GpioInputs:
    """Buttons wired pin to ground (pull-up, active low), one :class:`PinBinding` per BCM pin."""

    def __init__(
        self,
        pins: Mapping[int, PinBinding],
        *,
        timing: ButtonTiming | None = None,
        pin_factory: Any = None,
        clock: Clock | None = None,
    ) -> None:
        self.timing = timing or ButtonTiming()
        self.clock = clock or ThreadClock()
        self.pins = dict(pins)
        self._deliver: Deliver | None = None
        self._drivers: dict[int, ButtonDriver] = {}
        self._buttons: list[Any] = []
        try:
            for pin, binding in pins.items():
                self._buttons.append(self._button(pin, binding, pin_factory))
        except BaseException:
            self.close()
            raise
        # the factory the buttons hold (gpiozero's default when none was given): reading a
        # pin's level through it reserves nothing (the daemon's stuck-key watch does)
        self.pin_factory: Any = self._buttons[0].pin_factory if self._buttons else pin_factory

    def _button(self, pin: int, binding: PinBinding, pin_factory: Any) -> Any:
        # DigitalInputDevice, not Button: Button's hold thread would duplicate our own timing
        from gpiozero import DigitalInputDevice, GPIOZeroError

        try:
            button = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        except GPIOZeroError as exc:
            raise HardwareError(
                f"GPIO{pin} ({binding.press}): {exc} (on a machine without GPIO use "
                f"CRIBPI_BACKEND=sim, or GPIOZERO_PIN_FACTORY=mock)"
            ) from exc
        driver = ButtonDriver(ButtonLogic(binding, self.timing), self.clock, self._hand_over)
        button.when_activated = lambda: driver.edge(True)
        button.when_deactivated = lambda: driver.edge(False)
        self._drivers[pin] = driver
        return button

    def _hand_over(self, action: Any) -> None:
        deliver = self._deliver
        if deliver is not None:  # presses before start() are dropped
            deliver(action)

    def start(self, deliver: Deliver) -> None:
        self._deliver = deliver

    def close(self) -> None:
        self._deliver = None
        for driver in self._drivers.values():
            driver.close()
        for button in self._buttons:
            button.close()
        self._buttons.clear()


def luma_device(driver: str = "ssd1306", port: int = 1, address: int = 0x3C, rotate: int = 0,
                size: tuple[int, int] = DISPLAY_SIZE) -> Any:
    """Open the OLED on I2C ``port`` at ``address`` (rotate in degrees: 0 or 180)."""
    if driver not in OLED_DRIVERS:
        raise ConfigError(f"OLED driver {driver!r} is not one of {', '.join(OLED_DRIVERS)}")
    if rotate not in OLED_ROTATIONS:
        raise ConfigError(f"OLED rotate {rotate!r} is not 0 or 180 (degrees)")
    from luma.core.error import Error as LumaError
    from luma.core.interface.serial import i2c
    from luma.oled import device as oled_devices

    try:
        serial = i2c(port=port, address=address)
        width, height = check_size(size)
        return getattr(oled_devices, driver)(serial, width=width, height=height, rotate=OLED_ROTATIONS[rotate])
    except (LumaError, OSError) as exc:
        raise HardwareError(
            f"OLED {driver} on I2C bus {port} address {address:#04x}: {exc} "
            f"(is I2C enabled, and the address right? `i2cdetect -y {port}` lists it)"
        ) from exc


class OledDisplay:
    """The OLED through a luma device: any luma device works, ``dummy`` in tests."""

    def __init__(
        self,
        *,
        driver: str = "ssd1306",
        port: int = 1,
        address: int = 0x3C,
        rotate: int = 0,
        size: tuple[int, int] = DISPLAY_SIZE,
        device: Any = None,
        device_factory: Callable[..., Any] | None = None,
    ) -> None:
        if device is None:
            factory = device_factory or luma_device
            device = factory(driver=driver, port=port, address=address, rotate=rotate, size=size)
        self.device = device
        self.size = check_size((device.width, device.height))
        self._closed = False

    def show(self, image: Image.Image) -> None:
        check_open(self._closed, "display")
        check_image(image, self.size)
        self.device.display(image.convert(self.device.mode))

    def contrast(self, level: int) -> None:
        check_open(self._closed, "display")
        check_contrast(level)
        self.device.contrast(level)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.device.cleanup()


class HeadlessPegboard:
    """No LEDs on the Pi itself: keeps the last board (for status pages) and lights nothing."""

    def __init__(self) -> None:
        self.board: BoardModel | None = None
        self._closed = False

    def show(self, board: BoardModel) -> None:
        check_open(self._closed, "pegboard")
        self.board = board

    def close(self) -> None:
        self._closed = True
