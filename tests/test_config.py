from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribpi.config import DEFAULT_PINS, load_config
from cribpi.exc import ConfigError
from cribpi.hal.actions import Action

SAMPLE = Path(__file__).parents[1] / "hardware" / "cribpi.toml"


def write(tmp_path, text):
    path = tmp_path / "cribpi.toml"
    path.write_text(text)
    return path


def test_defaults_without_a_file():
    config = load_config(None)
    assert config.backend is None and config.pins == DEFAULT_PINS
    assert config.oled.address == 0x3C and config.oled.driver == "ssd1306"
    assert config.db.name == "cribpi.db"


def test_the_sample_loads_with_its_layout():
    config = load_config(SAMPLE)
    assert config.backend == "pi"
    assert config.board_layout is not None and config.board_layout.tracks == 2
    assert config.pins[27].hold == Action.parse("undo_long")


def test_an_empty_file_is_the_defaults(tmp_path):
    config = load_config(write(tmp_path, ""))
    assert config.pins == DEFAULT_PINS and config.leds.brightness == 0.5


def test_values_and_relative_paths(tmp_path):
    config = load_config(write(tmp_path, """
backend = "sim"
db = "games.db"
[pins]
GPIO5 = "rank 5"
6 = { press = "ok", hold = "menu" }
[buttons]
debounce_ms = 10
long_press_ms = 600
repeat_ms = 300
[oled]
driver = "sh1106"
rotate = 180
address = 0x3D
[leds]
brightness = 0.25
current_cap_ma = 1500
marks = false
"""))
    assert config.db == tmp_path / "games.db"
    assert config.pins[5].press == Action.parse("rank 5") and config.pins[5].hold is None
    assert config.pins[6].hold == Action.parse("menu")
    assert config.timing.repeat_s == pytest.approx(0.3)
    assert (config.oled.driver, config.oled.rotate, config.oled.address) == ("sh1106", 180, 0x3D)
    assert config.leds.current_cap_ma == 1500 and not config.leds.marks


