"""The configuration file (TOML): the parts and their backends, buttons, OLED, LEDs, layout,
database.

``backend`` names the backend of every part; ``[parts]`` chooses one per part, so the
reference build takes the OLED and buttons from the Pi and the LEDs and card keys from the
controller::

    [parts]
    inputs = ["pi", "controller"]     # one or more sources
    pegboard = "controller"
    displays = ["pi", { backend = "pi", page = "scores", address = 0x3D, size = "128x32" }]

A display entry is a backend name or a table with ``backend``, ``page`` (``table`` or
``scores``) and any ``[oled]`` key for that display.

``[parts] speaker`` (``"espeak"``, ``"sim"``, ``"mock"``; none by default) and ``[speech]``
(:class:`~cribpi.hal.speaker.settings.SpeechConfig`; docs/usage.md) make the table speak.

``[game]`` sets the table's games: ``game_length = 61`` plays a fresh game to 61 points (121,
the default, otherwise; five-card rules are always 61). It is the table's default: a length
chosen in the menu or with ``cribpi run --game-length`` is kept in the journal and wins.
``[phones]`` (:mod:`cribpi.phonesconfig`: enabled, port, host) serves the players' phones a page.
Every key has a default, so an empty file (or none) is a valid configuration. A file that is
broken raises :class:`~cribpi.exc.ConfigError` naming the file, the key, the value and what
would be accepted; loading never writes anything. ``hardware/cribpi.toml`` is a commented
sample. Relative paths (``layout``, ``db``) are relative to the file's folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cribpi.exc import ConfigError, CribpiError
from cribpi.hal import BACKENDS, PART_BACKENDS
from cribpi.hal.actions import Action
from cribpi.hal.base import DISPLAY_SIZE, DISPLAY_SIZES, PAGES
from cribpi.hal.buttons import ButtonTiming, PinBinding
from cribpi.hal.controller.link import LinkTiming
from cribpi.hal.layout import Layout, load_layout, read_toml
from cribpi.hal.speaker import SPEAKER_BACKENDS, SPEED, VOLUME
from cribpi.hal.speaker.settings import SPEECH_SAY, SpeechConfig, speech_config
from cribpi.phonesconfig import PHONES_KEYS, PhonesConfig, phones_config
from cribpi.inputs import bounded_int, bounded_number, broker_url, escaped, read_user_bytes, read_user_text, shown, unprintable_in, user_path
from cribpi.views.leds import LedSettings

__all__ = ["Config", "SpeechConfig", "SPEECH_SAY", "TournamentConfig", "OledConfig", "DisplayConfig", "PartsConfig", "load_config", "DEFAULT_PINS",
           "default_db_path"]


def _default_pins() -> dict[int, PinBinding]:
    """Four game keys; cards are entered on the controller's keypad in the reference build."""
    texts = {17: "ok", 27: "undo", 22: "go", 23: "menu"}
    return {pin: PinBinding.for_press(Action.parse(text)) for pin, text in texts.items()}


DEFAULT_PINS = _default_pins()


def default_db_path() -> Path:
    """The journal when the configuration names none: ``$CRIBPI_DB`` (``bash .ci/play`` points
    it into the checkout), else the service's ``$STATE_DIRECTORY`` (systemd's StateDirectory=),
    else the user's XDG state folder. So a checkout, the service and a user each keep their own."""
    if os.environ.get("CRIBPI_DB"):
        return Path(os.environ["CRIBPI_DB"]).expanduser()
    if os.environ.get("STATE_DIRECTORY"):  # systemd may list several, colon-separated
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0]) / "cribpi.db"
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "cribpi" / "cribpi.db"


@dataclass(frozen=True)
class OledConfig:
    driver: str = "ssd1306"
    port: int = 1
    address: int = 0x3C
    rotate: int = 0
    contrast: int = 255
    size: tuple[int, int] = DISPLAY_SIZE


@dataclass(frozen=True)
class DisplayConfig:
    """One display: its backend (``None``: the table's backend), its page and its OLED."""

    backend: str | None = None
    page: str = "table"
    oled: OledConfig = OledConfig()


@dataclass(frozen=True)
class PartsConfig:
    """The backend of each part; ``None`` or empty: the table's backend."""

    inputs: tuple[str, ...] = ()
    pegboard: str | None = None
    displays: tuple[DisplayConfig, ...] = ()
    speaker: str | None = None  # None: no speaker


