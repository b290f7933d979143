"""The controller's program: reads the host's lines from USB (sys.stdin, never blocking the
loop), answers each, draws the board on the strips, scans the keys, feeds the watchdog, and
shows the host-lost pattern when the host goes quiet. Tasks on one asyncio loop; main.py
starts it (start()).

A command is answered first and drawn right after: once its replies are out the read task
draws the frame itself, into the strips' second set of buffers while the last frame is still
going out of the first, and starts it as soon as the wire is free. The show task's ticker sets
``changed`` every quarter step for the animations and the flashes; the show task draws once
the last frame is out, and leaves the frame to the read task when a command is waiting.
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
from keys import Debouncer, Matrix, Sampler
from leds import Strips
from link import Controller, LineBuffer
from protocol import STEP_MS

READ_CHUNK = 256  # bytes read at once before the loop runs its other tasks
#: The garbage is collected (~5 ms on the Pico) when a frame has just started going out, at
#: most this often: the next frame waits for the wire (~8 ms) anyway, so a command coming in
#: meanwhile loses little. Rarely, so that few commands come in during one; often enough that
#: the heap (~190 KB free) never runs out in the middle of a command (a collection of its own
#: there): a peg every 0.3 s with its flashes makes ~15 KB of garbage a second.
COLLECT_MS = 4000
#: With no frame drawn for this long, the garbage is collected on an animation tick instead.
COLLECT_IDLE_MS = 10000
#: A file whose presence at boot keeps the firmware from starting, once (REPL).
REPL_FLAG = "repl.flag"


@micropython.viper
def gather(ipoll, readinto, one, buf, n: int) -> int:
    """The bytes waiting on the input (``ipoll`` and ``readinto`` its), one at a time through
    ``one`` (a bytearray of 1), into ``buf`` after its first ``n``, until none is waiting or
    ``buf`` is full; the count ``buf`` then holds. Viper: a Python loop a byte took about
    0.1 ms on the Pico, a third of a command's way in."""
    out = ptr8(buf)
    byte = ptr8(one)
    size = int(len(buf))
    while n < size:
        ready = 0
        for _ in ipoll(0):
            ready = 1
        if not ready:
            break
        readinto(one)
        out[n] = byte[0]
        n += 1
    return n


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
        # two sets of buffers: one drawn while the other goes out
        self.strips = (new_strips(layout), new_strips(layout))
        self.back = 0  # the set the next frame is drawn into
        self.out = Strips(settings.LED_PINS[:len(layout.STRIPS)])
        self.poller = select.poll()  # the input: a command waiting pre-empts an animation frame
        self.poller.register(sys.stdin.buffer, select.POLLIN)
        self.ended = False  # the input ended (a test's pipe): nothing more will wait on it
        self.keys = Debouncer()
        self.matrix = Matrix()
        self.sampler = Sampler(self.matrix)  # read from a timer interrupt: see keys.py
        self.timed = False  # whether the sampler has its timer (started by run())
        self.wdt = machine.WDT(timeout=settings.WDT_MS)
        self.drawn = None  # what the strips show: (board key, step, lost)
        self.collected = 0  # when the garbage was last collected (clock ms)
        self.changed = asyncio.Event()  # something to draw, perhaps: a command or a tick

    def send(self, line):
        if line is not None:  # None: an event before the handshake, which nobody hears
            sys.stdout.buffer.write(line)

    def pending(self):
        """Whether input is waiting: the read task will draw the frame."""
        if self.ended:
            return False
        for _, event in self.poller.ipoll(0):
            return bool(event & select.POLLIN)
        return False

    async def read(self):
        src = sys.stdin.buffer
        reader = asyncio.StreamReader(src)
        lines = LineBuffer()
        buf, one = bytearray(READ_CHUNK), bytearray(1)
        ipoll, readinto = self.poller.ipoll, src.readinto  # bound once
        while True:
            first = await reader.read(1)
            if not first:  # end of input: only a test's pipe ends; the USB port never does
                self.ended = True
                await asyncio.sleep_ms(50)
                continue
            self.ended = False
            buf[0] = first[0]
            for line in lines.feed(buf[:gather(ipoll, readinto, one, buf, 1)]):
                self.send(self.link.handle(line, self.clock.now()))
                self.report_keys()  # a press read meanwhile goes out between the replies
            if self.link.repl:
                await self.to_repl()
            # the replies are out: draw now, here, rather than after whatever task runs next
            # (a key scan, the ticker), into the buffers the last frame is not going out of
            self.redraw()

    async def to_repl(self):
        """The flasher asked for the REPL: its ACK out first, then a reset that stops at the
        REPL (see at_repl): with Ctrl-C taken for data and the watchdog running, mpremote could
        not stop the firmware itself."""
        await asyncio.sleep_ms(200)  # the ACK through USB before the port goes away
        with open(REPL_FLAG, "w") as flag:
            flag.write("the next boot stays at the REPL\n")
        machine.reset()

    def report_keys(self):
        """Send the key events of the matrix's readings taken since the last call."""
        tick = time.ticks_ms()
        for verb, key in self.sampler.take(self.keys, self.clock.now(), tick):
            self.send(self.link.event(verb, key))

    async def scan(self):
        """The keys' events, every SCAN_MS; the readings come from the sampler's interrupt
        (or, on a port with no timer, from here)."""
        self.timed = self.sampler.start()
        while True:
            if not self.timed:
                self.sampler.sample()
            self.report_keys()
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
            while self.out.busy():  # the last frame is still going out
                await asyncio.sleep_ms(1)
            if self.pending():  # a command: the read task draws it, and this step with it
                continue
            self.redraw(yielding=True)
            if self.clock.now() - self.collected >= COLLECT_IDLE_MS:
                self.collect()

    def collect(self):
        """Collect the garbage now, at a moment that costs no frame its time, unless a command
        is waiting (then at the next). Time, not gc.mem_free(), says when: it walks the whole
        heap, as long as a collection."""
        if not self.pending():
            gc.collect()
            self.collected = self.clock.now()

    def redraw(self, yielding=False):
        """Draw the board as it is now into the back buffers and send them once the last
        frame is out, unless the strips show it already; ``yielding``: not when a command came
        in meanwhile (its own redraw follows)."""
        now = self.clock.now()
        link = self.link
        step, animation, flashes = link.picture(now)  # each track's flash runs on its own clock
        moving = animation or link.board.animation != "-"
        wanted = (link.board.key(), step if moving else 0, tuple(flashes), animation)
        if wanted != self.drawn:
            strips = self.strips[self.back]
            stop = self.pending if yielding else None  # asked between the parts of the frame
            if not draw(link.board, layout, strips, step, animation, flashes, stop):
                return
            if yielding and self.pending():
                return
            self.out.write(strips)  # waits for the wire, if the last frame is still on it
            self.back ^= 1
            self.drawn = wanted
            if now - self.collected >= COLLECT_MS:
                self.collect()  # while this frame goes out


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


def start():
    """The firmware, for ever; or, once after a REPL command, the REPL."""
    if at_repl():
        print("cribpi: at the REPL for the flasher; a reset runs the firmware again")
    else:
        micropython.kbd_intr(-1)  # a 0x03 in the stream is data, not Ctrl-C
        asyncio.run(run())