@pytest.mark.parametrize(
    "text, message",
    [
        ("backend = [", r"not valid TOML"),
        ("colour = 1", r"colour = 1 is not valid: unknown key; accepted: backend"),
        ("[oled]\ndriver = \"ssd1309\"", r"oled.driver = 'ssd1309' is not valid: ssd1306 or sh1106"),
        ("[oled]\nrotate = 90", r"oled.rotate = 90 .*0 or 180"),
        ("[oled]\nport = \"1\"", r"oled.port = '1' .*expected int"),
        ("[oled]\nbus = 1", r"oled.bus = 1 .*accepted: driver, port"),
        ("[pins]\n40 = \"ok\"", r"pins.40 .*BCM pin number 0-27"),
        ("[pins]\n17 = \"jump\"", r"pins.17 = 'jump' .*not an action"),
        ("[pins]\n17 = \"ok\"\nGPIO17 = \"go\"", r"GPIO17 is bound twice"),
        ("[leds]\nbrightness = 2", r"leds.brightness = 2 is not valid: a finite number 0-1"),
        ("[leds]\nbrightness = nan", r"leds.brightness = nan is not valid: a finite number 0-1"),
        ("[leds]\ncurrent_cap_ma = nan", r"leds.current_cap_ma = nan is not valid: a finite number 1-100000"),
        ("[leds]\ncurrent_cap_ma = inf", r"leds.current_cap_ma = inf is not valid"),
        ("[leds]\ncurrent_cap_ma = -5", r"leds.current_cap_ma = -5 is not valid"),
        ("[leds]\ncurrent_cap_ma = 1e300", r"leds.current_cap_ma = 1e\+300 is not valid"),
        ("[leds]\ngame_counter_leds = 99999999999999999999", r"leds.game_counter_leds = a number of 20 digits"),
        ("[leds]\ngame_counter_leds = 2.5", r"leds.game_counter_leds = 2.5 is not valid: expected int"),
        ("[buttons]\nlong_press_ms = inf", r"buttons.long_press_ms = inf is not valid: a finite number 1-60000"),
        ("[buttons]\ndebounce_ms = nan", r"buttons.debounce_ms = nan is not valid"),
        ("[buttons]\nrepeat_ms = -1", r"buttons.repeat_ms = -1 is not valid"),
        ("[oled]\naddress = 99999999999999999999999", r"oled.address = a number of 23 digits .*I2C address"),
        ("[oled]\ncontrast = -1", r"oled.contrast = -1 .*0-255"),
        ("db = \"~nosuchuser_cribpi/x.db\"", r"db = .*no user 'nosuchuser_cribpi'"),
        ("db = \"a\\u0000b\"", r"db = 'a\\x00b' is not valid: printable text \(it holds \\x00"),
        ("db = \" \"", r"db = ' ': a blank path; expected the path of a game journal"),
        ("a = " + "9" * 5000, r"not valid TOML: .*short numbers"),
        ("[parts]\npegboard = \"toaster\"", r"parts.pegboard = 'toaster' .*a pegboard comes from pi, controller, sim, mock"),
        ("[parts]\ndisplays = [\"controller\"]", r"parts.displays\[0\] = 'controller' .*the controller backend has no display; a display comes from pi, sim, mock"),
        ("[parts]\ninputs = [\"pi\", 3]", r"parts.inputs\[1\] = 3 .*inputs comes from"),
        ("[parts]\ndisplays = [{ backend = \"pi\", page = \"wall\" }]", r"parts.displays\[0\].page = 'wall' .*table, scores"),
        ("[parts]\ndisplays = [{ backend = \"pi\", size = \"96x16\" }]", r"parts.displays\[0\].size = '96x16' .*128x64, 128x32, 256x64"),
        ("[parts]\ndisplays = [{ page = \"scores\" }]", r"parts.displays\[0\].backend = None .*a display comes from"),
        ("[parts]\nleds = \"sim\"", r"parts.leds = 'sim' .*accepted: inputs, pegboard, displays"),
        ("[oled]\nsize = \"64x48\"", r"oled.size = '64x48'"),
        ("[leds]\nmarks = 1", r"leds.marks = 1 .*expected bool"),
        ("[buttons]\ndebounce_ms = 900", r"buttons = .*debounce"),
        ("layout = \"missing.toml\"", r"missing.toml: no such layout file"),
        ("[game]\ngame_length = 100", r"game.game_length = 100 is not valid: 121 or 61"),
        ("[game]\ngame_length = 61.0", r"game.game_length = 61.0 .*expected int"),
        ("[game]\ngame_length = true", r"game.game_length = True .*expected int"),
        ("[game]\nrules = \"hoyle\"", r"game.rules = 'hoyle' .*unknown key; accepted: game_length"),
    ],
)
def test_broken_files_name_the_file_and_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=message) as info:
        load_config(path)
    assert "cribpi.toml" in str(info.value) or "missing.toml" in str(info.value)


@pytest.mark.parametrize("text, length", [("[game]\ngame_length = 61", 61), ("[game]\ngame_length = 121", 121),
                                          ("[game]", None), ("", None)])
def test_the_game_length_of_the_tables_games(tmp_path, text, length):
    assert load_config(write(tmp_path, text)).game_length == length


def test_loading_changes_nothing(tmp_path):
    path = write(tmp_path, "[oled]\ndriver = \"nope\"")
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(ConfigError):
        load_config(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert path.read_text() == "[oled]\ndriver = \"nope\""


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "none.toml")


def test_parts_each_from_its_backend(tmp_path):
    from cribpi.config import DisplayConfig, OledConfig, PartsConfig

    path = tmp_path / "cribpi.toml"
    path.write_text('[oled]\ndriver = "sh1106"\n[parts]\ninputs = ["pi", "controller", "pi"]\npegboard = "controller"\n'
                    'displays = ["pi", { backend = "sim", page = "scores", size = "256x64", address = 0x3D }]\n')
    base = OledConfig(driver="sh1106")
    assert load_config(path).parts == PartsConfig(
        inputs=("pi", "controller"), pegboard="controller",
        displays=(DisplayConfig("pi", "table", base),
                  DisplayConfig("sim", "scores", OledConfig(driver="sh1106", address=0x3D, size=(256, 64)))))


