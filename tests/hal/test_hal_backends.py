from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest
from PIL import Image

from cribpi.exc import ConfigError, HardwareError
from cribpi.config import Config, DisplayConfig, OledConfig, PartsConfig
from cribpi.hal import Action, ActionQueue, Kind, is_raspberry_pi, machine_backend
from cribpi.hal.mock import open_mock
from cribpi.hal.serial_cards import SerialCardReader
from cribpi.hal.term import frame_to_ansi, image_to_text
from cribpi.views.board import BoardModel, TrackModel
from cribpi.views.leds import render_board
from cribpi.views.model import PlayScreen
from cribpi.views.oled import render_screen
from cribpi.wiring import Inject, choose_backends, open_parts

PACKAGE = Path(__file__).parents[2] / "cribpi"


def model_file(tmp_path, text):
    path = tmp_path / "model"
    path.write_bytes(text.encode() + b"\0")
    return [path]


def test_raspberry_pi_detection(tmp_path):
    assert is_raspberry_pi(model_file(tmp_path, "Raspberry Pi 4 Model B Rev 1.4"))
    assert not is_raspberry_pi(model_file(tmp_path, "Pine64 RockPro64"))
    assert not is_raspberry_pi([tmp_path / "absent"])


def test_choice_order(tmp_path, monkeypatch):
    pi, other = model_file(tmp_path, "Raspberry Pi Zero 2 W"), [tmp_path / "absent"]
    assert machine_backend(pi) == "pi" and machine_backend(other) == "sim"
    monkeypatch.delenv("CRIBPI_BACKEND", raising=False)
    mixed = Config(backend="mock", parts=PartsConfig(pegboard="sim"))
    assert choose_backends(mixed).pegboard == "sim" and choose_backends(mixed).inputs == ("mock",)
    assert choose_backends(mixed, "pi").pegboard == "pi"  # --backend: every part
    monkeypatch.setenv("CRIBPI_BACKEND", "sim")
    assert choose_backends(mixed).inputs == ("sim",) and choose_backends(mixed).pegboard == "sim"
    assert choose_backends(mixed, "mock").displays[0].backend == "mock"


def test_the_controller_has_no_display_so_its_table_uses_the_pis():
    assert choose_backends(Config(backend="controller")).displays[0].backend == "pi"


def test_unknown_backend_names_the_accepted_ones():
    with pytest.raises(ConfigError, match="'lego' is not one of pi, controller, sim, mock"):
        open_parts(Config(), "lego")


def test_a_part_that_fails_closes_the_parts_already_open(monkeypatch):
    """The inputs open first; an OLED that does not answer then closes them again."""
    from cribpi.hal import sim

    closed = []
    monkeypatch.setattr(sim.SimInputs, "close", lambda self: closed.append(self))

    def no_oled(**_settings):
        raise HardwareError("no OLED answering at 0x3C on I2C bus 1")

    config = Config(parts=PartsConfig(inputs=("sim",), pegboard="sim", displays=(DisplayConfig("pi"),)))
    with pytest.raises(HardwareError, match="no OLED answering"):
        open_parts(config, inject=Inject(device_factory=no_oled))
    assert len(closed) == 1


def test_pi_without_gpio_says_what_to_do(monkeypatch):
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    with pytest.raises(HardwareError, match="CRIBPI_BACKEND=sim"):
        open_parts(Config(), "pi", Inject(device_factory=lambda **kw: pytest.fail("display opened first")))


def test_pi_passes_oled_settings_to_the_device_factory():
    from gpiozero.pins.mock import MockFactory
    from luma.core.device import dummy

    seen = {}

    def factory(**kwargs):
        seen.update(kwargs)
        return dummy(mode="1")

    config = Config(oled=OledConfig(driver="sh1106", port=3, address=0x3D, rotate=180, contrast=7))
    with open_parts(config, "pi", Inject(pin_factory=MockFactory(), device_factory=factory)) as parts:
        assert parts.backends == (("inputs", "pi"), ("pegboard", "pi"), ("display", "pi"))
    assert seen == {"driver": "sh1106", "port": 3, "address": 0x3D, "rotate": 180, "size": (128, 64)}


def test_a_mixed_build_takes_each_part_from_its_backend():
    """The reference build's shape: the Pi's buttons and OLED, another backend's LEDs, and a
    second OLED showing the scores."""
    from gpiozero.pins.mock import MockFactory
    from luma.core.device import dummy

    from cribpi.hal.frames import LatestFrameDisplay
    from cribpi.hal.pi import GpioInputs, OledDisplay
    from cribpi.hal.sim import SimPegboard

    config = Config(parts=PartsConfig(inputs=("pi",), pegboard="sim", displays=(
        DisplayConfig("pi"), DisplayConfig("pi", "scores", OledConfig(address=0x3D, size=(128, 32))))))
    made = []

    def factory(size, **kwargs):
        made.append(kwargs["address"])
        return dummy(width=size[0], height=size[1], mode="1")

    with open_parts(config, inject=Inject(pin_factory=MockFactory(), device_factory=factory)) as parts:
        assert isinstance(parts.inputs.sources[0], GpioInputs) and isinstance(parts.pegboard, SimPegboard)
        # each OLED is written by a thread of its own, so the loop never waits for the I2C bus
        assert all(isinstance(d, LatestFrameDisplay) and isinstance(d.inner, OledDisplay) for d in parts.displays)
        assert [d.size for d in parts.displays] == [(128, 64), (128, 32)] and made == [0x3C, 0x3D]
        assert parts.pages == ("table", "scores")


