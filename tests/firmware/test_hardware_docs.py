"""hardware/README.md's pin tables and key matrix agree with the default configuration and
the firmware's constants; the BOM has what a maker needs; every layout loads."""

import csv
import re

import pytest

import settings
from cribpi.config import DEFAULT_PINS
from cribpi.hal.layout import load_layout
from tests.firmware import rig

README = (rig.ROOT / "hardware" / "README.md").read_text()
#: The Pi's 40-pin header: BCM GPIO -> physical pin (the pins the tables may use).
PI_HEADER = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 23: 16, 24: 18, 25: 22, 5: 29, 6: 31, 12: 32,
             13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40, 14: 8, 15: 10, 18: 12, 7: 26, 8: 24,
             9: 21, 10: 19, 11: 23}
#: The Pico's pins: GPn -> physical pin (GND at 3, 8, 13, 18, 23, 28, 33, 38).
PICO_PINS = {n: n + 1 + (n + 2) // 4 if n < 16 else 0 for n in range(16)} | {
    16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}


def table(heading):
    """The rows of the first table under ``### heading``, as lists of cell texts."""
    section = README.split(f"### {heading}\n", 1)[1]
    lines = [line for line in section.split("\n## ")[0].split("\n### ")[0].splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def test_the_pico_header_map_is_right():
    assert [PICO_PINS[n] for n in (0, 1, 2, 3, 4, 5, 6, 9, 10, 13, 14, 15)] == [1, 2, 4, 5, 6, 7, 9, 12, 14, 17, 19, 20]


def test_the_pi_table_is_the_default_configuration():
    rows = table("Raspberry Pi pins")
    buttons = {int(gpio): name for name, gpio, _ in rows if not name.startswith("OLED")}
    assert buttons == {pin: str(binding.press) for pin, binding in DEFAULT_PINS.items()}
    for name, gpio, header in rows:
        assert PI_HEADER[int(gpio)] == int(header), f"{name}: GPIO{gpio} is header pin {PI_HEADER[int(gpio)]}"
    i2c = {name.split()[1]: int(gpio) for name, gpio, _ in rows if name.startswith("OLED")}
    assert i2c == {"SDA": 2, "SCL": 3}  # I2C1, the bus cribpi opens ([oled] port = 1)


def test_the_pico_table_is_the_firmwares_pins():
    rows = table("Pico pins")
    found = {"LED strip": {}, "key row": {}, "key column": {}, "card reader": {}}
    for name, gpio, pin in rows:
        kind, number = re.fullmatch(r"(LED strip|key row|key column|card reader) (\d+|RX|TX)(?: data)?", name).groups()
        gp = int(gpio.removeprefix("GP"))
        found[kind][number if number in ("RX", "TX") else int(number)] = gp
        assert PICO_PINS[gp] == int(pin), f"{name}: {gpio} is Pico pin {PICO_PINS[gp]}"
    assert tuple(found["LED strip"][n] for n in sorted(found["LED strip"])) == settings.LED_PINS
    assert tuple(found["key row"][n] for n in sorted(found["key row"])) == settings.ROW_PINS
    assert tuple(found["key column"][n] for n in sorted(found["key column"])) == settings.COL_PINS
    assert found["card reader"] == {"RX": settings.CARD_RX_PIN, "TX": settings.CARD_TX_PIN}
    used = [gp for pins in found.values() for gp in pins.values()]
    assert len(used) == len(set(used)), "a Pico pin is used twice"


def test_the_key_matrix_table_is_the_firmwares_key_map():
    rows = table("Key matrix")
    assert tuple(tuple(cells[1:]) for cells in rows) == settings.KEYMAP
    assert [int(cells[0]) for cells in rows] == list(range(len(settings.ROW_PINS)))


def test_the_bom_names_every_part_a_maker_needs():
    with (rig.ROOT / "hardware" / "bom.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert set(rows[0]) == {"part", "quantity", "example_part_number", "notes"}
    parts = " ".join(row["part"] for row in rows)
    for needed in ("Pico", "WS2812B", "74AHCT125", "resistor", "capacitor", "5 V power supply",
                   "push buttons", "SSD1306", "SH1106", "key matrix"):
        assert needed in parts, needed
    assert all(row["quantity"] for row in rows)


@pytest.mark.parametrize("tracks", [2, 3, 4])
def test_there_is_a_layout_for_every_board_size(tracks):
    layouts = [load_layout(p) for p in sorted((rig.ROOT / "hardware" / "layouts").glob("*.toml"))]
    sized = [layout for layout in layouts if layout.tracks == tracks]
    assert sized and all(length <= settings.MAX_LEDS for layout in sized for length in layout.strip_lengths.values())
    assert all(len(layout.strip_lengths) <= len(settings.LED_PINS) for layout in sized)