def _fifo(tmp_path):
    import os

    path = tmp_path / "fifo.toml"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    "make, message",
    [
        (_fifo, r"fifo.toml: not a regular file \(a device, FIFO or socket\)"),
        (lambda tmp: Path("/dev/zero"), r"/dev/zero: not a regular file"),
        (lambda tmp: tmp, r": a folder; a configuration file is a text file"),
        (lambda tmp: write(tmp, "x" * 5_000_000), r"larger than 4096 kB"),
        (lambda tmp: (tmp / "b.toml", (tmp / "b.toml").write_bytes(b"a = 1\n\xff\xfe"))[0], r"byte 6 is not UTF-8"),
        (lambda tmp: "~nosuchuser_cribpi/c.toml", r"no user 'nosuchuser_cribpi'"),
        (lambda tmp: "a\0b.toml", r"NUL byte"),
    ],
    ids=["fifo", "dev-zero", "folder", "huge", "binary", "no-user", "nul"],
)
def test_only_a_small_regular_text_file_is_read(tmp_path, make, message):
    """A FIFO once hung `cribpi run`, /dev/zero never ended: both are refused before a read."""
    with pytest.raises(ConfigError, match=message):
        load_config(make(tmp_path))


def test_a_layout_that_is_a_fifo_is_refused(tmp_path):
    fifo = _fifo(tmp_path)
    with pytest.raises(ConfigError, match=r"layout = 'fifo.toml': .*not a regular file"):
        load_config(write(tmp_path, 'layout = "fifo.toml"'))
    assert fifo.exists()


# -- the reader under hypothesis: a Config or one ConfigError, nothing else ------------------


_VALUES = st.one_of(
    st.integers(-(10**30), 10**30), st.sampled_from([0, 1, 17, 0x3C, 180, 255, 2000, -1]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.text(max_size=12),
    st.sampled_from(["pi", "sim", "mock", "controller", "ok", "undo", "128x32", "ssd1306", "scores", "~x/y", "a\0b"]),
    st.lists(st.sampled_from(["pi", "sim", "mock", "controller", 3]), max_size=5),
)
_KEYS = {
    "": ["backend", "db", "layout", "colour"],
    "buttons": ["debounce_ms", "long_press_ms", "repeat_ms"],
    "oled": ["driver", "port", "address", "rotate", "contrast", "size", "bus"],
    "leds": ["brightness", "current_cap_ma", "marks", "game_counter_leds"],
    "pins": ["17", "GPIO27", "40", "x"],
    "parts": ["inputs", "pegboard", "displays"],
    "controller": ["port"],
    "card_reader": ["port"],
}


def _toml(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if value != value else ("inf" if value > 0 else "-inf") if abs(value) == float("inf") else repr(value)
    if isinstance(value, str):
        return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in value) + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


@st.composite
def config_texts(draw):
    lines = []
    for section, keys in _KEYS.items():
        chosen = draw(st.dictionaries(st.sampled_from(keys), _VALUES, max_size=3))
        if section and chosen:
            lines.append(f"[{section}]")
        lines += [f'"{key}" = {_toml(value)}' for key, value in chosen.items()]
    return "\n".join(lines) + "\n"


@settings(max_examples=int(os.environ.get("CRIBPI_FUZZ_EXAMPLES", 150)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=config_texts())
def test_any_configuration_loads_or_is_one_config_error(tmp_path, text):
    path = write(tmp_path, text)
    try:
        config = load_config(path)
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc)
        return
    assert math.isfinite(config.leds.current_cap_ma) and 0 <= config.leds.brightness <= 1
    assert 0 <= config.timing.debounce_s < config.timing.long_press_s <= 60


# -- nested past what a recursive parser survives: refused by the installed command, one line --


@pytest.mark.parametrize("text, line", [
    ("a = " + "[" * 5000 + "]" * 5000 + "\n", 1),
    ("backend = \"sim\"\nx = " + "{y = " * 900 + "1" + "}" * 900 + "\n", 2),
])
def test_config_check_on_a_deeply_nested_file_exits_2_with_one_line(tmp_path, text, line):
    """As a user runs it: the ``cribpi`` script beside this Python (a RecursionError's
    3,000-line traceback and exit 1 before)."""
    import subprocess
    import sys

    path = tmp_path / "deep.toml"
    path.write_text(text)
    script = Path(sys.executable).with_name("cribpi")
    done = subprocess.run([str(script), "config", "--check", str(path)], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr[:500]
    assert done.stderr == (f"cribpi config: {path}: nested deeper than 32 (line {line}); at most 32 levels of "
                           "arrays and tables are accepted in a configuration file\n")
