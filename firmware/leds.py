"""The strips: one PIO state machine per strip running the ws2812 program from MicroPython's
rp2 examples (side-set pin, autopull of 24 bits, 8 MHz: 10 cycles a bit), fed by a DMA channel
paced by the state machine's TX FIFO. Not the neopixel module: on the rp2 port it turns
interrupts off for the whole frame, and that loses USB bytes and key presses. Not sm.put()
either: it holds the CPU until the last word is in the FIFO, strip after strip, so a frame on
two strips took the sum of their wire times; the DMA channels run side by side while the CPU
goes on, so a frame takes the longest strip's time and the loop answers the host meanwhile.
"""

import rp2
import time
from machine import Pin

US_PER_LED = 30  # 24 bits at 800 kHz
LATCH_US = 300  # low this long between frames latches them (WS2812B-V5: 280 µs)


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
    """``write(strips)`` starts sending each strip's words (GRB << 8) to its state machine and
    returns at once; ``busy()`` says the last frame is still going out (or latching): its
    words are still being read, so neither they nor the next frame may be touched."""

    def __init__(self, pins):
        self.machines = []
        self.channels = []
        for number, pin in enumerate(pins):
            sm = rp2.StateMachine(number, ws2812, freq=8_000_000, sideset_base=Pin(pin))
            sm.active(1)
            self.machines.append(sm)
            dma = rp2.DMA()
            # 32-bit words, into the FIFO's one address, paced by state machine n of PIO0's
            # TX DREQ (DREQ_PIO0_TX0 + n)
            self.channels.append((dma, dma.pack_ctrl(size=2, inc_write=False, treq_sel=number)))
        self.until = time.ticks_us()

    def busy(self):
        if time.ticks_diff(self.until, time.ticks_us()) > 0:
            return True
        for dma, _ in self.channels:  # past its time, a frame's channels are done: a check
            if dma.active():
                return True
        return False

    def write(self, strips):
        while self.busy():
            pass
        longest = 0
        for (dma, ctrl), sm, words in zip(self.channels, self.machines, strips):
            dma.config(read=words, write=sm, count=len(words), ctrl=ctrl)
            longest = max(longest, len(words))
        for dma, _ in self.channels:  # then started together: config() takes a while each
            dma.active(1)
        self.until = time.ticks_add(time.ticks_us(), longest * US_PER_LED + LATCH_US)