def test_mock_keeps_boards_and_images():
    with open_mock() as parts:
        board = BoardModel((TrackModel(3, 1, (255, 0, 0)), TrackModel(0, 0, (0, 0, 255))))
        parts.pegboard.show(board)
        parts.display.show(render_screen(PlayScreen(7, "Bob")))
        assert parts.boards == [board]
        assert parts.frames == [render_board(board)]
        assert parts.image.tobytes() == render_screen(PlayScreen(7, "Bob")).tobytes()


def test_the_mock_pegboard_keeps_the_last_boards_only():
    """A table left on the mock for days does not grow: the last BOARDS_KEPT boards are kept."""
    from cribpi.hal.mock import BOARDS_KEPT, MemoryPegboard

    pegboard = MemoryPegboard()
    boards = [BoardModel((TrackModel(n % 121, 0, (255, 0, 0)),)) for n in range(BOARDS_KEPT + 10)]
    for board in boards:
        pegboard.show(board)
    assert list(pegboard.boards) == boards[10:] and pegboard.shown == BOARDS_KEPT + 10
    assert pegboard.board == boards[-1]


def test_mock_press_with_bounces_is_one_action():
    with open_mock() as board, ActionQueue() as actions:
        board.inputs.start(actions)
        board.driver.press(Action.parse("go"), bounces=4)
        assert actions.drain() == [Action.parse("go")]


def test_mock_refuses_an_unbound_action():
    from cribpi.hal.buttons import PinBinding

    with open_mock(pins={2: PinBinding.for_press(Action.parse("ok"))}) as board:
        with pytest.raises(ConfigError, match="no pin is bound to menu: bound are ok"):
            board.press("menu")


def test_serial_card_reader_over_loop():
    reader = SerialCardReader("loop://")
    with ActionQueue() as actions:
        reader.start(actions)
        reader.port.write(b"5H\nnonsense\n10d\n")
        deadline = time.monotonic() + 30  # only bounds a failure: both cores may be busy
        got = []
        while len(got) < 3 and time.monotonic() < deadline:
            got += actions.drain()
            time.sleep(0.01)
        reader.close()
    assert [got[0], got[2]] == [Action.parse("card 5H"), Action.parse("card TD")]
    assert got[1].kind is Kind.REJECTED and "'nonsense' is not a card" in got[1].text
    assert eval(repr(got[1]), {"Action": Action}) == got[1]


def test_a_card_reader_on_an_all_mock_table_is_named_as_not_read(caplog):
    config = Config(backend="mock", card_reader_port="/dev/ttyUSB0")
    with caplog.at_level("WARNING", logger="cribpi.wiring"), open_parts(config) as parts:
        assert not isinstance(parts.inputs, SerialCardReader)
    assert any("[card_reader] port /dev/ttyUSB0 is not read" in r.getMessage() for r in caplog.records)


def test_serial_card_reader_bad_port():
    with pytest.raises(HardwareError, match="card reader"):
        SerialCardReader("nosuchscheme://x")


def test_image_to_half_blocks():
    image = Image.new("1", (128, 64))
    image.putpixel((0, 0), 1)
    image.putpixel((1, 1), 1)
    image.putpixel((2, 0), 1)
    image.putpixel((2, 1), 1)
    lines = image_to_text(image).split("\n")
    assert len(lines) == 32 and {len(line) for line in lines} == {128}
    assert lines[0][:4] == "▀▄█ "
    assert set("".join(lines[1:])) == {" "}


def test_image_to_text_draws_a_screen():
    text = image_to_text(render_screen(PlayScreen(15, "Alice")))
    assert "█" in text


def test_frame_to_ansi_rows_and_colours():
    frame = render_board(BoardModel((TrackModel(12, 6, (255, 0, 0), 1), TrackModel(0, 0, (0, 0, 255)))))
    text = frame_to_ansi(frame)
    lines = text.split("\n")
    assert len(lines) == 2 * 5  # 4 rows of 30 and the game hole, per track
    assert lines[0].startswith("T1   1 ")
    assert "\x1b[38;2;255;0;0m●" in lines[0]  # the front peg, full red
    assert "\x1b[38;5;" in frame_to_ansi(frame, truecolour=False)
    assert "games" in lines[0]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted((PACKAGE / "views").rglob("*.py")), ids=lambda p: p.name)
def test_views_import_no_hardware(path):
    banned = ("gpiozero", "luma", "serial", "cribpi.hal", "cribpi.app", "cribpi.daemon",
              "cribpi.store")
    bad = {name for name in _imports(path) if name.startswith(banned)}
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", sorted((PACKAGE / "hal").rglob("*.py")), ids=lambda p: p.name)
def test_hal_does_not_import_the_game_or_reach_up(path):
    above = ("cribpi.game", "cribpi.app", "cribpi.config", "cribpi.wiring", "cribpi.store", "cribpi.daemon")
    assert not {n for n in _imports(path) if n.startswith(above)}
