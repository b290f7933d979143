"""hardware/keycaps.svg, the printable key-cap sheet, is the firmware's key map: a cap for every
position in its place, each key's legend on it, and the sheet as hardware/keycaps.py draws it."""

import runpy
import xml.etree.ElementTree as ET

import pytest

import settings
from cribpi.hal.controller.keys import KEY_NAMES
from tests.firmware import rig

KEYCAPS = runpy.run_path(str(rig.ROOT / "hardware" / "keycaps.py"))
SVG = "{http://www.w3.org/2000/svg}"


def caps():
    root = ET.parse(rig.ROOT / "hardware" / "keycaps.svg").getroot()
    return {g.get("id"): g for g in root.iter(f"{SVG}g")}


def test_the_committed_sheet_is_the_one_the_key_map_draws():
    assert KEYCAPS["main"](["keycaps.py", "--check"]) == 0
    assert (rig.ROOT / "hardware" / "keycaps.svg").read_text(encoding="utf-8") == KEYCAPS["sheet"](settings.KEYMAP)


def test_every_key_has_its_cap_in_its_matrix_place():
    found = caps()
    for r, row in enumerate(settings.KEYMAP):
        for c, name in enumerate(row):
            group = found.pop(f"key-r{r}c{c}")
            texts = [t.text for t in group.iter(f"{SVG}text")]
            assert group.get("data-key") == name
            assert texts[0] == (KEYCAPS["LEGENDS"][name][0] or KEYCAPS["LEGENDS"][name][1]), (name, texts)
            assert texts[-1] == f"{r}{c}"  # the corner: row and column, for wiring
    assert not found, f"caps the key map has no key for: {sorted(found)}"


def test_the_seat_and_points_legends_are_what_the_peg_entry_does():
    from cribpi.app.pegkeys import pips
    from cribpi.rules import Rank

    legends = KEYCAPS["LEGENDS"]
    for name in "A23456789TJQK":
        assert legends[name][1] == f"+{pips(Rank.parse(name))}"
    assert [legends[s][1] for s in "CDHS"] == ["seat 1", "seat 2", "seat 3", "seat 4"]
    assert set(KEY_NAMES) <= set(legends)


def test_a_key_with_no_cap_is_named_in_the_error():
    with pytest.raises(SystemExit, match="a key 'seat' with no key cap: give it a legend"):
        KEYCAPS["sheet"]((("A", "seat"),))


def test_the_bom_buys_a_switch_and_a_diode_for_every_key():
    import csv
    import re

    keys = [name for row in settings.KEYMAP for name in row if name]
    with (rig.ROOT / "hardware" / "bom.csv").open(newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if "key matrix" in r["part"])
    counts = [int(n) for n in re.findall(r"\((\d+) keys\)", row["part"])]
    counts += [int(n) for n in re.findall(r"(\d+) x ", row["example_part_number"])]
    assert counts == [len(keys)] * 3, (row, len(keys))  # the keys, their switches, their diodes
    assert all(name in row["notes"] for name in ("peg", "muggins", "menu"))