@dataclass(frozen=True)
class TournamentConfig:
    """Publishing the table to a tournament's MQTT broker (``[tournament]``); off without a broker."""

    broker: str | None = None  # mqtt://host:1883 or mqtts://host:8883
    event: str = ""
    table: str = ""
    username: str | None = None  # default: the table id (the room's ACL keys on it)
    password: str | None = None
    password_file: Path | None = None
    ca: Path | None = None  # the CA that signed an mqtts:// broker's certificate

    @property
    def enabled(self) -> bool:
        return self.broker is not None


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
    controller_timing: LinkTiming = LinkTiming()
    card_reader_port: str | None = None
    parts: PartsConfig = PartsConfig()
    tournament: TournamentConfig = TournamentConfig()
    speech: SpeechConfig = SpeechConfig()
    game_length: int | None = None  # [game] game_length: None, as the rules say (121)
    phones: PhonesConfig = PhonesConfig()


_SECTIONS = {
    "backend": str, "db": str, "layout": str, "parts": dict,
    "pins": dict, "buttons": dict, "oled": dict, "leds": dict, "controller": dict, "card_reader": dict,
    "tournament": dict, "game": dict, "speech": dict, "phones": dict,
}
_OLED_KEYS = {"driver": str, "port": int, "address": int, "rotate": int, "contrast": int, "size": str}
_SECTION_KEYS: dict[str, dict[str, Any]] = {
    "buttons": {"debounce_ms": (int, float), "long_press_ms": (int, float), "repeat_ms": (int, float)},
    "oled": _OLED_KEYS,
    "parts": {"inputs": (str, list), "pegboard": str, "displays": (str, list), "speaker": str},
    "leds": {"brightness": (int, float), "current_cap_ma": (int, float), "marks": bool,
             "game_counter_leds": int},
    "controller": {"port": str, "ack_timeout_ms": (int, float), "retries": int, "reconnect_max_ms": (int, float)},
    "card_reader": {"port": str},
    "tournament": {"broker": str, "event": str, "table": str, "username": str, "password": str,
                   "password_file": str, "ca": str},
    "game": {"game_length": int}, "phones": PHONES_KEYS,
    "speech": {"enabled": bool, "say": str, "volume": int, "voice": str, "speed": int, "device": str},
}
GAME_LENGTHS = (121, 61)  # as cribpi.rules takes them (the app's menu offers the same two)
OLED_DRIVERS = ("ssd1306", "sh1106")
#: The bounds of every number in the file: a NaN, an infinity, a negative or a huge value is
#: refused by name (a NaN current cap once killed ``cribpi run``; an infinite long press never fires).
_NUMBERS: dict[str, tuple[float, float]] = {
    "buttons.debounce_ms": (0, 1000), "buttons.long_press_ms": (1, 60_000), "buttons.repeat_ms": (0, 60_000),
    "leds.brightness": (0, 1), "leds.current_cap_ma": (1, 100_000),
    "controller.ack_timeout_ms": (5, 5000), "controller.reconnect_max_ms": (100, 600_000),
}
_INTEGERS: dict[str, tuple[int, int]] = {"leds.game_counter_leds": (0, 10), "controller.retries": (0, 20),
                                         "speech.volume": VOLUME, "speech.speed": SPEED}  # [oled]'s: in _oled


