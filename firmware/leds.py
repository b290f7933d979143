"""The strips: one PIO state machine per strip running the ws2812 program from MicroPython's
rp2 examples (side-set pin, autopull of 24 bits, 8 MHz: 10 cycles a bit). Not the neopixel
module: on the rp2 port it turns interrupts off for the whole frame, and that loses USB bytes
and key presses; a state machine fed word by word leaves them on.
"""

import rp2
from machine import Pin


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=24)
def ws2812():
    # The assembler runs this function with its own globals, not this module's: a constant it
    # uses is defined here (a module-level one is a NameError at boot on the Pico).
    T1 = 2  # cycles of each bit's three phases
    T2 = 5
    T3 = 3
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[T3 - 1]
    jmp(not_x, "do_zero").side(1)[T1 - 1]
    jmp("bitloop").side(1)[T2 - 1]
    label("do_zero")
    nop().side(0)[T2 - 1]
    wrap()


class Strips:
    """``write(strips)`` sends each strip's words (GRB << 8) to its state machine."""

    def __init__(self, pins):
        self.machines = []
        for number, pin in enumerate(pins):
            sm = rp2.StateMachine(number, ws2812, freq=8_000_000, sideset_base=Pin(pin))
            sm.active(1)
            self.machines.append(sm)

    def write(self, strips):
        for sm, words in zip(self.machines, strips):
            sm.put(words)
