"""The configuration file (TOML): backend, buttons, OLED, LEDs, layout, database.

Every key has a default, so an empty file (or none) is a valid configuration. A file that is
broken raises :class:`~cribpi.exc.ConfigError` naming the file, the key, the value and what
would be accepted; loading never writes anything. ``hardware/cribpi.toml`` is a commented
sample. Relative paths (``layout``, ``db``) are relative to the file's folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cribpi.exc import ConfigError, CribpiError
from cribpi.hal.actions import Action
from cribpi.hal.buttons import ButtonTiming, PinBinding
from cribpi.hal.layout import Layout, load_layout, read_toml
from cribpi.views.leds import LedSettings

__all__ = ["Config", "OledConfig", "load_config", "DEFAULT_PINS", "default_db_path"]


def _default_pins() -> dict[int, PinBinding]:
    """Four game keys; cards are entered on the controller's keypad in the reference build."""
    texts = {17: "ok", 27: "undo", 22: "go", 23: "menu"}
    return {pin: PinBinding.for_press(Action.parse(text)) for pin, text in texts.items()}


DEFAULT_PINS = _default_pins()


def default_db_path() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "cribpi" / "cribpi.db"


@dataclass(frozen=True)
class OledConfig:
    driver: str = "ssd1306"
    port: int = 1
    address: int = 0x3C
    rotate: int = 0
    contrast: int = 255


@dataclass(frozen=True)
class Config:
    path: Path | None = None
    backend: str | None = None
    pins: Mapping[int, PinBinding] = field(default_factory=lambda: dict(DEFAULT_PINS))
    timing: ButtonTiming = ButtonTiming()
    oled: OledConfig = OledConfig()
    leds: LedSettings = LedSettings()
    layout: Path | None = None
    board_layout: Layout | None = None  # the layout file, loaded and checked
    db: Path = field(default_factory=default_db_path)
    controller_port: str | None = None
    card_reader_port: str | None = None


_SECTIONS = {
    "backend": str, "db": str, "layout": str,
    "pins": dict, "buttons": dict, "oled": dict, "leds": dict, "controller": dict, "card_reader": dict,
}
_SECTION_KEYS = {
    "buttons": {"debounce_ms": (int, float), "long_press_ms": (int, float), "repeat_ms": (int, float)},
    "oled": {"driver": str, "port": int, "address": int, "rotate": int, "contrast": int},
    "leds": {"brightness": (int, float), "current_cap_ma": (int, float), "marks": bool,
             "game_counter_leds": int},
    "controller": {"port": str},
    "card_reader": {"port": str},
}
OLED_DRIVERS = ("ssd1306", "sh1106")
BACKEND_NAMES = ("pi", "controller", "sim", "mock")  # as cribpi.hal.BACKENDS (hal imports this module)


