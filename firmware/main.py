"""The controller's program: reads the host's lines from USB (sys.stdin, never blocking the
loop), answers each, draws the board on the strips, scans the keys, feeds the watchdog, and
shows the host-lost pattern when the host goes quiet. Tasks on one asyncio loop.

A command is answered first and drawn right after: once its replies are out the read task
redraws itself, or, while the last frame is still going out, sets ``changed`` for the show task
to redraw as soon as it has; the show task's ticker sets it every quarter step for the
animations and the flashes.
"""

import os
import sys

import asyncio
import gc
import machine
import micropython
import select
import time

import layout
import settings
from draw import draw, new_strips
from cards import CardLines
from keys import Debouncer, Matrix
from leds import Strips
from link import Controller, LineBuffer
from protocol import STEP_MS

READ_CHUNK = 256  # bytes read at once before the loop runs its other tasks
#: Free heap below this at a tick: collect the garbage then, between commands, not when an
#: allocation runs out in the middle of one (a collection takes ~8 ms on the Pico).
COLLECT_BELOW = 48 * 1024
#: A file whose presence at boot keeps the firmware from starting, once (REPL).
REPL_FLAG = "repl.flag"


class Clock:
    """Milliseconds since start, without time.ticks_ms's wrap-around."""

    def __init__(self):
        self.last = time.ticks_ms()
        self.ms = 0

    def now(self):
        tick = time.ticks_ms()
        self.ms += time.ticks_diff(tick, self.last)
        self.last = tick
        return self.ms


class Firmware:
    def __init__(self):
        self.clock = Clock()
        self.link = Controller(layout, self.clock.now())
        self.strips = new_strips(layout)
        self.out = Strips(settings.LED_PINS[:len(layout.STRIPS)])
        self.keys = Debouncer()
        self.matrix = Matrix()
        self.wdt = machine.WDT(timeout=settings.WDT_MS)
        self.drawn = None  # what the strips show: (board key, step, lost)
        self.changed = asyncio.Event()  # something to draw, perhaps: a command or a tick

    def send(self, line):
        if line is not None:  # None: an event before the handshake, which nobody hears
            sys.stdout.buffer.write(line)

    async def read(self):
        src = sys.stdin.buffer
        poller = select.poll()
        poller.register(src, select.POLLIN)
        reader = asyncio.StreamReader(src)
        lines = LineBuffer()
        while True:
            data = bytearray(await reader.read(1))
            if not data:  # end of input: only a test's pipe ends; the USB port never does
                await asyncio.sleep_ms(50)
                continue
            poll, read = poller.poll, src.read  # bound once: this loop runs a byte at a time
            while len(data) < READ_CHUNK and poll(0):
                data += read(1)
            for line in lines.feed(data):
                self.send(self.link.handle(line, self.clock.now()))
            if self.link.repl:
                await self.to_repl()
            # the replies are out: draw now, here, rather than after whatever task runs next
            # (a key scan, the ticker), unless the last frame is still going out
            if self.out.busy():
                self.changed.set()
            else:
                self.redraw()

    async def to_repl(self):
        """The flasher asked for the REPL: its ACK out first, then a reset that stops at the
        REPL (see at_repl): with Ctrl-C taken for data and the watchdog running, mpremote could
        not stop the firmware itself."""
        await asyncio.sleep_ms(200)  # the ACK through USB before the port goes away
        with open(REPL_FLAG, "w") as flag:
            flag.write("the next boot stays at the REPL\n")
        machine.reset()

    async def scan(self):
        while True:
            for verb, key in self.keys.update(self.matrix.scan(), self.clock.now()):
                self.send(self.link.event(verb, key))
            await asyncio.sleep_ms(settings.SCAN_MS)

    async def cards(self):
        """Cards from a reader on the UART, when one is configured."""
        uart = machine.UART(settings.CARD_UART, baudrate=9600, tx=machine.Pin(settings.CARD_TX_PIN),
                            rx=machine.Pin(settings.CARD_RX_PIN))
        lines = CardLines()
        while True:
            if uart.any():
                for card in lines.feed(uart.read()):
                    self.send(self.link.event("CARD", card))
            await asyncio.sleep_ms(20)

    async def tick(self):
        while True:
            await asyncio.sleep_ms(STEP_MS // 4)
            self.changed.set()

    async def show(self):
        asyncio.create_task(self.tick())
        while True:
            await self.changed.wait()
            self.changed.clear()
            self.wdt.feed()
            while self.out.busy():  # the last frame is still going out of its buffers
                await asyncio.sleep_ms(1)
            self.redraw()
            if gc.mem_free() < COLLECT_BELOW:
                gc.collect()

    def redraw(self):
        now = self.clock.now()
        link = self.link
        step, animation, flashes = link.picture(now)  # each track's flash runs on its own clock
        moving = animation or link.board.animation != "-"
        wanted = (link.board.key(), step if moving else 0, tuple(flashes), animation)
        if wanted != self.drawn:
            draw(link.board, layout, self.strips, step, animation, flashes)
            self.out.write(self.strips)
            self.drawn = wanted


async def run():
    firmware = Firmware()
    tasks = [firmware.read(), firmware.scan(), firmware.show()]
    if settings.CARD_UART is not None:
        tasks.append(firmware.cards())
    await asyncio.gather(*tasks)


def at_repl():
    """True once after a REPL command: the flag is removed (so the next boot, mpremote's reset
    or a power cycle, runs the firmware) and this boot ends at the REPL, Ctrl-C on and no
    watchdog, for mpremote to copy the files."""
    try:
        os.remove(REPL_FLAG)
    except OSError:
        return False
    return True


if __name__ == "__main__":  # the Pico runs main.py as __main__; tests import it
    if at_repl():
        print("cribpi: at the REPL for the flasher; a reset runs the firmware again")
    else:
        micropython.kbd_intr(-1)  # a 0x03 in the stream is data, not Ctrl-C
        asyncio.run(run())
