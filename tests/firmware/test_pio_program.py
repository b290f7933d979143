"""The WS2812 program as the rp2 port assembles it: run with its own globals (as
``rp2.asm_pio`` runs it), under CPython with the stub and under the real MicroPython VM.

On the Pico a program function that reads a module-level constant stops the firmware at boot
with a NameError (it did: ``T3``); the stub must fail the same way, or no test can see it.
"""

import subprocess

import pytest

from tests.firmware import rig

CYCLES_A_BIT = 10  # 8 MHz state machine, 1.25 us a bit


def bit_times(words):
    """(high, low) cycles of a 1 bit and of a 0 bit, walking the program as the state machine
    does: each instruction takes 1 + its delay cycles and drives its side-set value."""
    labels = {"bitloop": 0, "do_zero": 3}

    def run(bit):
        pc, high, low, seen = 0, 0, 0, 0
        while seen < 3:
            name, args, delay, side = words[pc]
            cycles = 1 + delay
            if side:
                high += cycles
            else:
                low += cycles
            seen += 1
            if name == "jmp" and (args[0] != "not_x" or bit == 0):
                pc = labels[args[-1]]
                if pc == 0:
                    break
            else:
                pc += 1
                if pc == len(words):
                    break
        return high, low

    return run(1), run(0)


def test_ws2812_program_assembles_with_its_own_globals_and_times_the_bits():
    import leds

    (one_high, one_low), (zero_high, zero_low) = bit_times(leds.ws2812.words)
    assert one_high + one_low == CYCLES_A_BIT
    assert zero_high + zero_low == CYCLES_A_BIT
    assert one_high > zero_high  # a 1's high time is the longer
    # WS2812: 0 high 0.4 us +-0.15, 1 high 0.8 us +-0.15 (at 8 MHz a cycle is 0.125 us)
    assert 0.25 <= zero_high * 0.125 <= 0.55
    assert 0.65 <= one_high * 0.125 <= 0.95


def test_the_stub_gives_the_module_its_globals_back_after_a_refused_program():
    import rp2

    namespace = {"rp2": rp2, "DELAY": 3}
    with pytest.raises(NameError):
        exec("@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW)\n"
             "def blink():\n"
             "    nop().side(1)[DELAY]\n", namespace)
    assert namespace["DELAY"] == 3 and namespace["rp2"] is rp2


@pytest.fixture()
def module_constant_program(tmp_path):
    source = tmp_path / "uses_constant.py"
    source.write_text(
        "import rp2\n"
        "DELAY = 3\n"
        "@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW)\n"
        "def blink():\n"
        "    nop().side(1)[DELAY]\n"
    )
    return source


def test_a_module_constant_in_a_program_is_a_name_error_under_cpython(module_constant_program, monkeypatch):
    monkeypatch.syspath_prepend(str(module_constant_program.parent))
    with pytest.raises(NameError, match="DELAY"):
        __import__("uses_constant")


def test_a_module_constant_in_a_program_is_a_name_error_under_micropython(module_constant_program):
    done = subprocess.run([rig.micropython(), str(module_constant_program)], capture_output=True, text=True,
                          timeout=30, env={"MICROPYPATH": rig.mpy_path(rig.STUBS)})
    assert done.returncode == 1
    said = done.stdout + done.stderr  # the unix port prints its traceback on stdout
    assert "NameError" in said and "DELAY" in said


def test_the_firmware_leds_module_imports_under_micropython():
    done = subprocess.run([rig.micropython(), "-c", "import leds; print(len(leds.ws2812.words))"],
                          capture_output=True, text=True, timeout=30,
                          env={"MICROPYPATH": rig.mpy_path(rig.FIRMWARE, rig.STUBS)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "4"