class _Reader:
    """Checks values against the schema, naming ``file: key = value`` in every error."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, key: str, value: Any, accepted: str) -> ConfigError:
        return ConfigError(f"{escaped(self.path)}: {escaped(key)} = {shown(value)} is not valid: {accepted}")

    def bounded(self, table: Mapping[str, Any], section: str) -> None:
        """Every number of ``table`` inside its bounds (``_NUMBERS``, ``_INTEGERS``)."""
        for key, value in table.items():
            name = f"{section}.{key}"
            if name in _NUMBERS:
                bounded_number(f"{escaped(self.path)}: {name}", value, *_NUMBERS[name])
            elif name in _INTEGERS:
                bounded_int(f"{escaped(self.path)}: {name}", value, *_INTEGERS[name])

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
    match = re.fullmatch(r"(?:gpio|bcm)?([0-9]{1,2})", key.strip().lower())
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
    reader.bounded(table, "buttons")
    repeat = table.get("repeat_ms", 0)
    try:
        return ButtonTiming(
            debounce_s=table.get("debounce_ms", 20) / 1000,
            long_press_s=table.get("long_press_ms", 800) / 1000,
            repeat_s=repeat / 1000 if repeat else None,
        )
    except ConfigError as exc:
        raise reader.fail("buttons", dict(table), str(exc)) from None


def _size(reader: _Reader, key: str, value: str) -> tuple[int, int]:
    sizes = {f"{w}x{h}": (w, h) for w, h in DISPLAY_SIZES}
    if value.strip().lower() not in sizes:
        raise reader.fail(key, value, f"one of {', '.join(sizes)}")
    return sizes[value.strip().lower()]


def _oled(reader: _Reader, table: Mapping[str, Any], where: str = "oled", base: OledConfig = OledConfig()) -> OledConfig:
    reader.check_keys(table, _OLED_KEYS, f"{where}.")
    values = dict(table)
    if "size" in values:
        values["size"] = _size(reader, f"{where}.size", values["size"])
    oled = replace(base, **values)
    if oled.driver not in OLED_DRIVERS:
        raise reader.fail(f"{where}.driver", oled.driver, " or ".join(OLED_DRIVERS))
    if oled.rotate not in (0, 180):
        raise reader.fail(f"{where}.rotate", oled.rotate, "0 or 180 (degrees)")
    if not 0x03 <= oled.address <= 0x77:
        raise reader.fail(f"{where}.address", oled.address, "an I2C address 0x03-0x77 (usually 0x3C)")
    if not 0 <= oled.port <= 99:
        raise reader.fail(f"{where}.port", oled.port, "an I2C bus number 0-99 (usually 1)")
    if not 0 <= oled.contrast <= 255:
        raise reader.fail(f"{where}.contrast", oled.contrast, "0-255")
    return oled


def _part_backend(reader: _Reader, key: str, value: Any, part: str) -> str:
    allowed = PART_BACKENDS[part]
    if not isinstance(value, str) or value not in allowed:
        what = f"the {value} backend has no {part}; " if value in BACKENDS else ""
        raise reader.fail(key, value, f"{what}a {part} comes from {', '.join(allowed)}")
    return value


def _display(reader: _Reader, key: str, entry: Any, oled: OledConfig) -> DisplayConfig:
    if isinstance(entry, str):
        return DisplayConfig(_part_backend(reader, key, entry, "display"), "table", oled)
    if not isinstance(entry, dict):
        raise reader.fail(key, entry, 'a backend name ("pi") or { backend = "pi", page = "scores", ... }')
    values = dict(entry)
    backend = _part_backend(reader, f"{key}.backend", values.pop("backend", None), "display")
    page = values.pop("page", "table")
    if page not in PAGES:
        raise reader.fail(f"{key}.page", page, f"one of {', '.join(PAGES)}")
    return DisplayConfig(backend, page, _oled(reader, values, key, oled))


def _parts(reader: _Reader, table: Mapping[str, Any], oled: OledConfig) -> PartsConfig:
    inputs = table.get("inputs", [])
    inputs = [inputs] if isinstance(inputs, str) else inputs
    pegboard = table.get("pegboard")
    displays = table.get("displays", [])
    displays = [displays] if isinstance(displays, str) else displays
    if len(inputs) > 4 or len(displays) > 4:
        raise reader.fail("parts", dict(table), "at most 4 input backends and 4 displays")
    speaker = table.get("speaker")
    if speaker is not None and speaker not in SPEAKER_BACKENDS:
        raise reader.fail("parts.speaker", speaker, f"a speaker comes from {', '.join(SPEAKER_BACKENDS)} (or leave it out: none)")
    return PartsConfig(
        speaker=speaker,
        inputs=tuple(dict.fromkeys(_part_backend(reader, f"parts.inputs[{n}]", v, "inputs")
                                   for n, v in enumerate(inputs))),
        pegboard=None if pegboard is None else _part_backend(reader, "parts.pegboard", pegboard, "pegboard"),
        displays=tuple(_display(reader, f"parts.displays[{n}]", d, oled) for n, d in enumerate(displays)),
    )


def _leds(reader: _Reader, table: Mapping[str, Any]) -> LedSettings:
    reader.bounded(table, "leds")
    try:
        return LedSettings(**table)
    except CribpiError as exc:
        raise reader.fail("leds", dict(table), str(exc)) from None


def _relative(reader: _Reader, key: str, value: str | None, what: str) -> Path | None:
    """A path from the file (``~`` expanded), relative to the file's folder."""
    if value is None:
        return None
    try:
        path = user_path(value, what)
    except ConfigError as exc:
        raise ConfigError(f"{escaped(reader.path)}: {key} = {exc}") from None
    return path if path.is_absolute() else reader.path.parent / path


def _sections(reader: _Reader, data: Mapping[str, Any]) -> None:
    if (found := unprintable_in(data)) is not None:  # TOML takes "\u001b[2J": no text may clear the terminal
        raise reader.fail(*found)
    reader.check_keys(data, _SECTIONS, "")
    for section, keys in _SECTION_KEYS.items():
        reader.check_keys(data.get(section, {}), keys, f"{section}.")
    for section in ("controller", "card_reader"):
        port = data.get(section, {}).get("port")
        if port is not None and (not port.strip() or "\0" in port or len(port) > 255):
            raise reader.fail(f"{section}.port", port, "a serial port (/dev/ttyACM0) or a pyserial URL")


def _controller_timing(reader: _Reader, table: Mapping[str, Any]) -> LinkTiming:
    """``[controller]``'s numbers (bounded in ``_NUMBERS``) as the link's timing."""
    reader.bounded(table, "controller")
    timing = LinkTiming()
    if "ack_timeout_ms" in table:
        timing = replace(timing, ack_timeout_s=table["ack_timeout_ms"] / 1000)
    if "reconnect_max_ms" in table:
        timing = replace(timing, backoff_max_s=table["reconnect_max_ms"] / 1000)
    return replace(timing, retries=table.get("retries", timing.retries))


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")


