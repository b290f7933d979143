"""Our bootrom (bootrom.mjs) under the stock MicroPython rp2 port: the soft-float functions the
SDK takes from the ROM give float32 results in the right registers, a float becomes an int by
truncation as C wants it (the ROM's conversions round down; the SDK's wrappers mend negatives),
and the flash functions erase and program rp2040js's flash so that a file written on the Pico's
littlefs reads back. A main.py of its own prints what it computed."""

from __future__ import annotations

import math
import struct


PROGRAM = '''
import math, os, struct
def bits(x):
    return struct.pack("<f", x).hex()
values = [1.5 + 2.25, 7 / 2, 10 / 3, 1 / 10 * 3, float(-7), float(123456789), math.sqrt(2.0),
          math.sin(1.0), math.cos(1.0), math.tan(0.5), math.exp(1.0), math.log(10.0), math.atan2(1.0, 2.0)]
print("FLOATS", " ".join(bits(v) for v in values))
print("INTS", int(-2.5), int(2.5), int(-0.5), math.floor(-2.5), math.ceil(-2.5), int(3e9), round(2.5), 7 // 2.0)
with open("probe.txt", "w") as fh:
    fh.write("cribpi" * 2000)
with open("probe.txt") as fh:
    text = fh.read()
print("FILE", len(text), text == "cribpi" * 2000, "probe.txt" in os.listdir())
print("DONE")
'''


def f32(value: float) -> float:
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


def test_the_rom_functions_under_micropython(boot, tmp_path):
    folder = tmp_path / "fw"
    folder.mkdir()
    (folder / "main.py").write_text(PROGRAM)
    pico = boot(firmware=folder)
    out = pico.wait_for(lambda: b"DONE" in pico.serial_out and bytes(pico.serial_out), what="the program's output")
    lines = {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in out.decode().splitlines() if " " in line}
    assert "Traceback" not in out.decode(), out
    got = [struct.unpack("<f", bytes.fromhex(word))[0] for word in lines["FLOATS"].split()]
    one, three, ten = f32(1.0), f32(3.0), f32(10.0)
    exact = [3.75, 3.5, f32(10 / 3), f32(f32(one / ten) * three), -7.0, f32(123456789), f32(math.sqrt(2))]
    assert got[:len(exact)] == exact
    near = [math.sin(1.0), math.cos(1.0), math.tan(0.5), math.exp(1.0), math.log(10.0), math.atan2(1.0, 2.0)]
    for value, wanted in zip(got[len(exact):], near):
        assert math.isclose(value, wanted, rel_tol=2e-7), (value, wanted)
    assert lines["INTS"] == "-2 2 0 -3 -2 3000000000 2 3.0"
    assert lines["FILE"] == "12000 True True"
