"""Configuration -> the table's parts, each from its own backend.

The backend of a part is, first to last: the ``backend`` argument (``--backend`` or
``$CRIBPI_BACKEND``: every part), the part's entry in ``[parts]``, the configuration's
``backend``, and the machine (``pi`` on a Raspberry Pi, ``sim`` elsewhere). So the reference
build takes the OLED and buttons from the Pi and the LEDs and card keys from the controller,
and a test gives every part to ``mock``. The speaker is there only when ``[parts] speaker``
names one (``espeak``, ``sim``, ``mock``); a forced ``sim`` or ``mock`` backend takes its place.

Hardware doubles are injected keyword-only, gpiozero style: ``pin_factory`` and ``clock`` reach
the Pi's buttons, ``device`` or ``device_factory`` its OLED.

Each part is opened on its own. By default the first that will not open fails the whole (those
already open are closed again); given ``stand_in``, a part that will not open is replaced by
what ``stand_in`` makes of its :class:`Missing` (the daemon's stand-ins, which say so and try
it again), and the others open as usual.
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from typing import Any

from cribpi.config import Config, DisplayConfig
from cribpi.exc import ConfigError, HardwareError
from cribpi.hal import BACKENDS, PART_BACKENDS, Display, InputSource, Parts, Pegboard, machine_backend
from cribpi.hal.base import CombinedInputs
from cribpi.hal.speaker import SPEAKER_BACKENDS, Speaker

__all__ = ["Inject", "Missing", "choose_backends", "open_parts", "ENV_BACKEND"]

ENV_BACKEND = "CRIBPI_BACKEND"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Inject:
    """Test doubles for the Pi's parts (all optional)."""

    pin_factory: Any = None
    clock: Any = None
    device: Any = None
    device_factory: Callable[..., Any] | None = None


@dataclass(frozen=True)
class Choice:
    inputs: tuple[str, ...]
    pegboard: str
    displays: tuple[DisplayConfig, ...]
    speaker: str | None = None


@dataclass(frozen=True)
class Missing:
    """A part that would not open: its ``kind`` (``inputs``, ``pegboard``, ``display``), how
    players know it (``controller``, ``OLED``, ``buttons``...), why, and ``reopen``, which
    opens it afresh (and raises :class:`HardwareError` while it is still missing). A display
    also has its ``size``, which its stand-in must keep."""

    kind: str
    name: str
    error: str
    reopen: Callable[[], Any]
    size: tuple[int, int] | None = None


StandIn = Callable[[Missing], Any]


def _check(name: str, part: str, where: str) -> str:
    if name not in BACKENDS:
        raise ConfigError(f"{where}: backend {name!r} is not one of {', '.join(BACKENDS)}")
    if name not in PART_BACKENDS[part]:
        raise ConfigError(f"{where}: the {name} backend has no {part}; "
                          f"a {part} comes from {', '.join(PART_BACKENDS[part])}")
    return name


def choose_backends(config: Config, backend: str | None = None) -> Choice:
    """Which backend gives each part (see the module docstring for the order)."""
    forced = backend or os.environ.get(ENV_BACKEND) or None
    displays = config.parts.displays or (DisplayConfig(oled=config.oled),)
    if forced is not None:
        _check(forced, "inputs", "--backend" if backend else f"${ENV_BACKEND}")
        speaker = forced if config.parts.speaker and forced in SPEAKER_BACKENDS else config.parts.speaker
        return Choice((forced,), forced, tuple(replace(d, backend=_display_default(forced)) for d in displays), speaker)
    default = config.backend or machine_backend()
    parts = config.parts
    return Choice(
        inputs=parts.inputs or (default,),
        pegboard=parts.pegboard or default,
        displays=tuple(replace(d, backend=d.backend or _display_default(default)) for d in displays),
        speaker=parts.speaker,
    )


def _display_default(default: str) -> str:
    """The controller has no display: its table's screen is the Pi's OLED."""
    return "pi" if default == "controller" else default