def _tournament(reader: _Reader, table: Mapping[str, Any]) -> TournamentConfig:
    """``[tournament]``: a broker URL turns it on; then the event and table ids are required."""
    broker = table.get("broker")
    if broker is None:
        return TournamentConfig()
    if not broker_url(broker):
        raise reader.fail("tournament.broker", broker, "mqtt://host[:port] or mqtts://host[:port], a port 1-65535")
    for key in ("event", "table"):
        if not _NAME.fullmatch(str(table.get(key, ""))):
            raise reader.fail(f"tournament.{key}", table.get(key), "1-32 letters, digits, - or _ (required with a broker)")
    if "password" in table and "password_file" in table:
        raise reader.fail("tournament.password_file", table["password_file"], "either password or password_file, not both")
    if "password" in table and not table["password"].strip():
        raise reader.fail("tournament.password", table["password"], "the table's password (from credentials.json)")
    password_file = _relative(reader, "tournament.password_file", table.get("password_file"), "password file")
    if password_file is not None:
        _readable(reader, "tournament.password_file", table["password_file"], password_file, "password file")
        if not read_user_text(password_file, "password file").partition("\n")[0].strip():
            raise reader.fail("tournament.password_file", table["password_file"],
                              f"a file ({password_file}) with the table's password on its first line; its first line is empty")
    ca = _relative(reader, "tournament.ca", table.get("ca"), "CA certificate")
    if ca is not None:
        _readable(reader, "tournament.ca", table["ca"], ca, "CA certificate")
        if b"-----BEGIN " not in read_user_bytes(ca, "CA certificate"):
            raise reader.fail("tournament.ca", table["ca"], f"a CA certificate as a PEM file; {ca} holds no -----BEGIN")
    return TournamentConfig(
        broker=broker, event=table["event"], table=table["table"], username=table.get("username"),
        password=table.get("password"), password_file=password_file, ca=ca,
    )


def _readable(reader: _Reader, key: str, value: str, path: Path, what: str) -> None:
    """``path`` (``key = value`` in the file) is a regular file this user can read."""
    try:
        read_user_bytes(path, what)
    except ConfigError as exc:
        raise reader.fail(key, value, f"a readable {what} ({exc})") from None


def _speech(reader: _Reader, table: Mapping[str, Any]) -> SpeechConfig:
    reader.bounded(table, "speech")
    return speech_config(table, reader.fail)


def _game_length(reader: _Reader, table: Mapping[str, Any]) -> int | None:
    """``[game] game_length``: 121 or 61 points (type-checked by ``_SECTION_KEYS``)."""
    length = table.get("game_length")
    if length is not None and length not in GAME_LENGTHS:
        raise reader.fail("game.game_length", length, "121 or 61 (the points a game is played to)")
    return length


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Read the configuration at ``path``; ``None`` gives the defaults."""
    if path is None:
        return Config()
    path = user_path(path, "configuration file")
    data = _read_toml(path)
    reader = _Reader(path)
    _sections(reader, data)
    layout = _relative(reader, "layout", data.get("layout"), "layout file")
    backend = data.get("backend")
    if backend is not None and backend not in BACKENDS:
        raise reader.fail("backend", backend, f"one of {', '.join(BACKENDS)}")
    try:
        board_layout = load_layout(layout) if layout else None
    except ConfigError as exc:
        raise ConfigError(f"{escaped(path)}: layout = {shown(data.get('layout'))}: {exc}") from None
    oled = _oled(reader, data.get("oled", {}))
    db = _relative(reader, "db", data.get("db"), "game journal")
    if db is not None and db.is_dir():
        raise reader.fail("db", data["db"], "a folder: expected the journal's file in it (e.g. games.db)")
    return Config(
        path=path,
        backend=backend,
        pins=_pins(reader, data["pins"]) if "pins" in data else dict(DEFAULT_PINS),
        timing=_timing(reader, data.get("buttons", {})),
        oled=oled,
        leds=_leds(reader, data.get("leds", {})),
        layout=layout,
        board_layout=board_layout,
        db=db or default_db_path(),
        controller_port=data.get("controller", {}).get("port"), controller_timing=_controller_timing(reader, data.get("controller", {})),
        card_reader_port=data.get("card_reader", {}).get("port"), parts=_parts(reader, data.get("parts", {}), oled),
        tournament=_tournament(reader, data.get("tournament", {})),
        speech=_speech(reader, data.get("speech", {})),
        game_length=_game_length(reader, data.get("game", {})), phones=phones_config(data.get("phones", {}), reader.fail),
    )