class _Reader:
    """Checks values against the schema, naming ``file: key = value`` in every error."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, key: str, value: Any, accepted: str) -> ConfigError:
        return ConfigError(f"{self.path}: {key} = {value!r} is not valid: {accepted}")

    def check_keys(self, table: Mapping[str, Any], allowed: Mapping[str, Any], where: str) -> None:
        for key, value in table.items():
            name = f"{where}{key}"
            if key not in allowed:
                raise self.fail(name, value, f"unknown key; accepted: {', '.join(allowed)}")
            expected = allowed[key]
            if not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool):
                kinds = expected if isinstance(expected, tuple) else (expected,)
                raise self.fail(name, value, f"expected {' or '.join(k.__name__ for k in kinds)}")


def _read_toml(path: Path) -> dict[str, Any]:
    return read_toml(path, "configuration file")


def _pin_number(reader: _Reader, key: str) -> int:
    match = re.fullmatch(r"(?:gpio|bcm)?(\d{1,2})", key.strip().lower())
    if match is None or not 0 <= int(match.group(1)) <= 27:
        raise reader.fail(f"pins.{key}", key, "a BCM pin number 0-27 (e.g. 17 or GPIO17) as the key")
    return int(match.group(1))


def _binding(reader: _Reader, key: str, value: Any) -> PinBinding:
    try:
        if isinstance(value, str):
            return PinBinding.for_press(Action.parse(value))
        if isinstance(value, dict) and set(value) <= {"press", "hold"} and "press" in value:
            hold = value.get("hold")
            return PinBinding(Action.parse(value["press"]), Action.parse(hold) if hold else None)
    except CribpiError as exc:
        raise reader.fail(f"pins.{key}", value, str(exc)) from None
    raise reader.fail(f"pins.{key}", value, 'an action ("ok") or { press = "undo", hold = "undo_long" }')


def _pins(reader: _Reader, table: Mapping[str, Any]) -> dict[int, PinBinding]:
    pins: dict[int, PinBinding] = {}
    for key, value in table.items():
        number = _pin_number(reader, key)
        if number in pins:
            raise reader.fail(f"pins.{key}", value, f"GPIO{number} is bound twice")
        pins[number] = _binding(reader, key, value)
    return pins


def _timing(reader: _Reader, table: Mapping[str, Any]) -> ButtonTiming:
    repeat = table.get("repeat_ms", 0)
    try:
        return ButtonTiming(
            debounce_s=table.get("debounce_ms", 20) / 1000,
            long_press_s=table.get("long_press_ms", 800) / 1000,
            repeat_s=repeat / 1000 if repeat else None,
        )
    except ConfigError as exc:
        raise reader.fail("buttons", dict(table), str(exc)) from None


def _oled(reader: _Reader, table: Mapping[str, Any]) -> OledConfig:
    oled = OledConfig(**table)
    if oled.driver not in OLED_DRIVERS:
        raise reader.fail("oled.driver", oled.driver, " or ".join(OLED_DRIVERS))
    if oled.rotate not in (0, 180):
        raise reader.fail("oled.rotate", oled.rotate, "0 or 180 (degrees)")
    if not 0x03 <= oled.address <= 0x77:
        raise reader.fail("oled.address", oled.address, "an I2C address 0x03-0x77 (usually 0x3C)")
    if not 0 <= oled.contrast <= 255:
        raise reader.fail("oled.contrast", oled.contrast, "0-255")
    return oled


def _leds(reader: _Reader, table: Mapping[str, Any]) -> LedSettings:
    try:
        return LedSettings(**table)
    except CribpiError as exc:
        raise reader.fail("leds", dict(table), str(exc)) from None


def _relative(base: Path, value: str | None) -> Path | None:
    if value is None:
        return None
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path


def _sections(reader: _Reader, data: Mapping[str, Any]) -> None:
    reader.check_keys(data, _SECTIONS, "")
    for section, keys in _SECTION_KEYS.items():
        reader.check_keys(data.get(section, {}), keys, f"{section}.")


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Read the configuration at ``path``; ``None`` gives the defaults."""
    if path is None:
        return Config()
    path = Path(path)
    data = _read_toml(path)
    reader = _Reader(path)
    _sections(reader, data)
    layout = _relative(path.parent, data.get("layout"))
    backend = data.get("backend")
    if backend is not None and backend not in BACKEND_NAMES:
        raise reader.fail("backend", backend, f"one of {', '.join(BACKEND_NAMES)}")
    if "db" in data and not str(data["db"]).strip():
        raise reader.fail("db", data["db"], "a file name for the game journal (e.g. cribpi.db)")
    try:
        board_layout = load_layout(layout) if layout else None
    except ConfigError as exc:
        raise ConfigError(f"{path}: layout = {data.get('layout')!r}: {exc}") from None
    return Config(
        path=path,
        backend=backend,
        pins=_pins(reader, data["pins"]) if "pins" in data else dict(DEFAULT_PINS),
        timing=_timing(reader, data.get("buttons", {})),
        oled=_oled(reader, data.get("oled", {})),
        leds=_leds(reader, data.get("leds", {})),
        layout=layout,
        board_layout=board_layout,
        db=_relative(path.parent, data.get("db")) or default_db_path(),
        controller_port=data.get("controller", {}).get("port"),
        card_reader_port=data.get("card_reader", {}).get("port"),
    )