def open_parts(config: Config, backend: str | None = None, inject: Inject = Inject(),
               stand_in: StandIn | None = None) -> Parts:
    """Open every part, each on its own. A part that will not open (:class:`HardwareError`)
    fails the whole, those already open closed again; given ``stand_in``, it is replaced by
    ``stand_in(Missing(...))`` instead and the table has the others."""
    choice = choose_backends(config, backend)
    if {*choice.inputs, choice.pegboard, *(d.backend for d in choice.displays)} == {"mock"}:
        from cribpi.hal.mock import open_mock

        if config.card_reader_port:  # the mock's inputs are the keys (--keys) and the tests'
            log.warning("[card_reader] port %s is not read: every part is the mock's; a backend other than "
                        "mock (sim, pi, controller) reads cards from it", config.card_reader_port)
        mock = open_mock(pin_factory=inject.pin_factory)
        mock.speaker = _speaker(choice.speaker, config)  # ("all", "mock") names the rest: --keys drives them
        return mock
    with ExitStack() as opened:
        def add(kind: str, name: str, open_part: Callable[[], Any], size: tuple[int, int] | None = None) -> Any:
            try:
                part = open_part()
            except HardwareError as exc:
                if stand_in is None:
                    raise
                part = stand_in(Missing(kind, name, str(exc), open_part, size))
            opened.callback(part.close)
            return part

        inputs = [add("inputs", _input_name(name), lambda name=name: _inputs(name, config, inject))  # type: ignore[misc]
                  for name in choice.inputs]
        if config.card_reader_port:
            port = config.card_reader_port
            inputs.append(add("inputs", f"card reader {port}", lambda: _card_reader(port)))
        pegboard = add("pegboard", _output_name("pegboard", choice.pegboard),
                       lambda: _pegboard(choice.pegboard, config))
        several = len(choice.displays) > 1
        displays = [add("display", _output_name("display", d.backend or "") + (f" {i + 1}" if several else ""),
                        lambda d=d: _contrasted(_display(d, inject), d), d.oled.size)  # type: ignore[misc]
                    for i, d in enumerate(choice.displays)]
        speaker = _speaker(choice.speaker, config)
        if speaker is not None:
            opened.callback(speaker.close)
        named = (("inputs", "+".join(choice.inputs)), ("pegboard", choice.pegboard),
                 *(("display", d.backend or "") for d in choice.displays),
                 *((("speaker", choice.speaker),) if choice.speaker else ()))
        parts = Parts(CombinedInputs(inputs), pegboard, tuple(displays),
                      tuple(d.page for d in choice.displays), named, speaker)
        opened.pop_all()
    return parts


def _input_name(backend: str) -> str:
    return {"pi": "buttons", "mock": "buttons", "controller": "controller keys"}.get(backend, f"inputs ({backend})")


def _output_name(part: str, backend: str) -> str:
    """The controller and the OLED by name, others by backend (as the daemon's guard names them)."""
    known = {("pegboard", "controller"): "controller", ("display", "pi"): "OLED"}
    return known.get((part, backend), f"{part} ({backend})")


def _contrasted(display: Display, wanted: DisplayConfig) -> Display:
    display.contrast(wanted.oled.contrast)
    return display


def _inputs(name: str, config: Config, inject: Inject) -> InputSource:
    if name in ("pi", "mock"):
        from gpiozero.exc import PinFactoryFallback

        from cribpi.hal.pi import GpioInputs

        factory = inject.pin_factory
        if name == "mock" and factory is None:
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
        with warnings.catch_warnings():
            # off a Pi gpiozero warns once per pin library it tries; the error that follows says it all
            warnings.simplefilter("ignore", PinFactoryFallback)
            return GpioInputs(config.pins, timing=config.timing, pin_factory=factory, clock=inject.clock)
    if name == "controller":
        from cribpi.hal.controller import open_controller

        return open_controller(config.controller_port, timing=config.controller_timing,
                               cap_ma=config.leds.current_cap_ma)
    from cribpi.hal.sim import SimInputs

    return SimInputs()


def _card_reader(port: str) -> InputSource:
    from cribpi.hal.serial_cards import SerialCardReader

    return SerialCardReader(port)


def _pegboard(name: str, config: Config) -> Pegboard:
    if name == "pi":
        from cribpi.hal.pi import HeadlessPegboard

        return HeadlessPegboard()
    if name == "controller":
        from cribpi.hal.controller import open_controller

        return open_controller(config.controller_port, timing=config.controller_timing,
                               cap_ma=config.leds.current_cap_ma)
    if name == "mock":
        from cribpi.hal.mock import MemoryPegboard

        return MemoryPegboard(config.leds)
    from cribpi.hal.sim import SimPegboard

    return SimPegboard(config.leds, config.board_layout)


def _display(wanted: DisplayConfig, inject: Inject) -> Display:
    oled = wanted.oled
    if wanted.backend == "pi":
        from cribpi.hal.frames import LatestFrameDisplay
        from cribpi.hal.pi import OledDisplay

        panel = OledDisplay(driver=oled.driver, port=oled.port, address=oled.address, rotate=oled.rotate,
                            size=oled.size, device=inject.device, device_factory=inject.device_factory)
        return LatestFrameDisplay(panel, name=f"OLED {oled.address:#04x}")  # the I2C bus off the loop
    if wanted.backend == "mock":
        from cribpi.hal.mock import mock_display

        return mock_display(oled.size)
    from cribpi.hal.sim import SimDisplay

    return SimDisplay(oled.size)


def _speaker(name: str | None, config: Config) -> Speaker | None:
    """The speaker of backend ``name`` (None: no speaker). Opening it never fails: a missing
    espeak-ng or sound card is the speaker's problem once the table runs, shown and retried."""
    if name is None:
        return None
    from cribpi.hal.speaker import open_speaker

    return open_speaker(name, config.speech.device)
